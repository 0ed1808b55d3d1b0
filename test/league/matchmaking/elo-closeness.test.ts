import { closenessProbabilities, pairByCloseness, pickCloseOpponent } from '../../../league/matchmaking/elo-closeness';
import { Rng } from '../../../src/core/rng';

describe('Elo-closeness', () => {
  test('Gaussian kernel (σ = 200) mixed with 10 % uniform: gaps 0, 200, 400 -> 0.5500, 0.3467, 0.1033', () => {
    const p = closenessProbabilities(1500, [1500, 1700, 1100]);
    const k = [1, Math.exp(-0.5), Math.exp(-2)];
    const sum = k[0] + k[1] + k[2];
    k.forEach((x, i) => expect(p[i]).toBeCloseTo(0.9 * (x / sum) + 0.1 / 3, 12));
    expect(p[0]).toBeCloseTo(0.55, 4);
    expect(p[1]).toBeCloseTo(0.3467, 4);
    expect(p[2]).toBeCloseTo(0.1033, 4);
    expect(closenessProbabilities(1500, [1500, 1900], { explore: 0, sigma: 400 })).toEqual([1 / (1 + Math.exp(-0.5)), Math.exp(-0.5) / (1 + Math.exp(-0.5))]);
  });

  test('ratings far apart do not underflow: the closest gets 1 − ε + ε/m', () => {
    const p = closenessProbabilities(0, [50000, 90000]);
    expect(p[0]).toBeCloseTo(0.95, 12);
    expect(p[1]).toBeCloseTo(0.05, 12);
    expect(() => closenessProbabilities(0, [1], { sigma: 0 })).toThrow('elo closeness: option "sigma" must be > 0 (got 0)');
  });

  test('picks exclude the focal player, prefer close ratings and are reproducible', () => {
    const pool = [
      { id: 'me', rating: 1500 },
      { id: 'close', rating: 1520 },
      { id: 'far', rating: 2100 },
    ];
    const run = (seed: number) => {
      const rng = Rng.fromSeed(seed);
      return Array.from({ length: 400 }, () => pickCloseOpponent(pool[0], pool, rng).id);
    };
    const a = run(9);
    expect(a).toEqual(run(9));
    expect(a).not.toContain('me');
    expect(a.filter((x) => x === 'close').length).toBeGreaterThan(300);
    const [x, y] = pairByCloseness(pool, Rng.fromSeed(2));
    expect(x.id).not.toBe(y.id);
    expect(() => pairByCloseness([pool[0]], Rng.fromSeed(2))).toThrow('elo closeness: need at least 2 players to pair (got 1)');
  });
});
