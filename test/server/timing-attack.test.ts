/**
 * Issue 23, item 4: Werewolf roles must not be readable from public timing. Ten games between a
 * slow agent (a fixed delay per decision, as a language model takes) and a fast scripted one,
 * each filling one team (each holds the wolves in five), watched by a spectator live over
 * socket.io and afterwards from the HTTP API over SQLite (bench/timing-attack/attack.ts). The
 * attacker: per seat, the median of (public action − the turn before it); `match.started`'s
 * agent list (counts name the wolf holder; without counts the smaller group is called wolves).
 *
 * Statistic: the attacker's accuracy on wolf vs not-wolf over every seat it has timings of, and
 * its one-sided permutation p-value (the truth shuffled among each game's seats, 2,000 times).
 * Bound: p > 0.001 on both public channels (no evidence of better than chance; a chance attacker
 * fails this one time in a thousand). The control — the same games' public events with the exact
 * times of the omniscient log, i.e. the public stream before the release per phase — must give
 * p < 0.001, so the games do separate the agents and the attacker works where time is exact.
 */
import { accuracy, attack, permutationP, playObserved, score } from '../../bench/timing-attack/attack';

/** Per-decision delay of the slow agent: far below an LLM's 150 ms, still well apart from the scripted agent. */
const SLOW_MS = 25;

test('the timing attack on Werewolf roles is at chance on the public stream (live and API), and works on exact times', async () => {
  const run = await playObserved({ games: 10, slowMs: SLOW_MS, control: true });
  const truth = run.games.map((g) => g.wolves);
  const control = run.games.map((g) => attack(g.control, run.slowName, run.wolvesPerGame));
  const c = accuracy(control, truth);
  const s = score(run);
  const report = JSON.stringify({ live: s.live, api: s.api, control: { ...c, p: permutationP(control, truth, 2000, 3) } });
  // The control: with exact times the attacker is right far beyond chance.
  expect(permutationP(control, truth, 2000, 3)).toBeLessThan(0.001);
  expect(c.total).toBeGreaterThanOrEqual(30);
  // The public view, live and from SQLite: no better than chance.
  console.log(report);
  expect(s.live.p).toBeGreaterThan(0.001);
  expect(s.api.p).toBeGreaterThan(0.001);
  // Nothing public is finer than a phase: inside a phase every public event has one time, the phase's end.
  for (const g of run.games) {
    const started = g.api.find((x) => x.event.type === 'match.started')!.event;
    expect(started).toMatchObject({ seatsHidden: true, seats: 8 });
    if (started.type === 'match.started') expect(started.agents).toEqual([...new Set(started.agents)].sort());
    let phase: string | undefined;
    let time = -1;
    for (const { event: e } of g.api) {
      if (e.type === 'turn' && e.phase !== phase) {
        phase = e.phase;
        time = e.time;
      } else if (e.type !== 'match.started' && e.type !== 'match.ended' && e.type !== 'reward' && phase !== undefined) expect(e.time).toBe(time);
    }
  }
}, 240_000);
