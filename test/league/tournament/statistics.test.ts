import { eloEstimate, eloOfScore, normalCdf, pdfStats, resultsToPdf, scoreOfElo } from '../../../league/tournament/statistics';

describe('match statistics (hand-computed values)', () => {
  test('trinomial [L, D, W] = [10, 20, 30]', () => {
    // N = 60, μ = (20·½ + 30) / 60 = 2/3, σ² = (10·(2/3)² + 20·(1/6)² + 30·(1/3)²) / 60 = 5/36,
    // SE = √(5/36 / 60) = 0.0481125, Elo = −400 log10(1/μ − 1) = 400 log10 2 = 120.412,
    // interval μ ± 1.96 SE = [0.572368, 0.760965] → [50.642, 201.162] Elo,
    // LOS = Φ((2/3 − ½) / SE) = Φ(3.4641) = 0.999734, nElo = (1/6) / √(5/36) · 800 / ln 10 = 155.378.
    const e = eloEstimate([10, 20, 30]);
    expect(e.model).toBe('trinomial');
    expect(e.games).toBe(60);
    expect(e.score).toBeCloseTo(2 / 3, 12);
    expect(e.se).toBeCloseTo(0.048112522, 8);
    expect(e.elo).toBeCloseTo(120.411998, 5);
    expect(e.eloLo).toBeCloseTo(50.641957, 4);
    expect(e.eloHi).toBeCloseTo(201.161731, 4);
    expect(e.los).toBeCloseTo(0.999734, 6);
    expect(e.nElo).toBeCloseTo(155.377917, 4);
    expect(e.nEloLo).toBeCloseTo(67.466200, 4);
  });

  test('pentanomial [LL, LD, DD+WL, WD, WW] = [1, 1, 4, 3, 3] (12 pairs)', () => {
    // per-game values 0, ¼, ½, ¾, 1: μ = (¼ + 4·½ + 3·¾ + 3) / 12 = 0.625,
    // σ²_pair = 0.0885417, SE = √(σ² / 12) = 0.0858980, Elo 88.739 [−30.203, 233.699],
    // LOS = Φ(0.125 / SE) = 0.927195, nElo = 0.125 / √(2 σ²) · 347.436 = 103.204.
    const e = eloEstimate([1, 1, 4, 3, 3]);
    expect(e.model).toBe('pentanomial');
    expect(e.games).toBe(24);
    expect(e.score).toBeCloseTo(0.625, 12);
    expect(e.se).toBeCloseTo(0.085898034, 8);
    expect(e.elo).toBeCloseTo(88.7394998, 5);
    expect(e.eloLo).toBeCloseTo(-30.2034216, 4);
    expect(e.eloHi).toBeCloseTo(233.6992398, 4);
    expect(e.los).toBeCloseTo(0.927194952, 6);
    expect(e.nElo).toBeCloseTo(103.2037474, 4);
  });

  test('edge cases: perfect score, no games, even score', () => {
    const all = eloEstimate([0, 0, 7]);
    expect(all.elo).toBe(Infinity);
    expect(all.los).toBe(1);
    expect(eloEstimate([0, 0, 0]).elo).toBeNaN();
    const even = eloEstimate([3, 0, 3]);
    expect(even.elo).toBeCloseTo(0, 12);
    expect(even.los).toBeCloseTo(0.5, 7);
    expect(() => resultsToPdf([1, 2])).toThrow(/3 \(trinomial\) or 5/);
  });

  test('helpers: Elo ↔ score, Φ, regularized pdf', () => {
    expect(eloOfScore(0.75)).toBeCloseTo(190.848501, 5);
    expect(scoreOfElo(190.848501)).toBeCloseTo(0.75, 8);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655253931457, 12);
    expect(normalCdf(3.5)).toBeCloseTo(0.999767370920964, 12);
    expect(normalCdf(-5) / 2.866515718791933e-7).toBeCloseTo(1, 9);
    const { n, pdf } = resultsToPdf([0, 2, 2], { regularize: true });
    expect(n).toBeCloseTo(4.001, 12);
    expect(pdf.values).toEqual([0, 0.5, 1]);
    expect(pdfStats(pdf).mean).toBeCloseTo(3 / 4.001, 12);
  });
});
