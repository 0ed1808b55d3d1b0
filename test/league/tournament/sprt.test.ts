import { Rng } from '../../../src/core/rng';
import { mleExpected, mleTValue, sprtBounds, sprtLlr, sprtState, type SprtSettings } from '../../../league/tournament/sprt';
import { pdfStats, resultsToPdf, scoreOfElo, type Pentanomial } from '../../../league/tournament/statistics';

/*
 * Reference LLRs computed independently (scipy SLSQP maximizing Σ nᵢ ln qᵢ directly under the
 * hypothesis constraint, zero counts replaced by 1e-3; not the secular equation used here).
 */
const REFERENCE: [number[], number, number, 'logistic' | 'normalized', number][] = [
  [[1, 1, 4, 3, 3], 0, 50, 'logistic', 0.742599173],
  [[0, 3, 10, 5, 2], 0, 30, 'logistic', 1.108647522],
  [[10, 20, 30], 0, 50, 'logistic', 3.443007508],
  [[100, 500, 1000, 520, 110], 0, 5, 'logistic', 0.27298167],
  [[1, 1, 4, 3, 3], 0, 50, 'normalized', 0.689583025],
  [[0, 3, 10, 5, 2], -10, 20, 'normalized', 0.853919207],
  [[10, 20, 30], 0, 50, 'normalized', 2.912875839],
  [[100, 500, 1000, 520, 110], 0, 5, 'normalized', 0.429646199],
];

/** Pentanomial probabilities of a pair of independent games at a logistic Elo difference, draw rate d. */
function pairProbabilities(elo: number, d: number): number[] {
  const s = scoreOfElo(elo);
  const game = [1 - s - d / 2, d, s - d / 2]; // L, D, W
  const pair = [0, 0, 0, 0, 0];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) pair[i + j] += game[i] * game[j];
  return pair;
}

/** Runs one SPRT on a synthetic stream of game pairs; returns the decision and the pairs used. */
function simulate(rng: Rng, probs: number[], s: SprtSettings, maxPairs = 20_000): { decision: string; pairs: number } {
  const counts = [0, 0, 0, 0, 0];
  for (let pairs = 1; pairs <= maxPairs; pairs++) {
    counts[rng.weighted(probs)]++;
    const st = sprtState(counts as unknown as Pentanomial, s);
    if (st.decision) return { decision: st.decision, pairs };
  }
  return { decision: 'none', pairs: maxPairs };
}

describe('GSPRT', () => {
  test('bounds for α = β = 0.05 are ∓ln 19', () => {
    const b = sprtBounds(0.05, 0.05);
    expect(b.upper).toBeCloseTo(Math.log(19), 12);
    expect(b.lower).toBeCloseTo(-Math.log(19), 12);
    expect(sprtBounds(0.05, 0.1).lower).toBeCloseTo(Math.log(0.1 / 0.95), 12);
  });

  test.each(REFERENCE)('LLR of %j for [%d, %d] %s Elo = %d', (counts, e0, e1, model, want) => {
    expect(sprtLlr(counts as unknown as Pentanomial, e0, e1, model)).toBeCloseTo(want, 5);
  });

  test('a known sequence of pair results: LLR after each pair (pair scores 2, 1½, 2, 1, ½, 1, 1½, 1, 0, 2, 1½, 1)', () => {
    const sequence = [4, 3, 4, 2, 1, 2, 3, 2, 0, 4, 3, 2]; // pair score in half points
    const counts = [0, 0, 0, 0, 0];
    const llrs: number[] = [];
    for (const x of sequence) {
      counts[x]++;
      llrs.push(sprtLlr(counts as unknown as Pentanomial, 0, 50, 'logistic'));
    }
    expect(counts).toEqual([1, 1, 4, 3, 3]);
    expect(llrs[llrs.length - 1]).toBeCloseTo(0.742599173, 5); // the first reference row
    expect(sprtLlr([0, 0, 0, 0, 0], 0, 50, 'logistic')).toBe(0);
    expect(llrs[0]).toBeGreaterThan(0); // one won pair favours H1
  });

  test('the maximum-likelihood fits satisfy their constraints and stay distributions', () => {
    const { pdf } = resultsToPdf([0, 3, 10, 5, 2], { regularize: true });
    const q = mleExpected(pdf, 0.55);
    expect(q.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(pdfStats({ values: pdf.values, probs: q }).mean).toBeCloseTo(0.55, 10);
    const t = mleTValue(pdf, 0.5, 0.2);
    const st = pdfStats({ values: pdf.values, probs: t });
    expect((st.mean - 0.5) / Math.sqrt(st.variance)).toBeCloseTo(0.2, 8);
    expect(t.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  test('synthetic streams: H1 accepted at rate ≥ 1 − β at elo1, ≤ α at elo0 (logistic, [0, 60], α = β = 0.05)', () => {
    const s: SprtSettings = { elo0: 0, elo1: 60, alpha: 0.05, beta: 0.05, model: 'logistic' };
    const rng = Rng.fromSeed('sprt-synthetic');
    const runs = 150;
    const rate = (elo: number) => {
      let h1 = 0;
      let pairs = 0;
      for (let k = 0; k < runs; k++) {
        const r = simulate(rng, pairProbabilities(elo, 0.3), s);
        if (r.decision === 'H1') h1++;
        pairs += r.pairs;
      }
      return { h1: h1 / runs, meanPairs: pairs / runs };
    };
    const atElo1 = rate(60);
    const atElo0 = rate(0);
    const worse = rate(-60);
    expect(atElo1.h1).toBeGreaterThanOrEqual(0.9);
    expect(atElo0.h1).toBeLessThanOrEqual(0.1);
    expect(worse.h1).toBeLessThanOrEqual(0.01);
    expect(atElo1.meanPairs).toBeLessThan(1000);
  });

  test('synthetic streams, normalized Elo: a stream whose nElo equals nelo1 ends in H1 almost always', () => {
    // independent games at logistic +60 with 30% draws: per-game σ and nElo of that distribution
    const probs = pairProbabilities(60, 0.3);
    const { mean, variance } = pdfStats({ values: [0, 0.25, 0.5, 0.75, 1], probs });
    const nelo = ((mean - 0.5) / Math.sqrt(2 * variance)) * (800 / Math.LN10);
    const s: SprtSettings = { elo0: 0, elo1: nelo, alpha: 0.05, beta: 0.05, model: 'normalized' };
    const rng = Rng.fromSeed('sprt-normalized');
    let h1 = 0;
    for (let k = 0; k < 100; k++) if (simulate(rng, probs, s).decision === 'H1') h1++;
    expect(h1).toBeGreaterThanOrEqual(90);
    let h1At0 = 0;
    for (let k = 0; k < 100; k++) if (simulate(rng, pairProbabilities(0, 0.3), s).decision === 'H1') h1At0++;
    expect(h1At0).toBeLessThanOrEqual(10);
  });
});
