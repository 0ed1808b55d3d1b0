/**
 * The attackers of the Werewolf timing attack (issue 23, item 4) and how they are judged. They
 * use only what a spectator gets: the public events with a time per event (its arrival, live; its
 * `time` field, from the API). The issue's attacker knows which agent is slow (its name) and uses,
 * per seat, the median of (action − preceding turn) over the seat's public actions, and
 * `match.started`'s agent list (with counts: the agent holding as many seats as there are wolves
 * holds the wolf team; without counts, the smaller group of seats is taken as the wolves). The
 * stronger one fits phase durations (see {@link phaseAttack}).
 */
import type { MatchEvent, MatchStarted } from '../../src/core/events';
import { Rng } from '../../src/core/rng';

/** An event as the spectator saw it: `at` is its arrival (live) or its `time` field (API). */
export interface Seen {
  event: MatchEvent;
  at: number;
}

/** The attacker's guess per seat (wolf or not) for the seats it has timings of. */
export type Guess = Map<number, boolean>;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Per seat, the median of (public action − the turn before it): the seat's apparent decision time. */
export function seatDelays(stream: readonly Seen[]): Map<number, number> {
  const deltas = new Map<number, number[]>();
  let turnAt: number | null = null;
  for (const { event: e, at } of stream) {
    if (e.type === 'turn') turnAt = at;
    else if (e.type === 'action' && turnAt !== null && e.seat >= 0) {
      const list = deltas.get(e.seat) ?? [];
      list.push(at - turnAt);
      deltas.set(e.seat, list);
    }
  }
  return new Map([...deltas].map(([seat, d]) => [seat, median(d)]));
}

/**
 * The attacker of issue 23: splits the seats it has timings of at the midpoint of their delays
 * (slow above), then calls wolves the slow group when `match.started` shows the slow agent holding
 * exactly `wolves` seats, the fast group when it shows the slow agent holding another count, and
 * the smaller group when the list has no counts (each name once).
 */
export function attack(stream: readonly Seen[], slowName: string, wolves: number): Guess {
  const delays = seatDelays(stream);
  const started = stream.map((s) => s.event).find((e): e is MatchStarted => e.type === 'match.started');
  const values = [...delays.values()];
  const mid = (Math.min(...values) + Math.max(...values)) / 2;
  const slowSeats = new Set([...delays].filter(([, d]) => d > mid).map(([seat]) => seat));
  const count = started ? started.agents.filter((a) => a === slowName).length : 0;
  const counted = started !== undefined && new Set(started.agents).size < started.agents.length;
  let wolvesAreSlow: boolean;
  if (counted) wolvesAreSlow = count === wolves;
  else wolvesAreSlow = slowSeats.size * 2 < delays.size;
  const guess: Guess = new Map();
  for (const seat of delays.keys()) guess.set(seat, slowSeats.has(seat) === wolvesAreSlow);
  return guess;
}

/** Accuracy of guesses against the truth, over every guessed seat of every game. */
export function accuracy(guesses: readonly Guess[], truth: readonly boolean[][]): { right: number; total: number } {
  let right = 0;
  let total = 0;
  guesses.forEach((g, i) => {
    for (const [seat, wolf] of g) {
      total++;
      if (truth[i][seat] === wolf) right++;
    }
  });
  return { right, total };
}

/**
 * One-sided permutation test of "the attacker does better than chance": the truth is shuffled
 * among each game's guessed seats (so each game keeps its number of wolves), `rounds` times; the
 * p-value is the share of shuffles whose accuracy is at least the observed one (with the usual +1).
 */
export function permutationP(guesses: readonly Guess[], truth: readonly boolean[][], rounds: number, seed: number): number {
  const observed = accuracy(guesses, truth).right;
  const rng = Rng.fromSeed(seed);
  let atLeast = 0;
  for (let r = 0; r < rounds; r++) {
    const shuffled = guesses.map((g, i) => {
      const seats = [...g.keys()];
      const labels = seats.map((s) => truth[i][s]);
      for (let k = labels.length - 1; k > 0; k--) {
        const j = rng.int(k + 1);
        [labels[k], labels[j]] = [labels[j], labels[k]];
      }
      const t: boolean[] = [];
      seats.forEach((s, k) => (t[s] = labels[k]));
      return t;
    });
    if (accuracy(guesses, shuffled).right >= observed) atLeast++;
  }
  return (atLeast + 1) / (rounds + 1);
}

/**
 * A stronger attacker, for what the release per phase leaves visible: each phase's total duration.
 * A step takes about as long as its slowest actor, and who acts at each step is public (`turn`
 * events), so a phase lasts about a + b × (its steps with a slow seat among the actors). The
 * attacker tries every deal the public composition allows (which `wolves` of the `seats` seats are
 * wolves, and whether the slow agent holds the wolves or the villagers), fits a and b ≥ 0 by least
 * squares to the phases' durations (between the ends of consecutive phases: the latest time among
 * a phase's events, which for a released phase is its release), and takes the best fit. Given
 * the slow agent's decision time (`slowMs`, a prior an attacker may have), b is fixed to it.
 */
export function phaseAttack(stream: readonly Seen[], wolves: number, seats: number, slowMs?: number): Guess {
  // each phase's end: the latest time among its events (a stamped phase has one time, its release)
  const phases: { end: number; actors: number[][] }[] = [];
  let label: string | undefined | null = null;
  for (const { event: e, at } of stream) {
    if (e.type === 'turn' && (e.phase !== label || phases.length === 0)) {
      phases.push({ end: at, actors: [] });
      label = e.phase;
    }
    const p = phases[phases.length - 1];
    if (!p) continue;
    if (e.type === 'turn') p.actors.push(e.toAct);
    p.end = Math.max(p.end, at);
  }
  const rows = phases.slice(1).map((p, i) => ({ duration: p.end - phases[i].end, actors: p.actors }));
  const guess: Guess = new Map();
  if (rows.length < 3) return guess;
  let best = { err: Infinity, wolfSet: [] as number[] };
  const combos = (from: number, k: number): number[][] => (k === 0 ? [[]] : from >= seats ? [] : [...combos(from + 1, k - 1).map((c) => [from, ...c]), ...combos(from + 1, k)]);
  for (const wolfSet of combos(0, wolves)) {
    for (const slowIsWolves of [true, false]) {
      const slow = (s: number) => s >= 0 && wolfSet.includes(s) === slowIsWolves;
      const xs = rows.map((r) => r.actors.filter((toAct) => toAct.some(slow)).length);
      const ys = rows.map((r) => r.duration);
      const mx = xs.reduce((acc, x) => acc + x, 0) / xs.length;
      const my = ys.reduce((acc, y) => acc + y, 0) / ys.length;
      const sxx = xs.reduce((acc, x) => acc + (x - mx) ** 2, 0);
      const b = slowMs ?? (sxx > 0 ? Math.max(0, xs.reduce((acc, x, i) => acc + (x - mx) * (ys[i] - my), 0) / sxx) : 0);
      const a = my - b * mx;
      const err = ys.reduce((acc, y, i) => acc + (y - a - b * xs[i]) ** 2, 0);
      if (err < best.err) best = { err, wolfSet };
    }
  }
  for (let s = 0; s < seats; s++) guess.set(s, best.wolfSet.includes(s));
  return guess;
}

