import type { Rng } from '../../src/core/rng';
import { drawIndex, normalize, opponentsOf } from './pick';

/** A player with a rating (Elo points). */
export interface RatedCandidate {
  id: string;
  rating: number;
}

/** Elo-closeness settings. */
export interface ClosenessOptions {
  /** Width σ of the Gaussian kernel, in rating points (default 200). */
  sigma?: number;
  /** Share ε of uniform exploration mixed in (default 0.1). */
  explore?: number;
}

/**
 * Probability of each opponent under Elo-closeness:
 *   P(j) = (1 − ε) · k_j / Σ k + ε / m,   k_j = exp(−½ ((r_j − r_focal) / σ)²)
 * over the m opponents: a Gaussian kernel on the rating gap (an opponent 1σ away is chosen
 * e^(−½) ≈ 0.61 times as often as an equal one, 2σ away 0.14 times), mixed with uniform
 * exploration so every opponent keeps at least ε/m. Gaps are taken relative to the closest
 * opponent, so far-apart ratings never underflow to all-zero weights.
 */
export function closenessProbabilities(focalRating: number, opponentRatings: readonly number[], options: ClosenessOptions = {}): number[] {
  const sigma = options.sigma ?? 200;
  const eps = options.explore ?? 0.1;
  if (!(sigma > 0)) throw new Error(`elo closeness: option "sigma" must be > 0 (got ${String(sigma)})`);
  if (!(eps >= 0 && eps <= 1)) throw new Error(`elo closeness: option "explore" must be in [0, 1] (got ${String(eps)})`);
  const m = opponentRatings.length;
  if (m === 0) return [];
  const z2 = opponentRatings.map((r) => ((r - focalRating) / sigma) ** 2);
  const min = Math.min(...z2);
  const kernel = normalize(z2.map((z) => Math.exp(-0.5 * (z - min))));
  return kernel.map((k) => (1 - eps) * k + eps / m);
}

/**
 * Picks an opponent for `focal` from `pool` (the focal player itself excluded) with the
 * {@link closenessProbabilities}. Throws when no opponent is left.
 */
export function pickCloseOpponent<T extends RatedCandidate>(focal: RatedCandidate, pool: readonly T[], rng: Rng, options: ClosenessOptions = {}): T {
  const opponents = opponentsOf(pool, focal.id, 'elo closeness');
  const probs = closenessProbabilities(
    focal.rating,
    opponents.map((o) => o.rating),
    options,
  );
  return opponents[drawIndex(probs, rng)];
}

/**
 * A pairing by Elo-closeness: the first player uniformly from `pool`, the second by
 * {@link pickCloseOpponent}. Needs at least two players.
 */
export function pairByCloseness<T extends RatedCandidate>(pool: readonly T[], rng: Rng, options: ClosenessOptions = {}): [T, T] {
  if (pool.length < 2) throw new Error(`elo closeness: need at least 2 players to pair (got ${pool.length})`);
  const first = rng.pick(pool);
  return [first, pickCloseOpponent(first, pool, rng, options)];
}
