import { intervalsOverlap, tiedRanks } from '../../../league/ratings/tied-ranks';

describe('tied ranks', () => {
  test('groups anchor at their leader: a chain A ~ B ~ C with A and C apart gives {A, B}, {C}; ranks 1, 1, 3', () => {
    const rows = tiedRanks([
      { id: 'C', rating: 75, lo: 60, hi: 85 },
      { id: 'A', rating: 100, lo: 90, hi: 110 },
      { id: 'B', rating: 95, lo: 80, hi: 100 },
      { id: 'D', rating: 20, lo: 10, hi: 30 },
    ]);
    expect(rows.map((r) => [r.id, r.rank, r.group])).toEqual([
      ['A', 1, 1],
      ['B', 1, 1],
      ['C', 3, 2],
      ['D', 4, 3],
    ]);
    // Rank ranges: C's interval overlaps B's, so C could be second; B could be third.
    expect(rows.map((r) => [r.id, r.bestRank, r.worstRank])).toEqual([
      ['A', 1, 2],
      ['B', 1, 3],
      ['C', 2, 3],
      ['D', 4, 4],
    ]);
  });

  test('touching intervals overlap (closed); equal ratings order by id; disjoint intervals give 1, 2, 3', () => {
    expect(intervalsOverlap({ lo: 0, hi: 1 }, { lo: 1, hi: 2 })).toBe(true);
    expect(intervalsOverlap({ lo: 0, hi: 1 }, { lo: 1.0001, hi: 2 })).toBe(false);
    const tied = tiedRanks([
      { id: 'y', rating: 50, lo: 40, hi: 60 },
      { id: 'x', rating: 50, lo: 40, hi: 60 },
      { id: 'z', rating: 30, lo: 20, hi: 40 },
    ]);
    expect(tied.map((r) => [r.id, r.rank])).toEqual([
      ['x', 1],
      ['y', 1],
      ['z', 1],
    ]);
    const apart = tiedRanks([
      { id: 'a', rating: 3, lo: 2.5, hi: 3.5 },
      { id: 'b', rating: 2, lo: 1.5, hi: 2.4 },
      { id: 'c', rating: 1, lo: 0.5, hi: 1.4 },
    ]);
    expect(apart.map((r) => r.rank)).toEqual([1, 2, 3]);
  });
});
