import { bootstrapBradleyTerry, percentileSorted } from '../../../league/ratings/bt-bootstrap';
import { bradleyTerryLeaderboard } from '../../../league/ratings/bt-leaderboard';
import { PairCounts, type PairResultRow } from '../../../league/ratings/pair-counts';
import { poisson, PoissonCells } from '../../../league/ratings/poisson';
import { Rng } from '../../../src/core/rng';

/** A seeded synthetic league: `n` players 100 Elo points apart, uniform random pairs. */
function league(n: number, matches: number, seed: number): PairResultRow[] {
  const rng = Rng.fromSeed(seed);
  const rows: PairResultRow[] = [];
  for (let m = 0; m < matches; m++) {
    const a = rng.int(n);
    const b = (a + 1 + rng.int(n - 1)) % n;
    const p = 1 / (1 + Math.pow(10, ((b - a) * 100) / 400));
    const tie = 0.3 * p * (1 - p);
    const u = rng.next();
    rows.push({ a: `p${a}`, b: `p${b}`, score: u < p - tie / 2 ? 1 : u < p + tie / 2 ? 0.5 : 0 });
  }
  return rows;
}

describe('percentiles and Poisson draws', () => {
  test('type-7 percentiles interpolate between order statistics', () => {
    const x = Float64Array.from([1, 2, 3, 4]);
    expect(percentileSorted(x, 0.25)).toBeCloseTo(1.75, 12);
    expect(percentileSorted(x, 0.5)).toBeCloseTo(2.5, 12);
    expect(percentileSorted(x, 0)).toBe(1);
    expect(percentileSorted(x, 1)).toBe(4);
    const b = Float64Array.from({ length: 1000 }, (_, k) => k);
    expect(percentileSorted(b, 0.025)).toBeCloseTo(24.975, 9);
    expect(percentileSorted(b, 0.975)).toBeCloseTo(974.025, 9);
  });

  test('PoissonCells(4) hits the Poisson probabilities of 0..8', () => {
    const rng = Rng.fromSeed('pmf');
    const cells = new PoissonCells(Float64Array.from([4, 0, 4]));
    const N = 60000;
    const counts = new Array<number>(9).fill(0);
    let zeroMean = 0;
    for (let k = 0; k < N; k++) {
      const x = cells.draw(rng, 2);
      if (x < 9) counts[x]++;
      zeroMean += cells.draw(rng, 1);
    }
    expect(zeroMean).toBe(0);
    let pmf = Math.exp(-4);
    for (let k = 0; k < 9; k++) {
      // Within 5 binomial standard errors.
      expect(Math.abs(counts[k] / N - pmf)).toBeLessThan(5 * Math.sqrt((pmf * (1 - pmf)) / N));
      pmf *= 4 / (k + 1);
    }
  });

  test.each([0.3, 4, 19.5, 35, 800])('Poisson(%p) draws have the right mean and variance (table and PTRS alike)', (lambda) => {
    const rng = Rng.fromSeed(lambda);
    const cells = new PoissonCells(Float64Array.from([lambda]));
    for (const draw of [() => poisson(rng, lambda), () => cells.draw(rng, 0)]) {
      const N = 40000;
      let s = 0;
      let s2 = 0;
      let bad = 0;
      for (let k = 0; k < N; k++) {
        const x = draw();
        if (!(Number.isInteger(x) && x >= 0)) bad++;
        s += x;
        s2 += x * x;
      }
      expect(bad).toBe(0);
      const mean = s / N;
      const variance = s2 / N - mean * mean;
      // 6 standard errors: a broken sampler fails, a correct one essentially never does.
      expect(Math.abs(mean - lambda)).toBeLessThan(6 * Math.sqrt(lambda / N));
      expect(Math.abs(variance / lambda - 1)).toBeLessThan(0.06);
    }
  });
});

describe('Bradley–Terry bootstrap', () => {
  const table = PairCounts.from(league(8, 3000, 1)).table();

  test('same seed, same intervals; another seed, other intervals', () => {
    const a = bootstrapBradleyTerry(table, { resamples: 200, seed: 5 });
    const b = bootstrapBradleyTerry(table, { resamples: 200, seed: 5 });
    const c = bootstrapBradleyTerry(table, { resamples: 200, seed: 6 });
    expect(Array.from(b.lo)).toEqual(Array.from(a.lo));
    expect(Array.from(b.hi)).toEqual(Array.from(a.hi));
    expect(Array.from(c.lo)).not.toEqual(Array.from(a.lo));
    expect(a.unconverged).toBe(0);
  });

  test('1,000 resamples: 95 % intervals hold the estimate, have sensible widths and shrink with 4× the data', () => {
    const boot = bootstrapBradleyTerry(table, { seed: 1 });
    expect(boot.resamples).toBe(1000);
    expect(boot.level).toBe(0.95);
    const widths: number[] = [];
    for (let k = 0; k < table.ids.length; k++) {
      expect(boot.lo[k]).toBeLessThan(boot.fit.ratings[k]);
      expect(boot.hi[k]).toBeGreaterThan(boot.fit.ratings[k]);
      widths.push(boot.hi[k] - boot.lo[k]);
    }
    // About 750 games per player: a rating's standard error is about 173.7 / √(750 · 0.2) ≈ 14
    // points, so a 95 % interval is about 55 points wide.
    const mean = widths.reduce((s, w) => s + w, 0) / widths.length;
    expect(mean).toBeGreaterThan(40);
    expect(mean).toBeLessThan(75);
    const big = bootstrapBradleyTerry(PairCounts.from(league(8, 12000, 1)).table(), { seed: 1, resamples: 300 });
    const bigMean = Array.from(big.hi, (h, k) => h - big.lo[k]).reduce((s, w) => s + w, 0) / 8;
    expect(bigMean / mean).toBeGreaterThan(0.4);
    expect(bigMean / mean).toBeLessThan(0.6);
  });

  test('resamples: 0 gives point intervals; bad options are named', () => {
    const none = bootstrapBradleyTerry(table, { resamples: 0 });
    expect(Array.from(none.lo)).toEqual(Array.from(none.fit.ratings));
    expect(() => bootstrapBradleyTerry(table, { resamples: 1.5 })).toThrow('bradley-terry: option "resamples" must be an integer >= 0 (got 1.5)');
    expect(() => bootstrapBradleyTerry(table, { level: 1 })).toThrow('option "level" must be in (0, 1)');
  });

  test('leaderboard: rows best first with games, points, intervals and tied ranks', () => {
    const { rows } = bradleyTerryLeaderboard(league(8, 3000, 1), { seed: 2, resamples: 300 });
    expect(rows.map((r) => r.id)).toEqual(['p7', 'p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
    expect(rows[0].rank).toBe(1);
    expect(rows.reduce((s, r) => s + r.games, 0)).toBe(6000);
    expect(rows.reduce((s, r) => s + r.points, 0)).toBe(3000);
    for (const r of rows) {
      expect(r.lo).toBeLessThanOrEqual(r.rating);
      expect(r.bestRank).toBeLessThanOrEqual(r.rank);
    }
    const mean = rows.reduce((s, r) => s + r.rating, 0) / rows.length;
    expect(mean).toBeCloseTo(1500, 9);
  });
});
