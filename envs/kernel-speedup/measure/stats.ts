/**
 * Statistics of a timing run: medians, the percentile bootstrap interval of a median, and the
 * coefficient of variation. Pure and seeded: the same numbers and seed give the same interval.
 */
import { Rng, type Seed } from '../../../src/core/rng';

/** Median of a non-empty list (mean of the middle two for even lengths); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Arithmetic mean (NaN when empty). */
export function mean(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Sample standard deviation (0 for fewer than two values). */
export function standardDeviation(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return Math.sqrt(ss / (xs.length - 1));
}

/** Coefficient of variation: sample standard deviation / |mean| (0 for fewer than two values, Infinity at mean 0). */
export function coefficientOfVariation(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return m === 0 ? Infinity : standardDeviation(xs) / Math.abs(m);
}

/** The value at quantile q of an ascending list, linear interpolation between order statistics (type 7). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** A two-sided interval. */
export interface Interval {
  lo: number;
  hi: number;
}

/**
 * Bandwidth of the smoothed bootstrap (Silverman's rule): 0.9 · min(sd, IQR / 1.34) · n^(−1/5);
 * 0 when the values do not vary.
 */
export function smoothingBandwidth(xs: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const iqr = quantileSorted(s, 0.75) - quantileSorted(s, 0.25);
  const spread = iqr > 0 ? Math.min(standardDeviation(xs), iqr / 1.34) : standardDeviation(xs);
  return 0.9 * spread * Math.pow(n, -0.2);
}

/**
 * Bootstrap interval of the median of `xs`: `resamples` resamples with replacement (seeded by
 * `seed`), each value jittered by Gaussian noise of the {@link smoothingBandwidth} (the smoothed
 * bootstrap; `smooth` false: none), the median of each, and their (1−level)/2 and (1+level)/2
 * quantiles. Smoothing matters for medians of small samples: the plain percentile interval's
 * resampled medians take only a few distinct values, and it under-covers — simulated here for
 * n = 30 (normal, contaminated normal, Laplace data): 93.8–94.6% for a 95% interval, 97.3–97.9%
 * smoothed (test/envs/kernel-speedup/measure-parts.test.ts checks the smoothed one).
 */
export function bootstrapMedianInterval(xs: readonly number[], seed: Seed, resamples = 2000, level = 0.95, smooth = true): Interval {
  const n = xs.length;
  if (n === 0) return { lo: NaN, hi: NaN };
  if (n === 1) return { lo: xs[0], hi: xs[0] };
  const rng = Rng.fromSeed(seed);
  const h = smooth ? smoothingBandwidth(xs) : 0;
  const gauss = () => {
    let u = 0;
    while (u === 0) u = rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  };
  const meds = new Float64Array(resamples);
  const buf = new Float64Array(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) buf[i] = xs[Math.floor(rng.next() * n)] + (h > 0 ? h * gauss() : 0);
    buf.sort();
    const m = n >> 1;
    meds[b] = n % 2 ? buf[m] : (buf[m - 1] + buf[m]) / 2;
  }
  meds.sort();
  const sorted = Array.from(meds);
  return { lo: quantileSorted(sorted, (1 - level) / 2), hi: quantileSorted(sorted, (1 + level) / 2) };
}
