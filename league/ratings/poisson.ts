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
 * each distinct mean below {@link POISSON_TABLE_LIMIT} gets its CDF tabulated once (to 12
 * standard deviations past the mean) — match counts are integers, so a few dozen small
 * tables serve every cell and stay in cache — and each draw inverts one uniform with a guide
 * table (Chen & Asau 1974: the smallest k with F(k) ≥ j/64 for each j, so about one
 * comparison per draw and no logarithms); larger means use PTRS.
 * Draws are exact Poisson variates (the far tail beyond a table continues the recurrence).
 */
const GUIDE = 64;

export class PoissonCells {
  /** Per cell: index of its table (−1: zero mean, −2: PTRS). */
  private readonly tableOf: Int32Array;
  /** Per table: first CDF entry, length. */
  private readonly start: Int32Array;
  private readonly len: Int32Array;
  private readonly cdf: Float64Array;
  /** Per table, GUIDE entries: the smallest k with F(k) >= j / GUIDE. */
  private readonly guide: Int32Array;

  constructor(private readonly means: Float64Array) {
    const ids = new Map<number, number>();
    const distinct: number[] = [];
    this.tableOf = new Int32Array(means.length);
    for (let c = 0; c < means.length; c++) {
      const l = means[c];
      if (!(l > 0)) this.tableOf[c] = -1;
      else if (l >= POISSON_TABLE_LIMIT) this.tableOf[c] = -2;
      else {
        let t = ids.get(l);
        if (t === undefined) {
          t = distinct.length;
          ids.set(l, t);
          distinct.push(l);
        }
        this.tableOf[c] = t;
      }
    }
    const T = distinct.length;
    this.start = new Int32Array(T);
    this.len = new Int32Array(T);
    let total = 0;
    for (let t = 0; t < T; t++) {
      const l = distinct[t];
      this.start[t] = total;
      this.len[t] = Math.ceil(l + 12 * Math.sqrt(l) + 16);
      total += this.len[t];
    }
    this.cdf = new Float64Array(total);
    this.guide = new Int32Array(T * GUIDE);
    for (let t = 0; t < T; t++) {
      const l = distinct[t];
      const s = this.start[t];
      let p = Math.exp(-l);
      let f = p;
      for (let k = 0; k < this.len[t]; k++) {
        this.cdf[s + k] = f;
        p *= l / (k + 1);
        f += p;
      }
      let k = 0;
      for (let j = 0; j < GUIDE; j++) {
        while (k < this.len[t] - 1 && this.cdf[s + k] < j / GUIDE) k++;
        this.guide[t * GUIDE + j] = k;
      }
    }
  }

  /** A Poisson draw for cell `c` (mean `means[c]`). */
  draw(rng: Rng, c: number): number {
    const t = this.tableOf[c];
    if (t < 0) return t === -1 ? 0 : poissonPtrs(rng, this.means[c]);
    const u = rng.next();
    const s = this.start[t];
    const size = this.len[t];
    const cdf = this.cdf;
    // Smallest k with u <= F(k), searched up from the guide entry of u's 1/GUIDE slice.
    let k = this.guide[t * GUIDE + ((u * GUIDE) | 0)];
    while (k < size && u > cdf[s + k]) k++;
    if (k < size) return k;
    // Beyond the table (probability < 1e-15): continue the recurrence.
    const l = this.means[c];
    let f = cdf[s + size - 1];
    let p = Math.exp(-l + (size - 1) * Math.log(l) - logFactorial(size - 1));
    for (k = size - 1; u > f && p > 0; ) {
      k++;
      p *= l / k;
      f += p;
    }
    return k;
  }
}
