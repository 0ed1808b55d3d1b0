import type { Rng } from '../../src/core/rng';
import { drawIndex, normalize, opponentsOf } from './pick';

/** A player with a confidence interval on its rating (e.g. a Bradley–Terry leaderboard row). */
export interface IntervalCandidate {
  id: string;
  lo: number;
  hi: number;
}

/** Uncertainty-mode settings. */
export interface UncertaintyOptions {
  /** Weight ∝ u^power (default 2); larger values concentrate on the widest pairings. */
  power?: number;
  /** Always take a widest pairing (ties drawn uniformly) instead of sampling (default false). */
  greedy?: boolean;
  /** Interval width assumed for a player without a finite interval (default 1000 points). */
  unknownWidth?: number;
}

function width(c: IntervalCandidate, unknown: number): number {
  const w = c.hi - c.lo;
  return Number.isFinite(w) && w >= 0 ? w : unknown;
}

/**
 * Uncertainty of a pairing: u = √(w_a² + w_b²), with w the players' interval widths — the
 * width of the interval on their rating difference if the two were independent. A match
 * between them is the one whose result is least predictable from what is known.
 */
export function pairUncertainty(a: IntervalCandidate, b: IntervalCandidate, unknownWidth = 1000): number {
  const wa = width(a, unknownWidth);
  const wb = width(b, unknownWidth);
  return Math.sqrt(wa * wa + wb * wb);
}

function choose(weights: number[], rng: Rng, greedy: boolean): number {
  if (!greedy) return drawIndex(normalize(weights), rng);
  const max = Math.max(...weights);
  const best = weights.map((w, i) => (w === max ? i : -1)).filter((i) => i >= 0);
  return rng.pick(best);
}

/**
 * Probabilities of opponents for `focal` in uncertainty mode: ∝ u(focal, j)^power
 * (uniform if all are zero).
 */
export function uncertaintyProbabilities(focal: IntervalCandidate, opponents: readonly IntervalCandidate[], options: UncertaintyOptions = {}): number[] {
  const power = options.power ?? 2;
  if (!(power >= 0)) throw new Error(`uncertainty: option "power" must be >= 0 (got ${String(options.power)})`);
  return normalize(opponents.map((o) => Math.pow(pairUncertainty(focal, o, options.unknownWidth), power)));
}

/** Picks an opponent for `focal` (excluded from `pool`) preferring the widest pairings. */
export function pickUncertainOpponent<T extends IntervalCandidate>(focal: IntervalCandidate, pool: readonly T[], rng: Rng, options: UncertaintyOptions = {}): T {
  const opponents = opponentsOf(pool, focal.id, 'uncertainty');
  const probs = uncertaintyProbabilities(focal, opponents, options);
  return opponents[choose(probs, rng, options.greedy ?? false)];
}

/**
 * Picks a pairing from all unordered pairs of `pool` with probability ∝ u^power (or a widest
 * one when `greedy`). Needs at least two players; O(n²) pairs.
 */
export function pickUncertainPair<T extends IntervalCandidate>(pool: readonly T[], rng: Rng, options: UncertaintyOptions = {}): [T, T] {
  if (pool.length < 2) throw new Error(`uncertainty: need at least 2 players to pair (got ${pool.length})`);
  const power = options.power ?? 2;
  if (!(power >= 0)) throw new Error(`uncertainty: option "power" must be >= 0 (got ${String(options.power)})`);
  const pairs: Array<[number, number]> = [];
  const weights: number[] = [];
  for (let a = 0; a < pool.length; a++) {
    for (let b = a + 1; b < pool.length; b++) {
      pairs.push([a, b]);
      weights.push(Math.pow(pairUncertainty(pool[a], pool[b], options.unknownWidth), power));
    }
  }
  const [a, b] = pairs[choose(weights, rng, options.greedy ?? false)];
  return [pool[a], pool[b]];
}
