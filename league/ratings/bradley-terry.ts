import type { PairTable } from './pair-counts';

/** Elo-like points per logit: 400 / ln 10 ≈ 173.72. */
export const ELO_PER_LOGIT = 400 / Math.LN10;

/** Bradley–Terry fit settings. */
export interface BtFitOptions {
  /**
   * Weak prior, in virtual games: every player is credited with `prior` games against a
   * fixed reference player of strength 1 (logit 0), half of them won. Its log-density is
   * (prior/2)·[θ − 2·ln(1 + e^θ)] per player (a logistic prior), so undefeated or winless
   * players get finite ratings and players without games sit at the reference. Default 1
   * (one virtual tie). 0 gives the plain MLE, which is finite only when every player has
   * both won and lost within a connected comparison graph.
   */
  prior?: number;
  /** The mean of the reported ratings (Elo-like points); default 1500. */
  anchor?: number;
  /** Stop when no log-strength moves more than this in one iteration (default 1e-10). */
  tol?: number;
  /** Iteration cap (default 10,000). */
  maxIter?: number;
}

/** A fitted Bradley–Terry model. */
export interface BtFit {
  ids: readonly string[];
  /** Strengths π_i = e^θ_i as fitted (with a prior, relative to the reference player at 1). */
  strengths: Float64Array;
  /** Ratings in Elo-like points: anchor + (θ_i − mean θ) · 400 / ln 10. */
  ratings: Float64Array;
  iterations: number;
  converged: boolean;
}

/** Work arrays for {@link solveStrengths}, reused across bootstrap fits. */
export interface BtScratch {
  num: Float64Array;
  den: Float64Array;
}

/** Scratch space for `n` players. */
export function btScratch(n: number): BtScratch {
  return { num: new Float64Array(n), den: new Float64Array(n) };
}

/**
 * Solves the Bradley–Terry score equations in place, starting from `pi` (warm start).
 * `wij[p]` is the credit of i over j for pair p (wins + ties/2), `wji[p]` that of j over i.
 *
 * Iteration (Newman 2023, "Efficient computation of rankings from pairwise comparisons";
 * the same fixed point as Zermelo / Hunter's MM but far fewer iterations):
 *   π_i ← [Σ_j w_ij π_j / (π_i + π_j)] / [Σ_j w_ji / (π_i + π_j)],
 * with the prior entering as `prior/2` wins and losses against a reference of strength 1.
 * After each update the common level is set exactly: with a prior by the prior's own
 * condition Σ σ(θ_i) = n/2 (see `priorShift`), without one by a geometric mean of 1.
 * Returns the number of iterations done (negative when `maxIter` was hit first).
 */
export function solveStrengths(
  I: Int32Array,
  J: Int32Array,
  wij: Float64Array,
  wji: Float64Array,
  pi: Float64Array,
  prior: number,
  tol: number,
  maxIter: number,
  scratch: BtScratch = btScratch(pi.length),
): number {
  const n = pi.length;
  const m = I.length;
  const { num, den } = scratch;
  const half = prior / 2;
  for (let it = 1; it <= maxIter; it++) {
    for (let k = 0; k < n; k++) {
      const r = half / (pi[k] + 1);
      num[k] = r;
      den[k] = r;
    }
    for (let p = 0; p < m; p++) {
      const i = I[p];
      const j = J[p];
      const a = pi[i];
      const b = pi[j];
      const d = 1 / (a + b);
      const x = wij[p] * d;
      const y = wji[p] * d;
      num[i] += x * b;
      den[i] += y;
      num[j] += y * a;
      den[j] += x;
    }
    // num/den now hold the new strengths' numerators; keep the old strengths in `den`.
    for (let k = 0; k < n; k++) {
      const old = pi[k];
      if (den[k] > 0 && num[k] > 0) pi[k] = num[k] / den[k];
      den[k] = old;
    }
    // The data likelihood is invariant to a common shift of all logits, so only the prior
    // fixes the level, and the plain iteration would creep along that direction at a rate of
    // about prior/games per iteration. Set the level exactly instead.
    const c = prior > 0 ? priorShift(pi) : geometricMeanInverse(pi);
    let move = 0;
    for (let k = 0; k < n; k++) {
      pi[k] *= c;
      const step = Math.abs(Math.log(pi[k] / den[k]));
      if (step > move) move = step;
    }
    if (move < tol) return it;
  }
  return -maxIter;
}

/**
 * The factor c = e^s that solves Σ_i σ(θ_i + s) = n/2, the prior's condition on the common
 * level (at the optimum the data scores sum to zero, so the prior's must too): Newton on s.
 */
function priorShift(pi: Float64Array): number {
  const n = pi.length;
  let s = 0;
  for (let round = 0; round < 50; round++) {
    const c = Math.exp(s);
    let g = -n / 2;
    let h = 0;
    for (let k = 0; k < n; k++) {
      const x = pi[k] * c;
      const q = x / (x + 1);
      g += q;
      h += q * (1 - q);
    }
    if (!(h > 0)) break;
    const step = g / h;
    s -= step;
    if (Math.abs(step) < 1e-14) break;
  }
  return Math.exp(s);
}

/** The factor that sets the geometric mean of the strengths to 1 (the scale without a prior). */
function geometricMeanInverse(pi: Float64Array): number {
  let logSum = 0;
  for (let k = 0; k < pi.length; k++) logSum += Math.log(pi[k]);
  return Math.exp(-logSum / pi.length);
}

/** Writes anchor + (ln π_i − mean ln π) · 400/ln 10 into `out`. */
export function strengthsToRatings(pi: Float64Array, anchor: number, out: Float64Array = new Float64Array(pi.length)): Float64Array {
  const n = pi.length;
  let mean = 0;
  for (let k = 0; k < n; k++) {
    out[k] = Math.log(pi[k]);
    mean += out[k];
  }
  mean /= n;
  for (let k = 0; k < n; k++) out[k] = anchor + (out[k] - mean) * ELO_PER_LOGIT;
  return out;
}

/** Credits per pair (ties as half wins): [w_ij, w_ji]. */
export function pairCredits(table: PairTable): [Float64Array, Float64Array] {
  const m = table.i.length;
  const wij = new Float64Array(m);
  const wji = new Float64Array(m);
  for (let p = 0; p < m; p++) {
    wij[p] = table.wins[p] + 0.5 * table.ties[p];
    wji[p] = table.losses[p] + 0.5 * table.ties[p];
  }
  return [wij, wji];
}

function checkOptions(o: BtFitOptions): Required<BtFitOptions> {
  const r = { prior: o.prior ?? 1, anchor: o.anchor ?? 1500, tol: o.tol ?? 1e-10, maxIter: o.maxIter ?? 10000 };
  if (!(r.prior >= 0)) throw new Error(`bradley-terry: option "prior" must be >= 0 (got ${String(o.prior)})`);
  if (!(r.tol > 0)) throw new Error(`bradley-terry: option "tol" must be > 0 (got ${String(o.tol)})`);
  if (!(r.maxIter >= 1)) throw new Error(`bradley-terry: option "maxIter" must be >= 1 (got ${String(o.maxIter)})`);
  if (!Number.isFinite(r.anchor)) throw new Error(`bradley-terry: option "anchor" must be a finite number (got ${String(o.anchor)})`);
  return r;
}

/**
 * Maximum-likelihood (maximum a posteriori with the weak prior) Bradley–Terry fit of a pair
 * table, ties counted as half a win for each side: P(i beats j) = π_i / (π_i + π_j).
 * Ratings are reported in Elo-like points (400/ln 10 per logit) with their mean at `anchor`.
 * `start` (strengths, e.g. a previous fit's) warm-starts the iteration.
 */
export function fitBradleyTerry(table: PairTable, options: BtFitOptions = {}, start?: Float64Array): BtFit {
  const o = checkOptions(options);
  const n = table.ids.length;
  const pi = start && start.length === n ? Float64Array.from(start) : new Float64Array(n).fill(1);
  const [wij, wji] = pairCredits(table);
  const it = n === 0 ? 0 : solveStrengths(table.i, table.j, wij, wji, pi, o.prior, o.tol, o.maxIter);
  return {
    ids: table.ids.slice(),
    strengths: pi,
    ratings: strengthsToRatings(pi, o.anchor),
    iterations: Math.abs(it),
    converged: it >= 0,
  };
}

export { checkOptions as resolveBtFitOptions };
