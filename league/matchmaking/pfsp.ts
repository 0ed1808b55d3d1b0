import type { Rng } from '../../src/core/rng';
import { drawIndex, normalize, opponentsOf } from './pick';

/**
 * PFSP weightings (AlphaStar, Vinyals et al. 2019): f maps x = P[focal beats opponent] to a
 * non-negative weight.
 * - hard: (1 − x)^p — focus on the opponents the focal player loses to (p = 2: AlphaStar's "squared");
 * - var: x(1 − x) — prefer opponents around the focal player's level;
 * - linear: 1 − x;
 * - linear-capped: min(0.5, 1 − x) — the league exploiter's weighting.
 */
export type PfspWeighting = 'hard' | 'var' | 'linear' | 'linear-capped';

/** PFSP settings. */
export interface PfspOptions {
  /** Weighting function (default "hard"). */
  weighting?: PfspWeighting;
  /** Exponent p of f_hard (default 2). */
  p?: number;
}

/** f_hard(x) = (1 − x)^p. */
export function fHard(x: number, p = 2): number {
  return Math.pow(Math.min(1, Math.max(0, 1 - x)), p);
}

/** f_var(x) = x(1 − x). */
export function fVar(x: number): number {
  const c = Math.min(1, Math.max(0, x));
  return c * (1 - c);
}

/** f_linear(x) = 1 − x; f_linear_capped(x) = min(0.5, 1 − x). */
export function fLinear(x: number, cap = Infinity): number {
  return Math.min(cap, Math.min(1, Math.max(0, 1 - x)));
}

/** The PFSP weight f(x) of one win probability. */
export function pfspWeight(x: number, options: PfspOptions = {}): number {
  const w = options.weighting ?? 'hard';
  switch (w) {
    case 'hard': {
      const p = options.p ?? 2;
      if (!(p > 0)) throw new Error(`pfsp: option "p" must be > 0 (got ${String(options.p)})`);
      return fHard(x, p);
    }
    case 'var':
      return fVar(x);
    case 'linear':
      return fLinear(x);
    case 'linear-capped':
      return fLinear(x, 0.5);
    default:
      throw new Error(`pfsp: option "weighting" must be one of "hard", "var", "linear", "linear-capped" (got "${String(w)}")`);
  }
}

/**
 * Opponent probabilities ∝ f(P[win]) over the given win probabilities of the focal player;
 * uniform when every weight is zero (e.g. f_hard against opponents it always beats).
 */
export function pfspProbabilities(winProbabilities: readonly number[], options: PfspOptions = {}): number[] {
  return normalize(winProbabilities.map((x) => pfspWeight(x, options)));
}

/**
 * Prioritized fictitious self-play: picks an opponent for `focalId` from `pool` (the focal
 * player excluded) with probability ∝ f(P[focal beats opponent]); `winProbability(a, b)`
 * is typically `HeadToHead.winProbability` (recorded results with a prior for unplayed pairs).
 * Throws when no opponent is left.
 */
export function pickPfspOpponent<T extends { id: string }>(
  focalId: string,
  pool: readonly T[],
  winProbability: (a: string, b: string) => number,
  rng: Rng,
  options: PfspOptions = {},
): T {
  const opponents = opponentsOf(pool, focalId, 'pfsp');
  const probs = pfspProbabilities(
    opponents.map((o) => winProbability(focalId, o.id)),
    options,
  );
  return opponents[drawIndex(probs, rng)];
}
