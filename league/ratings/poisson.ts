import type { Rng } from '../../src/core/rng';

const LOG_FACT = new Float64Array(256);
for (let k = 2; k < 256; k++) LOG_FACT[k] = LOG_FACT[k - 1] + Math.log(k);
const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/** ln(k!) : a table below 256, Stirling's series above (error < 1e-12 there). */
export function logFactorial(k: number): number {
  if (k < 256) return LOG_FACT[k];
  const r = 1 / k;
  return (k + 0.5) * Math.log(k) - k + HALF_LOG_2PI + r * (1 / 12 - (r * r) / 360);
}

/** Below this mean, sampling inverts the CDF; at or above it, PTRS. */
export const POISSON_INVERSION_LIMIT = 20;

/**
 * A Poisson(λ) draw by sequential inversion of the CDF (one uniform, about λ steps).
 * `expNegLambda` must be e^(−λ); callers that draw many times from one λ precompute it.
 * Use for λ < {@link POISSON_INVERSION_LIMIT}.
 */
export function poissonInversion(rng: Rng, lambda: number, expNegLambda: number): number {
  const u = rng.next();
  let k = 0;
  let p = expNegLambda;
  let f = p;
  while (u > f && p > 0) {
    k++;
    p *= lambda / k;
    f += p;
  }
  return k;
}

/**
 * A Poisson(λ) draw by Hörmann's transformed rejection with squeeze (PTRS, 1993): about
 * 2.3 uniforms per draw whatever λ. Valid for λ >= 10.
 */
export function poissonPtrs(rng: Rng, lambda: number): number {
  const slam = Math.sqrt(lambda);
  const loglam = Math.log(lambda);
  const b = 0.931 + 2.53 * slam;
  const a = -0.059 + 0.02483 * b;
  const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = rng.next() - 0.5;
    const v = rng.next();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <= -lambda + k * loglam - logFactorial(k)) return k;
  }
}

/** A Poisson(λ) draw from `rng` (0 when λ <= 0). */
export function poisson(rng: Rng, lambda: number): number {
  if (!(lambda > 0)) return 0;
  return lambda < POISSON_INVERSION_LIMIT ? poissonInversion(rng, lambda, Math.exp(-lambda)) : poissonPtrs(rng, lambda);
}

/** Means below this get a CDF table in {@link PoissonCells}; larger ones use PTRS. */
export const POISSON_TABLE_LIMIT = 500;

/**
 * Poisson sampling for a fixed list of means, drawn many times (the bootstrap's cells):
 * means below {@link POISSON_TABLE_LIMIT} get their CDF tabulated once (to 12 standard
 * deviations past the mean), and each draw inverts one uniform by searching that table from
 * the mode (about 0.8·√λ comparisons, no logarithms); larger means use PTRS. Draws are exact
 * Poisson variates (the far tail beyond the table continues the recurrence).
 */
export class PoissonCells {
  private readonly start: Int32Array;
  private readonly len: Int32Array;
  private readonly mode: Int32Array;
  private readonly cdf: Float64Array;

  constructor(private readonly means: Float64Array) {
    const n = means.length;
    this.start = new Int32Array(n);
    this.len = new Int32Array(n);
    this.mode = new Int32Array(n);
    let total = 0;
    for (let c = 0; c < n; c++) {
      const l = means[c];
      const size = l > 0 && l < POISSON_TABLE_LIMIT ? Math.ceil(l + 12 * Math.sqrt(l) + 16) : 0;
      this.start[c] = total;
      this.len[c] = size;
      this.mode[c] = Math.floor(l);
      total += size;
    }
    this.cdf = new Float64Array(total);
    for (let c = 0; c < n; c++) {
      const l = means[c];
      let p = Math.exp(-l);
      let f = p;
      const s = this.start[c];
      for (let k = 0; k < this.len[c]; k++) {
        this.cdf[s + k] = f;
        p *= l / (k + 1);
        f += p;
      }
    }
  }

  /** A Poisson draw for cell `c` (mean `means[c]`). */
  draw(rng: Rng, c: number): number {
    const l = this.means[c];
    if (!(l > 0)) return 0;
    const size = this.len[c];
    if (size === 0) return poissonPtrs(rng, l);
    const u = rng.next();
    const s = this.start[c];
    const cdf = this.cdf;
    // Smallest k with u <= F(k): walk down or up from the mode.
    let k = this.mode[c];
    if (u <= cdf[s + k]) {
      while (k > 0 && u <= cdf[s + k - 1]) k--;
      return k;
    }
    while (k + 1 < size && u > cdf[s + k + 1]) k++;
    k++;
    if (k < size) return k;
    // Beyond the table (probability < 1e-15): continue the recurrence.
    let f = cdf[s + size - 1];
    let p = Math.exp(-l + (size - 1) * Math.log(l) - logFactorial(size - 1));
    k = size - 1;
    while (u > f && p > 0) {
      k++;
      p *= l / k;
      f += p;
    }
    return k;
  }
}
