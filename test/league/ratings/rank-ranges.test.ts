import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../../../src/core/rng';
import { Store } from '../../../src/store/store';
import { leaderboard } from '../../../league/leaderboard';
import { bradleyTerryLeaderboard } from '../../../league/ratings/bt-leaderboard';
import type { PairResultRow } from '../../../league/ratings/pair-counts';
import { competitionRanks, rankRanges } from '../../../league/ratings/rank-ranges';
import { tiedRanks } from '../../../league/ratings/tied-ranks';

describe('competition ranks', () => {
  test('equal scores as shown share a rank (1, 1, 3); different ones do not', () => {
    expect(competitionRanks([12.12831161644861, 12.1283116164487, 5])).toEqual([1, 1, 3]);
    expect(competitionRanks([3, 2.94, 2.91, 1])).toEqual([1, 2, 2, 4]);
    expect(competitionRanks([3, 2.94, 2.91, 1], 2)).toEqual([1, 2, 3, 4]);
  });
});

describe('rank ranges', () => {
  /** Player-major samples from per-resample rating columns. */
  const samples = (cols: number[][]) => Float64Array.from(cols.flat());

  test('a sure order gives single ranks; a coin flip gives [1, 2] to both', () => {
    const B = 100;
    const sure = rankRanges(samples([Array(B).fill(2), Array(B).fill(1)]), B, [0, 0]);
    expect(sure).toEqual([{ lo: 1, hi: 1 }, { lo: 2, hi: 2 }]);
    const a = Array.from({ length: B }, (_, b) => (b % 2 ? 2 : 0));
    expect(rankRanges(samples([a, Array(B).fill(1)]), B, [0, 0])).toEqual([{ lo: 1, hi: 2 }, { lo: 1, hi: 2 }]);
  });

  test('the 2.5 % tails are cut: first in 2 of 100 resamples is not enough for rank 1', () => {
    const B = 100;
    const b = Array.from({ length: B }, (_, k) => (k < 2 ? 3 : 1));
    const r = rankRanges(samples([Array(B).fill(2), b]), B, [0, 0]);
    expect(r[1]).toEqual({ lo: 2, hi: 2 });
    const c = Array.from({ length: B }, (_, k) => (k < 3 ? 3 : 1));
    expect(rankRanges(samples([Array(B).fill(2), c]), B, [0, 0])[1]).toEqual({ lo: 1, hi: 2 });
  });

  test('players are ranked within their group only', () => {
    const B = 10;
    const r = rankRanges(samples([Array(B).fill(5), Array(B).fill(9), Array(B).fill(1)]), B, ['x', 'y', 'x']);
    expect(r).toEqual([{ lo: 1, hi: 1 }, { lo: 1, hi: 1 }, { lo: 2, hi: 2 }]);
    expect(() => rankRanges(new Float64Array(5), B, ['x'])).toThrow('rank ranges: 5 samples for 1 players × 10 resamples');
  });

  test('the demo case: a leader with few games no longer ties everybody; rank ranges still show the doubt', () => {
    // six players in a well-played round robin (100 Elo apart) and a newcomer with three games
    const rng = Rng.fromSeed(3);
    const rows: PairResultRow[] = [];
    for (let m = 0; m < 1500; m++) {
      const a = rng.int(6);
      const b = (a + 1 + rng.int(5)) % 6;
      const p = 1 / (1 + Math.pow(10, ((b - a) * 60) / 400));
      rows.push({ a: `p${a}`, b: `p${b}`, score: rng.next() < p ? 1 : 0 });
    }
    rows.push({ a: 'new', b: 'p5', score: 1 }, { a: 'new', b: 'p5', score: 1 }, { a: 'new', b: 'p4', score: 1 });
    const board = bradleyTerryLeaderboard(rows, { resamples: 400, seed: 1 });
    // the old rule: four players overlap the newcomer's wide interval, so four are "=1"
    expect(tiedRanks(board.rows).filter((r) => r.rank === 1).length).toBeGreaterThanOrEqual(4);
    // now: a rank each, and ranges that say how sure each one is
    expect(competitionRanks(board.rows.map((r) => r.rating))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const byId = new Map(board.rows.map((r) => [r.id, r]));
    expect(byId.get('new')!.rankLo).toBe(1);
    expect(byId.get('new')!.rankHi).toBeGreaterThanOrEqual(3);
    expect([byId.get('p0')!.rankLo, byId.get('p0')!.rankHi]).toEqual([7, 7]);
    expect(byId.get('p5')!.rankHi).toBeLessThanOrEqual(2);
    for (let k = 0; k < 5; k++) expect(byId.get(`p${k}`)!.rankLo).toBeGreaterThanOrEqual(byId.get(`p${k + 1}`)!.rankLo);
  });
});

describe('the league leaderboard', () => {
  test('competition ranks per role with rank ranges; identical records share a rank', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-ranks-'));
    const store = new Store(join(dir, 'a.db'));
    try {
      store.ensureLeague('L', { env: 'x' });
      const seat = (player: string) => ({ player, role: 'player', team: 'player' });
      let idx = 0;
      const record = (a: string, b: string, aWins: boolean) =>
        store.recordMatch({ league: 'L', idx, id: `m${idx++}`, env: 'x', params: {}, seed: 0, seats: [seat(a), seat(b)], returns: aWins ? [1, -1] : [-1, 1], outcome: '', code: 'ok', length: 1, faults: [], summary: null, startedAt: 0, endedAt: 0 }, [], [], []);
      // a and b have identical records against c and d; c beats d
      for (let k = 0; k < 6; k++) {
        record('a', 'c', k % 3 !== 0);
        record('b', 'c', k % 3 !== 0);
        record('a', 'd', k % 4 !== 0);
        record('b', 'd', k % 4 !== 0);
        record('c', 'd', k % 2 === 0 || k === 1);
      }
      const rows = leaderboard(store, 'L', { resamples: 200 });
      const get = (p: string) => rows.find((r) => r.player === p)!;
      expect(get('a').bt).toBeCloseTo(get('b').bt, 1);
      expect([get('a').rank, get('b').rank, get('a').tied, get('b').tied]).toEqual([1, 1, true, true]);
      expect([get('c').rank, get('c').tied, get('d').rank]).toEqual([3, false, 4]);
      for (const r of rows) {
        expect(r.rankLo).toBeLessThanOrEqual(r.rankHi);
        expect(r.rankLo).toBeGreaterThanOrEqual(1);
        expect(r.rankHi).toBeLessThanOrEqual(4);
      }
      expect(get('a').rankLo).toBe(1);
      expect(get('d').rankHi).toBe(4);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
