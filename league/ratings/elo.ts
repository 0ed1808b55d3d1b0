/**
 * Elo arithmetic: expected score and the update of one game between two ratings.
 * Ratings are in Elo points; `scale` is the rating difference at which the favourite's
 * odds are 10:1 (400 by convention).
 */

/** The default Elo scale: a 400-point edge means 10:1 odds. */
export const ELO_SCALE = 400;

/**
 * Expected score of a player rated `ra` against one rated `rb`: 1 / (1 + 10^((rb − ra) / scale)).
 * Example: a 200-point favourite expects 0.7597.
 */
export function eloExpected(ra: number, rb: number, scale = ELO_SCALE): number {
  return 1 / (1 + Math.pow(10, (rb - ra) / scale));
}

/**
 * One Elo update: `scoreA` is A's score (1 win, 0.5 tie, 0 loss), `k` the K factor.
 * Returns the new ratings [A, B]; the sum of the two is preserved.
 * Example: 1500 vs 1500, K = 32, A wins -> [1516, 1484].
 */
export function eloUpdate(ra: number, rb: number, scoreA: number, k: number, scale = ELO_SCALE): [number, number] {
  const d = k * (scoreA - eloExpected(ra, rb, scale));
  return [ra + d, rb - d];
}
