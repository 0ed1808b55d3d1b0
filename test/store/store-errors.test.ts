/**
 * Data errors a user can act on (issue 23): every way the database file can fail becomes one
 * StoreError line naming the file and what to do — when it is opened (the header and schema
 * always, every page when it is small enough) and from any method of the store later.
 */
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { MatchEvent } from '../../src/core/events';
import { EventLogError, QUICK_CHECK_MAX_BYTES, Store, StoreError, type MatchRecord } from '../../src/store/store';
import { storeProblem, translateStoreError } from '../../src/store/store-errors';

const dir = () => mkdtempSync(join(tmpdir(), 'arena-store-errors-'));
const asRoot = process.getuid?.() === 0;

function match(idx: number): MatchRecord {
  return {
    league: 'L', idx, id: `L#${idx}`, env: 'rock-paper-scissors-v1', params: { rounds: 3 }, seed: 100 + idx,
    seats: [{ player: 'a', role: 'player', team: 'player' }, { player: 'b', role: 'player', team: 'player' }],
    returns: [1, -1], outcome: 'player0', code: 'ok', length: 3, faults: [], summary: null, startedAt: 1, endedAt: 2,
  };
}
/** Text that does not compress much (event logs are stored deflated): 7 SHA-256 digests in base64. */
const noise = (seed: string) => Array.from({ length: 7 }, (_, k) => createHash('sha256').update(`${seed}/${k}`).digest('base64')).join('');
const ev = (matchId: string, seq: number): MatchEvent => ({ type: 'message', matchId, seq, time: 5, visibility: 'public', step: seq, seat: 0, text: noise(`${matchId}#${seq}`), data: {} });

/** A real arena database of a few hundred KB (matches with their events), closed, WAL folded in. */
function realDb(path: string): number {
  const s = new Store(path);
  s.ensureLeague('L', {});
  for (let i = 0; i < 40; i++) s.recordMatch(match(i), Array.from({ length: 30 }, (_, k) => ev(`L#${i}`, k)), [], []);
  s.db.pragma('wal_checkpoint(TRUNCATE)');
  s.close();
  const pages = statSync(path).size / 4096;
  expect(pages).toBeGreaterThan(50);
  return pages;
}

/** Writes 4 KB of garbage over page `n` (1-based) of the file. */
function smash(path: string, n: number): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (n - 1) * 4096);
  closeSync(fd);
}

describe('opening a bad file', () => {
  test('one damaged page (not one the open reads): named at open, for reading and for writing', () => {
    const path = join(dir(), 'a.db');
    const pages = realDb(path);
    smash(path, Math.floor(pages * 0.7));
    for (const readonly of [true, false]) {
      expect(() => new Store(path, { readonly })).toThrow(StoreError);
      expect(() => new Store(path, { readonly })).toThrow(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged \\(.+\\); restore it from a backup, or start afresh with another --db$`));
    }
  });

  test('a file above the whole-file bound opens (header and schema read); its damage is named by the query that reaches it', () => {
    const path = join(dir(), 'a.db');
    const pages = realDb(path);
    smash(path, Math.floor(pages * 0.7));
    expect(QUICK_CHECK_MAX_BYTES).toBe(64 * 1024 * 1024);
    const s = new Store(path, { readonly: true, quickCheckMaxBytes: 1024 });
    expect(s.matchCount('L')).toBe(40); // the matches table is intact
    let damaged = 0;
    for (let i = 0; i < 40; i++) {
      try {
        s.events(`L#${i}`);
      } catch (e) {
        // SQLite names a damaged page it reads; a page of a packed event log read as garbage fails to unpack
        if (e instanceof EventLogError) expect(e.message).toMatch(/^match L#\d+: its stored event log is damaged \(.+\)$/);
        else {
          expect(e).toBeInstanceOf(StoreError);
          expect((e as Error).message).toMatch(/a\.db is damaged \(database disk image is malformed\); restore it from a backup/);
        }
        damaged++;
      }
    }
    expect(damaged).toBeGreaterThan(0);
    s.close();
  });

  test('a truncated file, a file that is no database, a folder, an empty file, another program\'s database', () => {
    const d = dir();
    const cut = join(d, 'cut.db');
    realDb(cut);
    truncateSync(cut, 20_000);
    const text = join(d, 'text.db');
    writeFileSync(text, 'not a database at all\n'.repeat(300));
    const folder = join(d, 'folder.db');
    mkdirSync(folder);
    const empty = join(d, 'empty.db');
    writeFileSync(empty, '');
    const other = join(d, 'other.db');
    const o = new Database(other);
    o.exec('CREATE TABLE notes (t TEXT)');
    o.close();
    for (const readonly of [true, false]) {
      expect(() => new Store(cut, { readonly })).toThrow(/cut\.db is damaged \(database disk image is malformed\); restore it from a backup/);
      expect(() => new Store(text, { readonly })).toThrow(/text\.db is not an arena database \(file is not a database\); give another --db, or move the file away/);
      expect(() => new Store(folder, { readonly })).toThrow(/folder\.db is a folder, not a database file; give the path of a file/);
      expect(() => new Store(other, { readonly })).toThrow(/other\.db is an SQLite database of another program \(tables, but no arena schema\); give another --db/);
    }
    expect(() => new Store(empty, { readonly: true })).toThrow(/empty\.db holds no arena data \(an empty database\); run a league or tournament into it first/);
    new Store(empty).close(); // for writing, an empty file is a new database
    expect(() => new Store(join(d, 'missing.db'), { readonly: true })).toThrow(/missing\.db does not exist; run a league or tournament into it first, or give another --db/);
    expect(() => new Store(join(d, 'no', 'such', 'folder.db'))).toThrow(/folder\.db: its folder does not exist/);
  });

  (asRoot ? test.skip : test)('an unreadable file (chmod 000; as root this runs in test/cli/data-errors.test.ts as nobody)', () => {
    const path = join(dir(), 'locked.db');
    realDb(path);
    chmodSync(path, 0o000);
    for (const readonly of [true, false]) expect(() => new Store(path, { readonly })).toThrow(/locked\.db cannot be read \(permission denied\); give this user read access to it, or another --db/);
    chmodSync(path, 0o644);
  });
});

describe('every method translates', () => {
  test('a data error from any method is a StoreError naming the file; other errors pass unchanged', () => {
    const path = join(dir(), 'a.db');
    const s = new Store(path);
    s.ensureLeague('L', {});
    s.recordMatch(match(0), [ev('L#0', 0)], [], []);
    // a constraint (a match recorded twice) is not a data error: it passes as SQLite reports it
    let dup: unknown;
    try {
      s.recordMatch(match(0), [ev('L#0', 0)], [], []);
    } catch (e) {
      dup = e;
    }
    expect(dup).not.toBeInstanceOf(StoreError);
    expect((dup as { code?: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
    // a stored record that is not JSON (damage SQLite cannot see)
    s.db.prepare("UPDATE matches SET seats = '{oops' WHERE id = 'L#0'").run();
    expect(() => s.matches('L')).toThrow(/a\.db is damaged \(a stored record is not valid JSON: .+\); restore it from a backup/);
    // a lock held by another connection, past the busy timeout
    s.db.pragma('busy_timeout = 0');
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    expect(() => s.ensureLeague('M', {})).toThrow(/a\.db is locked by another process \(database is locked\); wait for it to finish, or give another --db/);
    other.exec('ROLLBACK');
    other.close();
    s.close();
  });
});

describe('storeProblem: the one translation', () => {
  const err = (code: string, message = 'boom') => Object.assign(new Error(message), { code });
  test('SQLite codes and their extended forms', () => {
    const p = '/x/arena.db';
    expect(storeProblem(p, err('SQLITE_CORRUPT'))).toBe(`${p} is damaged (boom); restore it from a backup, or start afresh with another --db`);
    expect(storeProblem(p, err('SQLITE_CORRUPT_INDEX'))).toMatch(/is damaged/);
    expect(storeProblem(p, err('SQLITE_NOTADB'))).toBe(`${p} is not an arena database (boom); give another --db, or move the file away`);
    expect(storeProblem(p, err('SQLITE_IOERR_SHORT_READ'))).toBe(`${p} cannot be read or written (boom, SQLITE_IOERR_SHORT_READ): the file may be truncated or its disk failing; restore it from a backup, or start afresh with another --db`);
    expect(storeProblem(p, err('SQLITE_READONLY_DBMOVED'))).toBe(`${p} is read-only (boom); make the file and its folder writable, or copy the database elsewhere`);
    expect(storeProblem(p, err('SQLITE_PERM'))).toMatch(/is read-only/);
    expect(storeProblem(p, err('SQLITE_CANTOPEN'))).toBe(`cannot open ${p} (boom); check that its folder exists and that this user may read and write there`);
    expect(storeProblem(p, err('SQLITE_CANTOPEN'), true)).toBe(`${p} does not exist; run a league or tournament into it first, or give another --db`);
    expect(storeProblem(p, err('SQLITE_BUSY_SNAPSHOT'))).toBe(`${p} is locked by another process (boom); wait for it to finish, or give another --db`);
    expect(storeProblem(p, err('SQLITE_LOCKED'))).toMatch(/is locked by another process/);
    expect(storeProblem(p, err('SQLITE_FULL'))).toBe(`${p} cannot grow: the disk is full (boom); free some space and run the command again`);
  });

  test('file-system codes, a record that is not JSON; anything else is not a data error', () => {
    const d = dir();
    expect(storeProblem(d, err('EISDIR'))).toBe(`${d} is a folder, not a database file; give the path of a file`);
    expect(storeProblem(d, err('SQLITE_IOERR_READ'))).toBe(`${d} is a folder, not a database file; give the path of a file`);
    expect(storeProblem(join(d, 'f.db'), err('EACCES'))).toMatch(/f\.db is read-only \(boom\)/); // missing: nothing to read, so it is about writing
    expect(storeProblem(join(d, 'f.db'), err('ENOENT'))).toMatch(/f\.db: its folder does not exist \(boom\); create it, or give another --db/);
    expect(storeProblem(join(d, 'f.db'), new SyntaxError('Unexpected token'))).toMatch(/f\.db is damaged \(a stored record is not valid JSON: Unexpected token\)/);
    expect(storeProblem(d, err('SQLITE_CONSTRAINT_PRIMARYKEY'))).toBeNull();
    expect(storeProblem(d, err('SQLITE_ERROR'))).toBeNull();
    expect(storeProblem(d, new TypeError('bug'))).toBeNull();
    expect(storeProblem(d, null)).toBeNull();
    expect(storeProblem(d, 'text')).toBeNull();
    const bug = new TypeError('bug');
    expect(translateStoreError(d, bug)).toBe(bug);
    const already = new StoreError('x');
    expect(translateStoreError(d, already)).toBe(already);
    expect(translateStoreError(d, err('SQLITE_FULL'))).toBeInstanceOf(StoreError);
  });
});
