import { pairUncertainty, pickUncertainOpponent, pickUncertainPair, uncertaintyProbabilities } from '../../../league/matchmaking/uncertainty';
import { Rng } from '../../../src/core/rng';

describe('uncertainty mode', () => {
  const pool = [
    { id: 'sure', lo: 1490, hi: 1510 },
    { id: 'vague', lo: 1300, hi: 1700 },
    { id: 'mid', lo: 1400, hi: 1550 },
    { id: 'new', lo: -Infinity, hi: Infinity },
  ];

  test('pair uncertainty √(w_a² + w_b²): concrete numbers, unknown width for players without an interval', () => {
    expect(pairUncertainty(pool[0], pool[1])).toBeCloseTo(Math.sqrt(20 * 20 + 400 * 400), 12);
    expect(pairUncertainty(pool[0], pool[3])).toBeCloseTo(Math.sqrt(20 * 20 + 1000 * 1000), 12);
    expect(pairUncertainty(pool[0], pool[3], 300)).toBeCloseTo(Math.sqrt(20 * 20 + 300 * 300), 12);
    const p = uncertaintyProbabilities(pool[0], [pool[1], pool[2]]);
    const w = [20 * 20 + 400 * 400, 20 * 20 + 150 * 150];
    expect(p[0]).toBeCloseTo(w[0] / (w[0] + w[1]), 12);
  });

  test('greedy takes the widest pairing; sampling prefers it and is reproducible', () => {
    const [a, b] = pickUncertainPair(pool, Rng.fromSeed(1), { greedy: true });
    expect([a.id, b.id]).toEqual(['vague', 'new']);
    expect(pickUncertainOpponent(pool[0], pool.slice(0, 3), Rng.fromSeed(1), { greedy: true }).id).toBe('vague');
    const draw = (seed: number) => {
      const rng = Rng.fromSeed(seed);
      return Array.from({ length: 200 }, () => pickUncertainOpponent(pool[2], pool.slice(0, 3), rng).id);
    };
    const d = draw(5);
    expect(d).toEqual(draw(5));
    expect(d.filter((x) => x === 'vague').length).toBeGreaterThan(d.filter((x) => x === 'sure').length);
  });
});
