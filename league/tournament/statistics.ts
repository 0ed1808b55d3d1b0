/**
 * Match statistics of engine testing (cutechess-cli, fastchess, fishtest), after Michel Van den
 * Bergh's notes used by fishtest.
 *
 * Results are counted from one player's side:
 * - trinomial (single games): `[L, D, W]`, per-game scores 0, ½, 1;
 * - pentanomial (game pairs played with seats swapped on the same seed): `[LL, LD, DD+WL, WD, WW]`,
 *   indexed by the pair's score 0, ½, 1, 1½, 2 — stored on the per-game scale 0, ¼, ½, ¾, 1.
 *
 * A result vector is a discrete distribution (the "pdf"): value `aᵢ = i / (k − 1)` with
 * probability `pᵢ = nᵢ / N` (k = 3 or 5). Its mean `μ = Σ pᵢ aᵢ` is the expected score per game,
 * its variance `σ² = Σ pᵢ (aᵢ − μ)²` is per game (trinomial) or per pair (pentanomial); the
 * standard error of μ is `√(σ² / N)` with N games or pairs. The pentanomial variance counts the
 * correlation inside a pair (same deal, seats swapped), which the trinomial model overestimates.
 */
import { eloExpected } from '../ratings/elo';

/** Game results of one player: `[losses, draws, wins]`. */
export type Trinomial = readonly [number, number, number];
/** Game-pair results of one player by pair score 0, ½, 1, 1½, 2: `[LL, LD, DD+WL, WD, WW]`. */
export type Pentanomial = readonly [number, number, number, number, number];
/** Either kind of result vector. */
export type ResultCounts = Trinomial | Pentanomial;

/** A discrete distribution: `probs[i]` is the probability of `values[i]` (values ascending). */
export interface Pdf {
  values: number[];
  probs: number[];
}

/** Two-sided 95% quantile of the standard normal distribution. */
export const Z95 = 1.959963984540054;
/** Normalized Elo per unit of t-value: 800 / ln 10 (≈ 347.44). */
export const NELO_PER_T = 800 / Math.LN10;
/** Count that replaces an empty cell when regularizing (fishtest's ε). */
export const REGULARIZE_EPSILON = 1e-3;

/**
 * The distribution of a result vector (`aᵢ = i / (k − 1)`, `pᵢ = nᵢ / N`). With `regularize`,
 * empty cells count ε = 1e-3 (as fishtest does, so that maximum-likelihood fits keep every value
 * possible); N is then the regularized total.
 */
export function resultsToPdf(counts: readonly number[], options: { regularize?: boolean } = {}): { n: number; pdf: Pdf } {
  if (counts.length !== 3 && counts.length !== 5) throw new Error(`results: expected 3 (trinomial) or 5 (pentanomial) counts, got ${counts.length}`);
  const c = counts.map((x) => (options.regularize && x === 0 ? REGULARIZE_EPSILON : x));
  const n = c.reduce((a, b) => a + b, 0);
  return { n, pdf: { values: c.map((_, i) => i / (c.length - 1)), probs: c.map((x) => (n > 0 ? x / n : 0)) } };
}

/** Mean `Σ pᵢ aᵢ` and variance `Σ pᵢ (aᵢ − μ)²` of a distribution. */
export function pdfStats(pdf: Pdf): { mean: number; variance: number } {
  let mean = 0;
  for (let i = 0; i < pdf.values.length; i++) mean += pdf.probs[i] * pdf.values[i];
  let variance = 0;
  for (let i = 0; i < pdf.values.length; i++) variance += pdf.probs[i] * (pdf.values[i] - mean) ** 2;
  return { mean, variance };
}

/**
 * Logistic Elo difference of an expected score: `−400 · log10(1 / s − 1)`; ±Infinity at 1 and 0.
 * Example: 0.75 → 190.85.
 */
export function eloOfScore(score: number): number {
  if (score >= 1) return Infinity;
  if (score <= 0) return -Infinity;
  return -400 * Math.log10(1 / score - 1);
}

/** Expected score of a logistic Elo difference: `1 / (1 + 10^(−elo / 400))`. */
export function scoreOfElo(elo: number): number {
  return eloExpected(elo, 0);
}

/**
 * The standard normal distribution function Φ(x) = ½ · erfc(−x / √2); erfc from its Taylor
 * series (|x| < 3) or its continued fraction (|x| ≥ 3), accurate to about 1e-14.
 */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

function erfc(x: number): number {
  const z = Math.abs(x);
  let r: number;
  if (z < 3) {
    // erf(z) = 2/√π Σ (−1)ⁿ z^(2n+1) / (n! (2n+1))
    let term = z;
    let sum = z;
    for (let n = 1; n < 100 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
      term *= (-z * z) / n;
      sum += term / (2 * n + 1);
    }
    r = 1 - (2 / Math.sqrt(Math.PI)) * sum;
  } else {
    // erfc(z) = e^(−z²)/√π · 1 / (z + (1/2) / (z + 1 / (z + (3/2) / (z + ...)))), evaluated bottom-up
    let f = z;
    for (let k = 60; k >= 1; k--) f = z + k / 2 / f;
    r = Math.exp(-z * z) / Math.sqrt(Math.PI) / f;
  }
  return x >= 0 ? r : 2 - r;
}

/** What a result vector says about the strength difference. */
export interface EloEstimate {
  model: 'trinomial' | 'pentanomial';
  /** Games played (a pentanomial vector counts 2 per pair). */
  games: number;
  /** Expected score per game μ (0..1). */
  score: number;
  /** Logistic Elo difference of μ, with the 95% interval of μ (μ ± 1.96 · SE) mapped to Elo. */
  elo: number;
  eloLo: number;
  eloHi: number;
  /** Likelihood of superiority: Φ((μ − ½) / SE), the probability that the player is the stronger. */
  los: number;
  /**
   * Normalized Elo: `(μ − ½) / σ_game · 800 / ln 10`, with σ_game the per-game deviation
   * (`√σ²` for trinomial, `√(2 σ²_pair)` for pentanomial); its interval maps μ's interval the same way.
   */
  nElo: number;
  nEloLo: number;
  nEloHi: number;
  /** Standard error of μ. */
  se: number;
}

/**
 * Elo difference, 95% interval, likelihood of superiority and normalized Elo of a trinomial or
 * pentanomial result vector (unregularized: a perfect score gives Elo +Infinity).
 *
 * Formulas (see the module comment for μ and σ²): `SE = √(σ² / N)`;
 * `Elo = −400 log10(1/μ − 1)`; interval `[Elo(μ − 1.96 SE), Elo(μ + 1.96 SE)]` (clamped to 0..1);
 * `LOS = Φ((μ − ½) / SE)` (1, ½ or 0 when SE = 0); `nElo = (μ − ½) / σ_game · 800 / ln 10`.
 * No games: every figure NaN.
 */
export function eloEstimate(counts: ResultCounts): EloEstimate {
  const { n, pdf } = resultsToPdf(counts);
  const penta = counts.length === 5;
  const model = penta ? 'pentanomial' : 'trinomial';
  const games = penta ? 2 * n : n;
  if (n === 0) return { model, games: 0, score: NaN, elo: NaN, eloLo: NaN, eloHi: NaN, los: NaN, nElo: NaN, nEloLo: NaN, nEloHi: NaN, se: NaN };
  const { mean, variance } = pdfStats(pdf);
  const se = Math.sqrt(variance / n);
  const sigmaGame = Math.sqrt(penta ? 2 * variance : variance);
  const clamp = (s: number) => Math.min(1, Math.max(0, s));
  const lo = clamp(mean - Z95 * se);
  const hi = clamp(mean + Z95 * se);
  const nelo = (s: number) => (sigmaGame > 0 ? ((s - 0.5) / sigmaGame) * NELO_PER_T : s > 0.5 ? Infinity : s < 0.5 ? -Infinity : 0);
  const los = se > 0 ? normalCdf((mean - 0.5) / se) : mean > 0.5 ? 1 : mean < 0.5 ? 0 : 0.5;
  return { model, games, score: mean, elo: eloOfScore(mean), eloLo: eloOfScore(lo), eloHi: eloOfScore(hi), los, nElo: nelo(mean), nEloLo: nelo(lo), nEloHi: nelo(hi), se };
}

/** Adds result vectors of the same kind cell by cell. */
export function addCounts<T extends ResultCounts>(a: T, b: T): T {
  return a.map((x, i) => x + b[i]) as unknown as T;
}

/** Game points of a pentanomial vector (a pair scores 0, ½, 1, 1½ or 2 points). */
export function pentanomialPoints(p: Pentanomial): number {
  return 0 * p[0] + 0.5 * p[1] + 1 * p[2] + 1.5 * p[3] + 2 * p[4];
}
