import { Rng, type Seed } from '../../src/core/rng';
import { btGraph, fitBradleyTerry, resolveBtFitOptions, solveStrengths, strengthsToRatings, type BtFit, type BtFitOptions } from './bradley-terry';
import type { PairTable } from './pair-counts';
import { PoissonCells } from './poisson';
import { rankRanges, type RankRange } from './rank-ranges';

/** Bootstrap settings. */
export interface BtBootstrapOptions extends BtFitOptions {
  /** Number of resamples (default 1,000; 0 skips the bootstrap and gives point intervals). */
  resamples?: number;
  /** Two-sided interval level (default 0.95: the 2.5 % and 97.5 % percentiles). */
  level?: number;
  /** Seed of the resampling stream (default 1): same table + seed -> same intervals. */
  seed?: Seed;
  /**
   * Convergence tolerance of each resample's fit: the largest log-strength step of a sweep
   * (default 1e-4). On the benchmark table (100 players, 100,000 matches) the interval
   * endpoints then differ by at most 0.002 Elo points from those at 1e-12 — far below the
   * Monte Carlo error of a percentile over 1,000 resamples — after about 4.6 warm-started
   * sweeps instead of 14.
   */
  resampleTol?: number;
  /**
   * Group of each player (index order of the table's ids) for the rank ranges: players are
   * ranked within their group only (a league ranks each role apart). Default: one group.
   */
  groups?: readonly (string | number)[];
}

/** A fit with bootstrap percentile intervals, in Elo-like points. */
export interface BtBootstrap {
  fit: BtFit;
  /** Lower and upper interval bounds per player (index order of `fit.ids`). */
  lo: Float64Array;
  hi: Float64Array;
  /** Each player's rank range within its group across the resamples, at `level` (see `rankRanges`). */
  ranks: RankRange[];
  resamples: number;
  level: number;
  /** Mean sweeps per resample fit, and resamples that hit the iteration cap. */
  meanIterations: number;
  unconverged: number;
}

/**
 * Percentile of sorted values, linear interpolation between order statistics (Hyndman–Fan
 * type 7, as R's default and numpy's "linear"): h = (B − 1)·q, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const B = sorted.length;
  if (B === 0) return NaN;
  const h = (B - 1) * q;
  const f = Math.floor(h);
  const c = Math.min(f + 1, B - 1);
  return sorted[f] + (h - f) * (sorted[c] - sorted[f]);
}

/**
 * Fits the table, then bootstraps it: each resample redraws every cell of the aggregated
 * table (pair × {win, loss, tie}) as Poisson(observed count), i.e. the Poisson bootstrap,
 * where every match enters a resample a Poisson(1) number of times — the standard large-sample
 * stand-in for resampling the matches with replacement (the multinomial bootstrap), with the
 * total number of matches free to vary. Each resample is refitted from the full fit's
 * strengths (warm start) and re-anchored to the same mean; the interval of each player is
 * the (1 − level)/2 and (1 + level)/2 percentiles of its resampled ratings.
 * Resampling is seeded (`seed`), so results are reproducible.
 */
export function bootstrapBradleyTerry(table: PairTable, options: BtBootstrapOptions = {}): BtBootstrap {
  const o = resolveBtFitOptions(options);
  const B = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  const rtol = options.resampleTol ?? 1e-4;
  if (!(Number.isInteger(B) && B >= 0)) throw new Error(`bradley-terry: option "resamples" must be an integer >= 0 (got ${String(B)})`);
  if (!(level > 0 && level < 1)) throw new Error(`bradley-terry: option "level" must be in (0, 1) (got ${String(level)})`);
  if (!(rtol > 0)) throw new Error(`bradley-terry: option "resampleTol" must be > 0 (got ${String(rtol)})`);
  const fit = fitBradleyTerry(table, o);
  const n = table.ids.length;
  const m = table.i.length;
  const groups = options.groups ?? table.ids.map(() => 0);
  if (groups.length !== n) throw new Error(`bradley-terry: option "groups" must name one group per player (${n}, got ${groups.length})`);
  if (B === 0 || n === 0) {
    return { fit, lo: fit.ratings.slice(), hi: fit.ratings.slice(), ranks: rankRanges(fit.ratings, 1, groups, level), resamples: 0, level, meanIterations: 0, unconverged: 0 };
  }

  // Cells pair × {win, loss, tie}, their observed counts being the Poisson means.
  const lam = new Float64Array(3 * m);
  for (let p = 0; p < m; p++) {
    lam[3 * p] = table.wins[p];
    lam[3 * p + 1] = table.losses[p];
    lam[3 * p + 2] = table.ties[p];
  }
  const cells = new PoissonCells(lam);
  const rng = Rng.fromSeed(options.seed ?? 1);
  const g = btGraph(n, table.i, table.j);
  const { posI, posJ } = g;
  const won = new Float64Array(2 * m);
  const lost = new Float64Array(2 * m);
  const pi = new Float64Array(n);
  const old = new Float64Array(n);
  const ratings = new Float64Array(n);
  const samples = new Float64Array(B * n); // player-major: samples[i * B + b]
  let iterSum = 0;
  let unconverged = 0;
  for (let b = 0; b < B; b++) {
    for (let p = 0; p < m; p++) {
      const t = cells.draw(rng, 3 * p + 2) * 0.5;
      const w = cells.draw(rng, 3 * p) + t;
      const l = cells.draw(rng, 3 * p + 1) + t;
      won[posI[p]] = w;
      lost[posI[p]] = l;
      won[posJ[p]] = l;
      lost[posJ[p]] = w;
    }
    pi.set(fit.strengths);
    const it = solveStrengths(g, won, lost, pi, o.prior, rtol, o.maxIter, old);
    iterSum += Math.abs(it);
    if (it < 0) unconverged++;
    strengthsToRatings(pi, o.anchor, ratings);
    for (let k = 0; k < n; k++) samples[k * B + b] = ratings[k];
  }

  const ranks = rankRanges(samples, B, groups, level);
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  const qLo = (1 - level) / 2;
  const qHi = (1 + level) / 2;
  for (let k = 0; k < n; k++) {
    const col = samples.subarray(k * B, (k + 1) * B).sort();
    lo[k] = percentileSorted(col, qLo);
    hi[k] = percentileSorted(col, qHi);
  }
  return { fit, lo, hi, ranks, resamples: B, level, meanIterations: iterSum / B, unconverged };
}
