/**
 * The generalized sequential probability ratio test (GSPRT) of fishtest, after Michel Van den
 * Bergh's notes: is player A stronger than B by at least `elo1` (H1) rather than at most `elo0`
 * (H0)? Results are a trinomial `[L, D, W]` or pentanomial `[LL, LD, DD+WL, WD, WW]` vector from
 * A's side (see statistics.ts), regularized (empty cells count 1e-3).
 *
 * The log-likelihood ratio compares the two maximum-likelihood distributions that satisfy each
 * hypothesis, given the observed distribution p̂ (N results):
 *
 *   LLR = N · Σᵢ p̂ᵢ · ln(qᵢ¹ / qᵢ⁰)
 *
 * - logistic Elo: qʰ maximizes Σ p̂ᵢ ln qᵢ subject to the mean score `Σ qᵢ aᵢ = s_h`, with
 *   `s_h = 1 / (1 + 10^(−elo_h / 400))`. The Lagrange conditions give `qᵢ = p̂ᵢ / (1 + x (aᵢ − s_h))`
 *   where x solves the secular equation `Σ p̂ᵢ (aᵢ − s_h) / (1 + x (aᵢ − s_h)) = 0`.
 * - normalized Elo: qʰ satisfies the t-value constraint `(μ_q − ½) / σ_q = t_h` with
 *   `t_h = nElo_h / (800 / ln 10)` (times √2 for pentanomial, whose σ is per pair). The conditions
 *   give `qᵢ = p̂ᵢ / (1 + x hᵢ)` with `hᵢ = aᵢ − ½ − (t/2) · σ_q · (1 + ((aᵢ − μ_q) / σ_q)²)` and x
 *   solving `Σ p̂ᵢ hᵢ / (1 + x hᵢ) = 0`; since h depends on q, this is iterated to a fixed point.
 *
 * The test stops at H1 when LLR ≥ ln((1 − β) / α) and at H0 when LLR ≤ ln(β / (1 − α)) (Wald's bounds).
 */
import { NELO_PER_T, pdfStats, resultsToPdf, type Pdf, type ResultCounts } from './statistics';

/** Elo model of the hypotheses. */
export type EloModel = 'logistic' | 'normalized';

/** An SPRT's hypotheses and error rates. */
export interface SprtSettings {
  elo0: number;
  elo1: number;
  /** False-positive rate (accepting H1 when H0 holds). */
  alpha: number;
  /** False-negative rate (accepting H0 when H1 holds). */
  beta: number;
  model: EloModel;
}

/** Where an SPRT stands. */
export interface SprtState {
  llr: number;
  /** ln(β / (1 − α)): at or below, H0 is accepted. */
  lower: number;
  /** ln((1 − β) / α): at or above, H1 is accepted. */
  upper: number;
  decision: 'H0' | 'H1' | null;
}

/** Wald's bounds: `lower = ln(β / (1 − α))`, `upper = ln((1 − β) / α)`; α = β = 0.05 gives ∓2.944. */
export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/**
 * Solves `Σ pᵢ hᵢ / (1 + x hᵢ) = 0` for x with every `1 + x hᵢ > 0` (bisection: the left side
 * decreases in x). Needs some hᵢ < 0 < some hⱼ with positive probability.
 */
export function secular(probs: readonly number[], h: readonly number[]): number {
  let hiH = -Infinity;
  let loH = Infinity;
  for (let i = 0; i < h.length; i++) {
    if (probs[i] <= 0) continue;
    hiH = Math.max(hiH, h[i]);
    loH = Math.min(loH, h[i]);
  }
  if (!(loH < 0 && hiH > 0)) throw new Error('secular equation: the constraint lies outside the support of the results');
  const f = (x: number) => {
    let s = 0;
    for (let i = 0; i < h.length; i++) s += (probs[i] * h[i]) / (1 + x * h[i]);
    return s;
  };
  let a = -1 / hiH;
  let b = -1 / loH;
  for (let k = 0; k < 200 && b - a > 1e-15 * Math.max(1, Math.abs(a), Math.abs(b)); k++) {
    const m = (a + b) / 2;
    if (m === a || m === b) break;
    if (f(m) > 0) a = m;
    else b = m;
  }
  return (a + b) / 2;
}

/** The maximum-likelihood distribution with mean `s` given the observed `pdf` (see the module comment). */
export function mleExpected(pdf: Pdf, s: number): number[] {
  const h = pdf.values.map((a) => a - s);
  const x = secular(pdf.probs, h);
  return pdf.probs.map((p, i) => p / (1 + x * h[i]));
}

/**
 * The maximum-likelihood distribution with t-value `(μ − ref) / σ = t` given the observed `pdf`,
 * by fixed-point iteration from the uniform distribution (see the module comment).
 */
export function mleTValue(pdf: Pdf, ref: number, t: number): number[] {
  let q = pdf.values.map(() => 1 / pdf.values.length);
  for (let it = 0; it < 1000; it++) {
    const { mean, variance } = pdfStats({ values: pdf.values, probs: q });
    const sigma = Math.sqrt(variance);
    const h = pdf.values.map((a) => a - ref - (t / 2) * sigma * (1 + ((a - mean) / sigma) ** 2));
    const x = secular(pdf.probs, h);
    const next = pdf.probs.map((p, i) => p / (1 + x * h[i]));
    const delta = Math.max(...next.map((v, i) => Math.abs(v - q[i])));
    q = next;
    if (delta < 1e-13) break;
  }
  return q;
}

/**
 * The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for a result vector, in the
 * given Elo model (see the module comment). Zero before any result.
 */
export function sprtLlr(counts: ResultCounts, elo0: number, elo1: number, model: EloModel): number {
  if (counts.reduce((a, b) => a + b, 0) === 0) return 0;
  const { n, pdf } = resultsToPdf(counts, { regularize: true });
  let q0: number[];
  let q1: number[];
  if (model === 'logistic') {
    const s = (elo: number) => 1 / (1 + Math.pow(10, -elo / 400));
    q0 = mleExpected(pdf, s(elo0));
    q1 = mleExpected(pdf, s(elo1));
  } else {
    const scale = counts.length === 5 ? Math.SQRT2 : 1;
    q0 = mleTValue(pdf, 0.5, (elo0 / NELO_PER_T) * scale);
    q1 = mleTValue(pdf, 0.5, (elo1 / NELO_PER_T) * scale);
  }
  let llr = 0;
  for (let i = 0; i < pdf.probs.length; i++) llr += pdf.probs[i] * (Math.log(q1[i]) - Math.log(q0[i]));
  return n * llr;
}

/** The LLR of a result vector with the test's bounds and its decision (null: keep playing). */
export function sprtState(counts: ResultCounts, s: SprtSettings): SprtState {
  const llr = sprtLlr(counts, s.elo0, s.elo1, s.model);
  const { lower, upper } = sprtBounds(s.alpha, s.beta);
  return { llr, lower, upper, decision: llr >= upper ? 'H1' : llr <= lower ? 'H0' : null };
}
