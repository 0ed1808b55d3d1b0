import { Rng, deriveSeed } from '../../src/core/rng';

describe('Rng', () => {
  test('same seed gives the same stream; state round-trips through JSON', () => {
    const a = Rng.fromSeed(42);
    const b = Rng.fromSeed(42);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    const saved = JSON.parse(JSON.stringify(a.state()));
    const next = a.next();
    expect(Rng.fromState(saved).next()).toBe(next);
  });

  test('int, range and shuffle stay in bounds', () => {
    const r = Rng.fromSeed('x');
    for (let i = 0; i < 1000; i++) {
      const k = r.int(7);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(7);
      const m = r.range(3, 5);
      expect([3, 4, 5]).toContain(m);
    }
    expect(r.shuffle([1, 2, 3, 4]).sort()).toEqual([1, 2, 3, 4]);
  });

  test('deriveSeed separates labels and is stable', () => {
    expect(deriveSeed(1, 'seat', 0)).toBe(deriveSeed(1, 'seat', 0));
    expect(deriveSeed(1, 'seat', 0)).not.toBe(deriveSeed(1, 'seat', 1));
    expect(deriveSeed(1, 'seat', 0)).toBe(3583423037);
    // Alea is pinned: the same seed must give the same stream on every machine and version.
    expect(Rng.fromSeed(42).next()).toBe(0.6848634963389486);
  });
});
