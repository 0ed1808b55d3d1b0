import { eloExpected } from '../../../league/ratings/elo';
import { HeadToHead } from '../../../league/matchmaking/head-to-head';
import { fHard, fVar, pfspProbabilities, pfspWeight, pickPfspOpponent } from '../../../league/matchmaking/pfsp';
import { Rng } from '../../../src/core/rng';

describe('PFSP weights', () => {
  test('f_hard = (1 − x)^p and f_var = x(1 − x) on concrete numbers', () => {
    expect(fHard(0.25)).toBeCloseTo(0.5625, 12);
    expect(fHard(0.25, 1)).toBeCloseTo(0.75, 12);
    expect(fHard(0.25, 3)).toBeCloseTo(0.421875, 12);
    expect(fHard(1)).toBe(0);
    expect(fVar(0.25)).toBeCloseTo(0.1875, 12);
    expect(fVar(0.5)).toBe(0.25);
    expect(pfspWeight(0.8, { weighting: 'linear-capped' })).toBeCloseTo(0.2, 12);
    expect(pfspWeight(0.1, { weighting: 'linear-capped' })).toBe(0.5);
  });

  test('probabilities ∝ f(P[win]) for win probabilities 0.2, 0.5, 0.9', () => {
    const x = [0.2, 0.5, 0.9];
    // hard, p = 2: 0.64, 0.25, 0.01 over 0.9.
    const hard = pfspProbabilities(x);
    [0.64 / 0.9, 0.25 / 0.9, 0.01 / 0.9].forEach((p, i) => expect(hard[i]).toBeCloseTo(p, 12));
    // var: 0.16, 0.25, 0.09 over 0.5.
    const v = pfspProbabilities(x, { weighting: 'var' });
    [0.32, 0.5, 0.18].forEach((p, i) => expect(v[i]).toBeCloseTo(p, 12));
    // linear-capped: 0.5, 0.5, 0.1 over 1.1.
    const lc = pfspProbabilities(x, { weighting: 'linear-capped' });
    [0.5 / 1.1, 0.5 / 1.1, 0.1 / 1.1].forEach((p, i) => expect(lc[i]).toBeCloseTo(p, 12));
  });

  test('all-zero weights fall back to uniform; bad options are named', () => {
    expect(pfspProbabilities([1, 1, 1, 1])).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(() => pfspWeight(0.5, { p: 0 })).toThrow('pfsp: option "p" must be > 0 (got 0)');
    expect(() => pfspWeight(0.5, { weighting: 'soft' as never })).toThrow('pfsp: option "weighting" must be one of "hard", "var", "linear", "linear-capped" (got "soft")');
  });
});

describe('head-to-head win probabilities', () => {
  test('posterior mean with a prior: 3 wins, 1 loss, 1 tie -> (3.5 + 0.5) / (5 + 1); unplayed pairs get the prior mean', () => {
    const h = new HeadToHead();
    h.record('a', 'b', 1, 3);
    h.record('a', 'b', 0);
    h.record('b', 'a', 0.5);
    expect(h.results('a', 'b')).toEqual({ points: 3.5, games: 5 });
    expect(h.winProbability('a', 'b')).toBeCloseTo(4 / 6, 12);
    expect(h.winProbability('b', 'a')).toBeCloseTo(2 / 6, 12);
    expect(h.winProbability('a', 'c')).toBe(0.5);
    h.record('a', 'a', 1);
    expect(h.results('a', 'a')).toEqual({ points: 0, games: 0 });
  });

  test('an Elo prior mean for unplayed pairs, with strength in virtual games; snapshot round-trips', () => {
    const ratings: Record<string, number> = { a: 1700, b: 1500 };
    const h = new HeadToHead({ mean: (x, y) => eloExpected(ratings[x], ratings[y]), strength: 4 });
    expect(h.winProbability('a', 'b')).toBeCloseTo(0.7597, 4);
    h.record('a', 'b', 0, 4);
    expect(h.winProbability('a', 'b')).toBeCloseTo((0 + 4 * eloExpected(1700, 1500)) / 8, 12);
    const copy = new HeadToHead({ strength: 4 }, JSON.parse(JSON.stringify(h.toJSON())));
    expect(copy.results('b', 'a')).toEqual({ points: 4, games: 4 });
    expect(() => new HeadToHead({ strength: 0 })).toThrow('head-to-head: prior "strength" must be > 0 (got 0)');
  });
});

describe('pickPfspOpponent', () => {
  const pool = [{ id: 'me' }, { id: 'weak' }, { id: 'even' }, { id: 'strong' }];
  const h = new HeadToHead();
  h.record('me', 'weak', 1, 8);
  h.record('me', 'weak', 0, 1); // P = 8.5 / 10 = 0.85
  h.record('me', 'strong', 0, 9); // P = 0.5 / 10 = 0.05
  // 'even' unplayed: P = 0.5.

  test('never picks the focal player; frequencies follow f_hard weights (0.0225, 0.25, 0.9025)', () => {
    const rng = Rng.fromSeed(11);
    const counts: Record<string, number> = { weak: 0, even: 0, strong: 0 };
    const N = 20000;
    for (let k = 0; k < N; k++) counts[pickPfspOpponent('me', pool, (a, b) => h.winProbability(a, b), rng).id]++;
    const total = 0.15 ** 2 + 0.25 + 0.95 ** 2;
    expect(counts.weak / N).toBeCloseTo(0.15 ** 2 / total, 2);
    expect(counts.even / N).toBeCloseTo(0.25 / total, 2);
    expect(counts.strong / N).toBeCloseTo(0.95 ** 2 / total, 2);
  });

  test('same seed, same choices; f_var prefers the even opponent', () => {
    const draw = (seed: number, weighting: 'hard' | 'var') => {
      const rng = Rng.fromSeed(seed);
      return Array.from({ length: 50 }, () => pickPfspOpponent('me', pool, (a, b) => h.winProbability(a, b), rng, { weighting }).id);
    };
    expect(draw(3, 'hard')).toEqual(draw(3, 'hard'));
    const v = draw(4, 'var');
    expect(v.filter((x) => x === 'even').length).toBeGreaterThan(v.filter((x) => x === 'strong').length);
    expect(() => pickPfspOpponent('me', [{ id: 'me' }], () => 0.5, Rng.fromSeed(1))).toThrow('pfsp: no opponent to choose from (pool of 1, excluding "me")');
  });
});
