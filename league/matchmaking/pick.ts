import type { Rng } from '../../src/core/rng';

/**
 * Normalizes non-negative weights into probabilities. When every weight is zero (or the
 * list has no finite positive total) the result is uniform, as in AlphaStar's PFSP.
 */
export function normalize(weights: readonly number[]): number[] {
  let total = 0;
  for (const w of weights) if (w > 0 && Number.isFinite(w)) total += w;
  if (!(total > 0)) return weights.map(() => 1 / weights.length);
  return weights.map((w) => (w > 0 && Number.isFinite(w) ? w / total : 0));
}

/** Draws one item with the given probabilities (from {@link normalize}) using `rng`. */
export function drawIndex(probabilities: readonly number[], rng: Rng): number {
  return rng.weighted(probabilities);
}

/** The pool without `excludeId`; throws `${what}: no opponent ...` when nothing is left. */
export function opponentsOf<T extends { id: string }>(pool: readonly T[], excludeId: string | undefined, what: string): T[] {
  const out = excludeId === undefined ? pool.slice() : pool.filter((p) => p.id !== excludeId);
  if (out.length === 0) throw new Error(`${what}: no opponent to choose from (pool of ${pool.length}${excludeId !== undefined ? `, excluding "${excludeId}"` : ''})`);
  return out;
}
