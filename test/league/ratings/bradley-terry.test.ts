import { ELO_PER_LOGIT, fitBradleyTerry } from '../../../league/ratings/bradley-terry';
import { PairCounts, playerTotals } from '../../../league/ratings/pair-counts';
import { Rng } from '../../../src/core/rng';

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function table(rows: Array<[string, string, number, number?]>) {
  const c = new PairCounts();
  for (const [a, b, s, n] of rows) c.add(a, b, s, n ?? 1);
  return c.table();
}

describe('pair counts', () => {
  test('aggregates per pair in index order; ties separate; self pairs ignored; bad scores named', () => {
    const c = new PairCounts();
    c.add('b', 'a', 1);
    c.add('a', 'b', 1, 2);
    c.add('a', 'b', 0.5);
    c.add('a', 'a', 1);
    const t = c.table();
    expect(t.ids).toEqual(['b', 'a']);
    expect([t.i[0], t.j[0], t.wins[0], t.losses[0], t.ties[0]]).toEqual([0, 1, 1, 2, 1]);
    expect(c.matchCount).toBe(4);
    expect(c.selfPairs).toBe(1);
    expect(playerTotals(t)).toEqual({ games: Float64Array.from([4, 4]), points: Float64Array.from([1.5, 2.5]) });
    expect(() => c.add('a', 'b', 0.7)).toThrow('pair counts: score must be 1, 0.5 or 0 (got 0.7) for "a" vs "b"');
  });
});

describe('Bradley–Terry fit', () => {
  test('two players, 3 wins to 1, no prior: the MLE difference is ln 3 logits = 400·log10(3) Elo points, mean 1500', () => {
    const fit = fitBradleyTerry(table([['a', 'b', 1, 3], ['a', 'b', 0, 1]]), { prior: 0 });
    expect(fit.converged).toBe(true);
    expect(Math.log(fit.strengths[0] / fit.strengths[1])).toBeCloseTo(Math.log(3), 9);
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(190.8485, 3);
    expect(fit.ratings[0]).toBeCloseTo(1500 + 95.42425, 3);
    expect((fit.ratings[0] + fit.ratings[1]) / 2).toBeCloseTo(1500, 9);
  });

  test('the same with the default prior (one virtual tie against the reference): 4σ(2t) + σ(t) = 3.5 gives t = 0.474443', () => {
    // By symmetry θa = t, θb = −t. a's score equation: 3 + 0.5 = 4·σ(2t) + 1·σ(t).
    let lo = 0;
    let hi = 5;
    for (let k = 0; k < 200; k++) {
      const m = (lo + hi) / 2;
      if (4 * sigmoid(2 * m) + sigmoid(m) < 3.5) lo = m;
      else hi = m;
    }
    expect(lo).toBeCloseTo(0.474443, 6);
    const fit = fitBradleyTerry(table([['a', 'b', 1, 3], ['b', 'a', 1, 1]]));
    expect(Math.log(fit.strengths[0])).toBeCloseTo(lo, 9);
    expect(Math.log(fit.strengths[1])).toBeCloseTo(-lo, 9);
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(2 * lo * ELO_PER_LOGIT, 6);
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(164.8385, 3);
  });

  test('ties count as half wins: 1 win, 1 loss, 2 ties is level; 2 wins + 2 ties vs 0 is 3:1', () => {
    const level = fitBradleyTerry(table([['a', 'b', 1], ['a', 'b', 0], ['a', 'b', 0.5, 2]]), { prior: 0 });
    expect(level.ratings[0]).toBeCloseTo(1500, 9);
    const threeToOne = fitBradleyTerry(table([['a', 'b', 1, 2], ['a', 'b', 0.5, 2]]), { prior: 0 });
    expect(threeToOne.ratings[0] - threeToOne.ratings[1]).toBeCloseTo(400 * Math.log10(3), 6);
  });

  test('a 2:1 cycle of three players is level; the anchor option moves the mean', () => {
    const fit = fitBradleyTerry(table([['a', 'b', 1, 2], ['a', 'b', 0, 1], ['b', 'c', 1, 2], ['b', 'c', 0, 1], ['c', 'a', 1, 2], ['c', 'a', 0, 1]]), { anchor: 1000 });
    for (const r of fit.ratings) expect(r).toBeCloseTo(1000, 9);
  });

  test('an undefeated player stays finite with the prior; without it the fit does not converge', () => {
    const rows: Array<[string, string, number, number?]> = [['a', 'b', 1, 5], ['b', 'c', 1, 3], ['b', 'c', 0, 1]];
    const fit = fitBradleyTerry(table(rows));
    expect(fit.converged).toBe(true);
    expect(Number.isFinite(fit.ratings[0])).toBe(true);
    expect(fit.ratings[0]).toBeGreaterThan(fit.ratings[1]);
    const plain = fitBradleyTerry(table(rows), { prior: 0, maxIter: 200 });
    expect(plain.converged).toBe(false);
  });

  test('agrees with an independent Zermelo/MM (Hunter 2004) solution, and the score equations hold', () => {
    const rng = Rng.fromSeed('bt');
    const n = 6;
    const c = new PairCounts();
    for (let m = 0; m < 300; m++) {
      const a = rng.int(n);
      const b = (a + 1 + rng.int(n - 1)) % n;
      const u = rng.next();
      c.add(`p${a}`, `p${b}`, u < 0.1 ? 0.5 : u < 0.1 + 0.9 * sigmoid((a - b) * 0.4) ? 1 : 0);
    }
    const t = c.table();
    const prior = 1;
    const fit = fitBradleyTerry(t, { prior, tol: 1e-13 });
    // MM with the prior as `prior` games (half won) against a fixed player of strength 1.
    const k = t.ids.length;
    let g = new Array<number>(k).fill(1);
    for (let it = 0; it < 20000; it++) {
      const W = new Array<number>(k).fill(prior / 2);
      const D = g.map((x) => prior / (x + 1));
      for (let p = 0; p < t.i.length; p++) {
        const nn = t.wins[p] + t.losses[p] + t.ties[p];
        W[t.i[p]] += t.wins[p] + t.ties[p] / 2;
        W[t.j[p]] += t.losses[p] + t.ties[p] / 2;
        D[t.i[p]] += nn / (g[t.i[p]] + g[t.j[p]]);
        D[t.j[p]] += nn / (g[t.i[p]] + g[t.j[p]]);
      }
      g = W.map((w, q) => w / D[q]);
    }
    for (let q = 0; q < k; q++) expect(Math.log(fit.strengths[q])).toBeCloseTo(Math.log(g[q]), 7);
    // Score equations: each player's points (plus prior/2) equal their expected points.
    const { points } = playerTotals(t);
    const expected = Array.from(fit.strengths, (x) => (prior * x) / (x + 1));
    for (let p = 0; p < t.i.length; p++) {
      const nn = t.wins[p] + t.losses[p] + t.ties[p];
      const q = fit.strengths[t.i[p]] / (fit.strengths[t.i[p]] + fit.strengths[t.j[p]]);
      expected[t.i[p]] += nn * q;
      expected[t.j[p]] += nn * (1 - q);
    }
    for (let q = 0; q < k; q++) expect(points[q] + prior / 2).toBeCloseTo(expected[q], 8);
  });

  test('a bipartite league (challengers only meet solvers) converges quickly to the same fit as from any start', () => {
    const rng = Rng.fromSeed('bipartite');
    const c = new PairCounts();
    for (let m = 0; m < 2000; m++) {
      const ch = rng.int(4);
      const so = rng.int(4);
      c.add(`challenger${ch}`, `solver${so}`, rng.next() < sigmoid(0.5 * (ch - so)) ? 1 : 0);
    }
    const t = c.table();
    const fit = fitBradleyTerry(t, { tol: 1e-12 });
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThan(100);
    const warm = fitBradleyTerry(t, { tol: 1e-12 }, Float64Array.from(fit.strengths, (x, k) => x * (k % 2 ? 3 : 0.2)));
    for (let k = 0; k < t.ids.length; k++) expect(warm.ratings[k]).toBeCloseTo(fit.ratings[k], 6);
    const order = t.ids.map((id, k) => [id, fit.ratings[k]] as const).sort((a, b) => b[1] - a[1]);
    expect(order[0][0]).toBe('challenger3');
    expect(order[order.length - 1][0]).toBe('challenger0');
  });

  test('bad options are named', () => {
    const t = table([['a', 'b', 1]]);
    expect(() => fitBradleyTerry(t, { prior: -1 })).toThrow('bradley-terry: option "prior" must be >= 0 (got -1)');
    expect(() => fitBradleyTerry(t, { tol: 0 })).toThrow('option "tol" must be > 0');
  });
});
