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
  /** Stop when no log-strength moves more than this in one sweep (default 1e-10). */
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

/**
 * The comparison graph in adjacency (CSR) form, built once per table: player k's opponents
 * are `nbr[start[k] .. start[k+1])`; pair p sits in slot `posI[p]` of i's list and `posJ[p]`
 * of j's. Per-slot credits (see {@link slotCredits}) are what {@link solveStrengths} reads.
 */
export interface BtGraph {
  n: number;
  start: Int32Array;
  nbr: Int32Array;
  posI: Int32Array;
  posJ: Int32Array;
}

/** The comparison graph of `n` players and pairs (I[p], J[p]). */
export function btGraph(n: number, I: Int32Array, J: Int32Array): BtGraph {
  const m = I.length;
  const start = new Int32Array(n + 1);
  for (let p = 0; p < m; p++) {
    start[I[p] + 1]++;
    start[J[p] + 1]++;
  }
  for (let k = 0; k < n; k++) start[k + 1] += start[k];
  const fill = start.slice(0, n);
  const nbr = new Int32Array(2 * m);
  const posI = new Int32Array(m);
  const posJ = new Int32Array(m);
  for (let p = 0; p < m; p++) {
    posI[p] = fill[I[p]]++;
    nbr[posI[p]] = J[p];
    posJ[p] = fill[J[p]]++;
    nbr[posJ[p]] = I[p];
  }
  return { n, start, nbr, posI, posJ };
}

/**
 * Scatters pair credits (w_ij, w_ji per pair) into per-slot arrays: `won[s]` is the credit of
 * the slot's owner over its neighbour, `lost[s]` the neighbour's over the owner.
 */
export function slotCredits(g: BtGraph, wij: Float64Array, wji: Float64Array, won: Float64Array, lost: Float64Array): void {
  for (let p = 0; p < wij.length; p++) {
    const a = g.posI[p];
    const b = g.posJ[p];
    won[a] = wij[p];
    lost[a] = wji[p];
    won[b] = wji[p];
    lost[b] = wij[p];
  }
}

/**
 * Solves the Bradley–Terry score equations in place, starting from `pi` (warm start).
 *
 * Iteration (Newman 2023, "Efficient computation of rankings from pairwise comparisons"; the
 * same fixed point as Zermelo / Hunter's MM but far fewer iterations), as Gauss–Seidel sweeps
 * over the players, each using its opponents' newest strengths:
 *   π_i ← [Σ_j w_ij π_j / (π_i + π_j)] / [Σ_j w_ji / (π_i + π_j)],
 * with the prior entering as `prior/2` wins and losses against a reference of strength 1.
 * (The simultaneous, Jacobi form oscillates on bipartite graphs — challengers only meet
 * solvers — and took thousands of iterations there; the sweep takes about as many as on a
 * full round robin.) After each sweep the common level is set exactly: with a prior by the
 * prior's own condition Σ σ(θ_i) = n/2 (see `priorShift`), without one by a geometric mean
 * of 1. Stops when no log-strength moved more than `tol` in a sweep.
 * Returns the number of sweeps done (negative when `maxIter` was hit first).
 */
export function solveStrengths(g: BtGraph, won: Float64Array, lost: Float64Array, pi: Float64Array, prior: number, tol: number, maxIter: number, old: Float64Array = new Float64Array(g.n)): number {
  const n = g.n;
  const { start, nbr } = g;
  const half = prior / 2;
  for (let it = 1; it <= maxIter; it++) {
    old.set(pi);
    for (let i = 0; i < n; i++) {
      const a = pi[i];
      const r = half / (a + 1);
      let num = r;
      let den = r;
      const end = start[i + 1];
      for (let s = start[i]; s < end; s++) {
        const b = pi[nbr[s]];
        const d = 1 / (a + b);
        num += won[s] * b * d;
        den += lost[s] * d;
      }
      if (den > 0 && num > 0) pi[i] = num / den;
    }
    // The data likelihood is invariant to a common shift of all logits, so only the prior
    // fixes the level, and the plain iteration would creep along that direction at a rate of
    // about prior/games per sweep. Set the level exactly instead.
    const c = prior > 0 ? priorShift(pi) : geometricMeanInverse(pi);
    let move = 0;
    for (let k = 0; k < n; k++) {
      pi[k] *= c;
      const step = Math.abs(Math.log(pi[k] / old[k]));
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
  const g = btGraph(n, table.i, table.j);
  const won = new Float64Array(2 * wij.length);
  const lost = new Float64Array(2 * wij.length);
  slotCredits(g, wij, wji, won, lost);
  const it = n === 0 ? 0 : solveStrengths(g, won, lost, pi, o.prior, o.tol, o.maxIter);
  return {
    ids: table.ids.slice(),
    strengths: pi,
    ratings: strengthsToRatings(pi, o.anchor),
    iterations: Math.abs(it),
    converged: it >= 0,
  };
}

export { checkOptions as resolveBtFitOptions };
