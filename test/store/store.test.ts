import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatchEvent } from '../../src/core/events';
import { Store, StoreConflictError, type MatchRecord } from '../../src/store/store';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'arena-store-')), 'test.db');

function match(idx: number): MatchRecord {
  return {
    league: 'L', idx, id: `L#${idx}`, env: 'rock-paper-scissors-v1', params: { rounds: 3 }, seed: 100 + idx,
    seats: [{ player: 'a', role: 'player', team: 'player' }, { player: 'b', role: 'player', team: 'player' }],
    returns: [1, -1], outcome: 'player0', code: 'ok', length: 3, faults: [], summary: { score: [2, 1] }, startedAt: 1, endedAt: 2,
  };
}
const ev = (matchId: string, seq: number): MatchEvent => ({ type: 'turn', matchId, seq, time: 5, visibility: 'public', step: seq, toAct: [0, 1] });

describe('Store', () => {
  test('WAL mode, league config guard, players', () => {
    const s = new Store(tmp());
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.ensureLeague('L', { a: 1 })).toEqual({ created: true });
    expect(s.ensureLeague('L', { a: 1 })).toEqual({ created: false });
    expect(() => s.ensureLeague('L', { a: 2 })).toThrow(StoreConflictError);
    s.addPlayer('L', { id: 'a', kind: 'baseline', agent: 'random', version: 0, roles: ['player'], parent: null, checkpoint: null, createdAt: 1 });
    s.addPlayer('L', { id: 'a', kind: 'snapshot', agent: 'x', version: 9, roles: [], parent: null, checkpoint: null, createdAt: 1 });
    expect(s.players('L')).toEqual([{ id: 'a', kind: 'baseline', agent: 'random', version: 0, roles: ['player'], parent: null, checkpoint: null, createdAt: 1 }]);
    s.close();
  });

  test('a match, its events and ratings are stored together and read back; a duplicate index is refused whole', () => {
    const path = tmp();
    const s = new Store(path);
    s.ensureLeague('L', {});
    s.recordMatch(match(0), [ev('L#0', 0), ev('L#0', 1)], [{ system: 'elo', player: 'a', role: 'player', value: 1516, state: { games: 1 } }], [
      { system: 'elo', player: 'a', role: 'player', matchIdx: 0, value: 1516, time: 3 },
    ]);
    expect(() => s.recordMatch({ ...match(0), id: 'other' }, [ev('other', 0)], [{ system: 'elo', player: 'a', role: 'player', value: 9, state: {} }], [])).toThrow();
    s.close();
    const again = new Store(path);
    expect(again.matchCount('L')).toBe(1);
    expect(again.matches('L')).toEqual([match(0)]);
    expect(again.events('L#0').map((e) => e.seq)).toEqual([0, 1]);
    expect(again.events('other')).toEqual([]);
    expect(again.ratings('L', 'elo')).toEqual([{ system: 'elo', player: 'a', role: 'player', value: 1516, state: { games: 1 } }]);
    expect(again.ratingHistory('L', 'elo')).toHaveLength(1);
    again.recordTraining('L', 0, 'solver', { meanReturn: 0.5 });
    again.recordTraining('L', 0, 'solver', { meanReturn: 0.6 });
    expect(again.trainingMetrics('L').map((m) => m.metrics)).toEqual([{ meanReturn: 0.6 }]);
    again.close();
  });

  test('transaction: a batch of planned matches is committed whole, or — when a write in it fails — none of it (plans kept, ratings untouched)', () => {
    const path = tmp();
    const s = new Store(path);
    s.ensureLeague('L', {});
    s.savePlans('L', [0, 1, 2, 3].map((idx) => ({ idx, plan: { idx } })));
    const elo = (value: number, matchIdx: number) => ({ ratings: [{ system: 'elo', player: 'a', role: 'player', value, state: {} }], history: [{ system: 'elo', player: 'a', role: 'player', matchIdx, value, time: 3 }] });
    // the third record of the batch fails (a duplicate event seq): the first two are rolled back with it
    expect(() =>
      s.transaction(() => {
        for (const idx of [0, 1, 2]) {
          const r = elo(1500 + idx, idx);
          s.recordPlannedMatch(match(idx), idx === 2 ? [ev('L#2', 0), ev('L#2', 0)] : [ev(`L#${idx}`, 0)], r.ratings, r.history);
        }
      }),
    ).toThrow();
    expect(s.matchCount('L')).toBe(0);
    expect(s.events('L#0')).toEqual([]);
    expect(s.ratings('L', 'elo')).toEqual([]);
    expect(s.ratingHistory('L', 'elo')).toEqual([]);
    expect(s.plans('L').map((p) => p.idx)).toEqual([0, 1, 2, 3]);
    // the same batch, well-formed: all of it, and what the function returned
    expect(
      s.transaction(() => {
        for (const idx of [0, 1, 2]) {
          const r = elo(1500 + idx, idx);
          s.recordPlannedMatch(match(idx), [ev(`L#${idx}`, 0)], r.ratings, r.history);
        }
        return 'done';
      }),
    ).toBe('done');
    s.close();
    const again = new Store(path, { readonly: true });
    expect(again.matches('L').map((m) => m.idx)).toEqual([0, 1, 2]);
    expect(again.ratings('L', 'elo').map((r) => r.value)).toEqual([1502]);
    expect(again.ratingHistory('L', 'elo').map((h) => h.matchIdx)).toEqual([0, 1, 2]);
    expect(again.plans('L').map((p) => p.idx)).toEqual([3]);
    again.close();
  });
});
