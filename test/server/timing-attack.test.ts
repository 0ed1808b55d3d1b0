/**
 * Issue 23, item 4: Werewolf roles must not be readable from public timing
 * (bench/timing-attack/games.ts, attackers.ts). Games between a slow agent (a delay per decision, as a
 * language model takes) and a fast scripted one, each filling one team (each holds the wolves in
 * half of them).
 *
 * Attackers: the issue's — per seat the median of (public action − the turn before it), and
 * `match.started`'s agent list (counts name the wolf holder; without counts the smaller group is
 * called wolves); and a stronger one on what a per-phase release would leave — phase durations
 * (a phase lasts about a + b × its steps with a slow actor, actors being public), fitted over
 * every deal the composition allows.
 *
 * Statistic: accuracy on wolf vs not-wolf over every seat the attacker guesses, and its one-sided
 * permutation p-value (the truth shuffled among each game's guessed seats, 2,000 times). Bound:
 * p > 0.001 on every public channel (no evidence of better than chance; a chance attacker fails
 * it one time in a thousand, 0.1%). Each attacker must give p < 0.001 on the control — the same
 * games' public events with the exact times of the log, i.e. the public stream without the
 * release clock — so the games separate the agents and the attack works where time is exact.
 */
import { accuracy, attack, permutationP, phaseAttack, type Guess, type Seen } from '../../bench/timing-attack/attackers';
import { playObserved, playSimulated, score, type AttackRun } from '../../bench/timing-attack/games';

/** Accuracy and permutation p of an attacker on one channel of a run. */
function judge(run: AttackRun, channel: (g: AttackRun['games'][0]) => Seen[], attacker: (s: Seen[]) => Guess, seed: number) {
  const truth = run.games.map((g) => g.wolves);
  const guesses = run.games.map((g) => attacker(channel(g)));
  return { ...accuracy(guesses, truth), p: permutationP(guesses, truth, 2000, seed) };
}

test('live over socket.io and from the API over SQLite: the issue\'s attack is at chance on the public stream, and works on exact times', async () => {
  // 25 ms per decision: far below an LLM's 150 ms, still well apart from the scripted agent
  const run = await playObserved({ games: 10, slowMs: 25, control: true });
  const stated = (s: Seen[]) => attack(s, run.slowName, run.wolvesPerGame);
  const control = judge(run, (g) => g.control, stated, 3);
  const s = score(run);
  console.log(JSON.stringify({ live: s.live, api: s.api, control }));
  expect(control.p).toBeLessThan(0.001);
  expect(control.total).toBeGreaterThanOrEqual(30);
  expect(s.live.p).toBeGreaterThan(0.001);
  expect(s.api.p).toBeGreaterThan(0.001);
  expect(s.live.total).toBeGreaterThanOrEqual(30); // the live spectator saw every game's speeches
  for (const g of run.games) {
    const started = g.api.find((x) => x.event.type === 'match.started')!.event;
    expect(started).toMatchObject({ seatsHidden: true, seats: 8 });
    if (started.type === 'match.started') expect(started.agents).toEqual(['rule-based', 'slow-llm']);
    // nothing public is finer than a phase: inside a phase every public event has one time
    const times = new Map<string, Set<number>>();
    let phase = '';
    for (const { event: e } of g.api) {
      if (e.type === 'turn') phase = e.phase ?? '';
      if (e.type !== 'match.started') times.set(phase, (times.get(phase) ?? new Set()).add(e.time));
    }
    for (const [, set] of times) expect(set.size).toBe(1);
  }
}, 300_000);

test('on a simulated clock at 150 ± 30 ms: neither the issue\'s attack nor the phase-duration attack beats chance on the released stream; both work on exact times', async () => {
  jest.useFakeTimers({ now: 1_000_000 });
  let run: AttackRun;
  try {
    run = await playSimulated({ games: 10, slowMs: 150, jitterMs: 30, advance: (ms) => jest.advanceTimersByTimeAsync(ms) });
  } finally {
    jest.useRealTimers();
  }
  const stated = (s: Seen[]) => attack(s, run.slowName, run.wolvesPerGame);
  const phases = (s: Seen[]) => phaseAttack(s, run.wolvesPerGame, 8);
  const r = {
    stated: judge(run, (g) => g.api, stated, 11),
    statedControl: judge(run, (g) => g.control, stated, 12),
    phases: judge(run, (g) => g.api, phases, 13),
    phasesControl: judge(run, (g) => g.control, phases, 14),
  };
  console.log(JSON.stringify(r));
  expect(r.statedControl.p).toBeLessThan(0.001);
  expect(r.phasesControl.p).toBeLessThan(0.001);
  expect(r.stated.p).toBeGreaterThan(0.001);
  expect(r.phases.p).toBeGreaterThan(0.001);
  expect(r.phases.total).toBe(80); // it guessed every seat of every game
});
