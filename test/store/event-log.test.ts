/**
 * A match's event log is ONE row (schema version 5, issue 27): round trip, the checks that the old
 * per-event key (match_id, seq) made, a database written the old way (one row per event) read and
 * upgraded, and a crash in the middle of a batch's transaction leaving no half match.
 */
import { spawnSync } from 'node:child_process';
import { deflateRawSync } from 'node:zlib';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { MatchEvent } from '../../src/core/events';
import { MIGRATIONS } from '../../src/store/schema';
import { eventLogMessage, eventLogOfMessage, packEventLog, SMALL_LOG, unpackEventLog } from '../../src/store/event-log';
import { EventLogError, Store, type MatchRecord } from '../../src/store/store';

const ROOT = resolve(__dirname, '..', '..');
const tmp = () => join(mkdtempSync(join(tmpdir(), 'arena-event-log-')), 'a.db');

function match(idx: number, league = 'L'): MatchRecord {
  return {
    league, idx, id: `${league}#${idx}`, env: 'rock-paper-scissors-v1', params: { rounds: 3 }, seed: 100 + idx,
    seats: [{ player: 'a', role: 'player', team: 'player' }, { player: 'b', role: 'player', team: 'player' }],
    returns: [1, -1], outcome: 'player0', code: 'ok', length: 3, faults: [], summary: null, startedAt: 1, endedAt: 2,
  };
}
/** A log of `n` events of every shape a replay reads (created, turns, messages with unicode, ended). */
function log(matchId: string, n: number): MatchEvent[] {
  return Array.from({ length: n }, (_, seq): MatchEvent => {
    if (seq === 0) return { type: 'match.created', matchId, seq, time: 10, visibility: 'omniscient', env: 'rock-paper-scissors-v1', params: { rounds: 3 }, seed: 7, seats: [{ role: 'player', team: 'player' }, { role: 'player', team: 'player' }], agents: ['a', 'b'] } as unknown as MatchEvent;
    if (seq === n - 1) return { type: 'match.ended', matchId, seq, time: 99, visibility: 'public', returns: [1, -1], outcome: 'player0', code: 'ok', length: n } as unknown as MatchEvent;
    return seq % 2 ? { type: 'turn', matchId, seq, time: 10 + seq, visibility: 'public', step: seq, toAct: [0, 1] } : { type: 'message', matchId, seq, time: 10 + seq, visibility: { seat: seq % 2 }, step: seq, seat: 0, text: `P${seq} says "hi" – ünïcødé ✓\n`, data: { n: seq } };
  });
}
const count = (db: Database.Database, sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;

/** The schema as it was before version 5: the first four migrations, and matches with one event row each. */
function oldDatabase(path: string, matches: { m: MatchRecord; events: MatchEvent[] }[]): void {
  const db = new Database(path);
  for (let v = 0; v < 4; v++) db.exec(MIGRATIONS[v]);
  db.pragma('user_version = 4');
  db.prepare('INSERT INTO leagues (id, config, created_at) VALUES (?, ?, ?)').run('L', '{}', 1);
  for (const { m, events } of matches) {
    db.prepare(
      `INSERT INTO matches (league, idx, id, env, params, seed, seats, returns, outcome, code, length, faults, summary, started_at, ended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(m.league, m.idx, m.id, m.env, JSON.stringify(m.params), m.seed, JSON.stringify(m.seats), JSON.stringify(m.returns), m.outcome, m.code, m.length, '[]', 'null', m.startedAt, m.endedAt);
    // written in reverse: the reader orders by seq
    for (const e of [...events].reverse()) db.prepare('INSERT INTO events (match_id, seq, type, event) VALUES (?, ?, ?, ?)').run(e.matchId, e.seq, e.type, JSON.stringify(e));
  }
  db.close();
}

describe('event logs: one row per match', () => {
  test('round trip: the log comes back equal and in order, as one row; no per-event rows; a match without events has none', () => {
    const path = tmp();
    const s = new Store(path);
    s.ensureLeague('L', {});
    s.recordMatch(match(0), log('L#0', 40), [], []);
    s.recordMatch(match(1), [], [], []);
    s.close();
    const r = new Store(path, { readonly: true });
    expect(r.events('L#0')).toEqual(log('L#0', 40));
    expect(r.events('L#1')).toEqual([]);
    expect(r.events('nope')).toEqual([]);
    expect(count(r.db, 'SELECT COUNT(*) AS n FROM event_logs')).toBe(1);
    expect(count(r.db, "SELECT count AS n FROM event_logs WHERE match_id = 'L#0'")).toBe(40);
    expect(count(r.db, 'SELECT COUNT(*) AS n FROM events')).toBe(0);
    expect(r.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    r.close();
  });

  test('a log packed where the match was played (a worker\'s, through its JSON result) is stored as it came and reads back equal; compressed', () => {
    const path = tmp();
    const s = new Store(path);
    s.ensureLeague('L', {});
    const message = JSON.parse(JSON.stringify(eventLogMessage(packEventLog('L#0', log('L#0', 200))))) as unknown;
    s.recordMatch(match(0), eventLogOfMessage(message), [], []);
    expect(s.events('L#0')).toEqual(log('L#0', 200));
    expect(count(s.db, "SELECT count AS n FROM event_logs WHERE match_id = 'L#0'")).toBe(200);
    expect(count(s.db, 'SELECT length(log) AS n FROM event_logs')).toBeLessThan(JSON.stringify(log('L#0', 200)).length / 4);
    s.close();
  });

  test('a small log (a cheap match\'s) is deflated with a small window: compressed as well as with the default one, and either kind reads back', () => {
    // the largest log at most SMALL_LOG characters long, and the smallest above it
    let n = 1;
    while (JSON.stringify(log('L#0', n + 1)).length <= SMALL_LOG) n++;
    for (const events of [log('L#0', 3), log('L#0', n), log('L#0', n + 1)]) {
      const json = JSON.stringify(events);
      const packed = packEventLog('L#0', events);
      expect(unpackEventLog('L#0', packed.deflated)).toEqual(events);
      const usual = deflateRawSync(json, { level: 1 });
      expect(packed.deflated.length).toBeLessThanOrEqual(Math.ceil(usual.length * 1.1));
      expect(packed.deflated.length).toBeLessThan(json.length);
      // a log written before the small window (default window) still reads
      expect(unpackEventLog('L#0', usual)).toEqual(events);
    }
    expect(JSON.stringify(log('L#0', n)).length).toBeLessThanOrEqual(SMALL_LOG);
    expect(JSON.stringify(log('L#0', n + 1)).length).toBeGreaterThan(SMALL_LOG);
  });

  test('a message that is no packed log is refused: not an object, a bad count, not base64', () => {
    for (const m of [null, 'x', [], { count: -1, deflated: '' }, { count: 1.5, deflated: '' }, { count: '2', deflated: '' }, { count: 2 }, { count: 2, deflated: 'not base64!' }]) {
      expect(() => eventLogOfMessage(m)).toThrow(new EventLogError('an event log in a result is not {count, deflated (base64)}'));
    }
    expect(eventLogOfMessage({ count: 0, deflated: '' }).count).toBe(0);
  });

  test('a stored log that is damaged, no list, or another match\'s is named when read, never served as the match\'s', () => {
    const s = new Store(tmp());
    s.ensureLeague('L', {});
    for (const i of [0, 1, 2]) s.recordMatch(match(i), log(`L#${i}`, 5), [], []);
    const put = (id: string, bytes: Buffer) => s.db.prepare('UPDATE event_logs SET log = ? WHERE match_id = ?').run(bytes, id);
    put('L#0', Buffer.from('garbage'));
    put('L#1', deflateRawSync('{"a":1}'));
    put('L#2', packEventLog('L#9', log('L#9', 5)).deflated);
    expect(() => s.events('L#0')).toThrow(/^match L#0: its stored event log is damaged \(.+\)$/);
    expect(() => s.events('L#1')).toThrow(/^match L#1: its stored event log is damaged \(not a list of events\)$/);
    expect(() => s.events('L#2')).toThrow(new EventLogError('match L#2: its event log holds an event of match L#9'));
    s.close();
  });

  test('a log that is not the match\'s in increasing seq order is refused, and nothing of the match is written', () => {
    const s = new Store(tmp());
    s.ensureLeague('L', {});
    const good = log('L#0', 6);
    const cases: [MatchEvent[], RegExp][] = [
      [[...good.slice(0, 3), { ...good[3], matchId: 'L#9' }], /^match L#0: its event log holds an event of match L#9$/],
      [[good[0], good[2], good[1]], /^match L#0: its event log is not in seq order \(seq 1 at position 2\)$/],
      [[good[0], good[1], good[1]], /^match L#0: its event log is not in seq order \(seq 1 at position 2\)$/],
      [[{ ...good[0], seq: 'x' as unknown as number }], /^match L#0: its event log is not in seq order \(seq x at position 0\)$/],
    ];
    for (const [events, message] of cases) {
      expect(() => s.recordMatch(match(0), events, [{ system: 'elo', player: 'a', role: 'player', value: 1516, state: {} }], [])).toThrow(EventLogError);
      expect(() => s.recordMatch(match(0), events, [], [])).toThrow(message);
      expect(s.matchCount('L')).toBe(0);
      expect(s.ratings('L')).toEqual([]);
      expect(count(s.db, 'SELECT COUNT(*) AS n FROM event_logs')).toBe(0);
    }
    // seqs may skip (a log is what the bus delivered), as the old key allowed
    s.recordMatch(match(0), [good[0], good[2], good[5]], [], []);
    expect(s.events('L#0').map((e) => e.seq)).toEqual([0, 2, 5]);
    // a second match under the same id is refused whole (its log is not written over the first's)
    expect(() => s.recordMatch({ ...match(1), id: 'L#0' }, log('L#0', 3), [], [])).toThrow(/UNIQUE/);
    expect(s.events('L#0').map((e) => e.seq)).toEqual([0, 2, 5]);
    s.close();
  });

  test('a database written the old way (one row per event, schema 4): upgraded on open, its logs read in seq order, new matches written as one row, both read', () => {
    const path = tmp();
    oldDatabase(path, [
      { m: match(0), events: log('L#0', 12) },
      { m: match(1), events: [] },
    ]);
    // a read-only open of the old file asks for one open with write access (the rule for every migration)
    expect(() => new Store(path, { readonly: true })).toThrow(/has an older schema \(version 4\); open it once with write access to upgrade it/);
    const s = new Store(path);
    expect(s.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(s.events('L#0')).toEqual(log('L#0', 12));
    expect(s.events('L#1')).toEqual([]);
    s.recordMatch(match(2), log('L#2', 9), [], []);
    s.close();
    const r = new Store(path, { readonly: true });
    expect(r.matches('L').map((m) => m.idx)).toEqual([0, 1, 2]);
    expect(r.events('L#0')).toEqual(log('L#0', 12));
    expect(r.events('L#2')).toEqual(log('L#2', 9));
    expect(count(r.db, 'SELECT COUNT(*) AS n FROM events')).toBe(12); // the old rows stay where they were
    expect(count(r.db, 'SELECT COUNT(*) AS n FROM event_logs')).toBe(1);
    r.close();
  });

  test('a batch whose transaction fails at its third match leaves none of the batch: no match, no log, no rating', () => {
    const s = new Store(tmp());
    s.ensureLeague('L', {});
    s.savePlans('L', [0, 1, 2].map((idx) => ({ idx, plan: { idx } })));
    expect(() =>
      s.transaction(() => {
        for (const idx of [0, 1, 2]) {
          // the third reuses the first's id: SQLite refuses it (UNIQUE), after two logs were written
          const m = idx === 2 ? { ...match(2), id: 'L#0' } : match(idx);
          s.recordPlannedMatch(m, log(m.id, 5), [{ system: 'elo', player: 'a', role: 'player', value: 1500 + idx, state: {} }], []);
        }
      }),
    ).toThrow(/UNIQUE/);
    expect(s.matchCount('L')).toBe(0);
    expect(s.events('L#0')).toEqual([]);
    expect(s.events('L#1')).toEqual([]);
    expect(count(s.db, 'SELECT COUNT(*) AS n FROM event_logs')).toBe(0);
    expect(s.ratings('L')).toEqual([]);
    expect(s.plans('L').map((p) => p.idx)).toEqual([0, 1, 2]);
    s.close();
  });

  test('kill -9 in the middle of a batch\'s transaction: the batches committed before are whole, nothing of the killed one is stored', () => {
    const path = tmp();
    const store = join(ROOT, 'dist', 'src', 'store', 'store.js');
    expect(existsSync(store)).toBe(true); // `npm run build` first
    const child = `
      const { Store } = require(${JSON.stringify(store)});
      const log = ${log.toString()};
      const match = ${match.toString()};
      const s = new Store(${JSON.stringify(path)});
      s.ensureLeague('L', {});
      s.transaction(() => { for (const i of [0, 1]) s.recordPlannedMatch(match(i), log('L#' + i, 30), [], []); });
      s.transaction(() => {
        for (const i of [2, 3]) s.recordPlannedMatch(match(i), log('L#' + i, 30), [{ system: 'elo', player: 'a', role: 'player', value: 1500 + i, state: {} }], []);
        process.kill(process.pid, 'SIGKILL');
      });
    `;
    const r = spawnSync(process.execPath, ['-e', child], { encoding: 'utf8' });
    expect(r.signal).toBe('SIGKILL');
    const s = new Store(path, { readonly: true });
    expect(s.matches('L').map((m) => m.idx)).toEqual([0, 1]);
    expect(s.events('L#1')).toEqual(log('L#1', 30));
    expect(s.events('L#2')).toEqual([]);
    expect(count(s.db, 'SELECT COUNT(*) AS n FROM event_logs')).toBe(2);
    expect(s.ratings('L')).toEqual([]);
    s.close();
  });
});
