/**
 * Data errors a user can act on (issue 23): every way the database file can fail becomes one
 * StoreError line naming the file and what to do — when it is opened (the header and schema
 * always, every page when it is small enough) and from any method of the store later.
 */
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { MatchEvent } from '../../src/core/events';
import { EventLogError, QUICK_CHECK_MAX_BYTES, Store, StoreError, type MatchRecord } from '../../src/store/store';
import { storeProblem, translateErrorsOf, translateStoreError } from '../../src/store/store-errors';

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

  test('the damage named is the first line of SQLite\'s report, without its heading', () => {
    const path = join(dir(), 'a.db');
    const pages = realDb(path);
    smash(path, Math.floor(pages * 0.7));
    // SQLite reports "*** in database main ***\nTree 24 page 75 cell 0: invalid page number ..."
    expect(() => new Store(path, { readonly: true })).toThrow(/a\.db is damaged \((Tree \d+ )?page \d+[^*\n]*\); restore/i);
  });

  test('the whole-file bound: a file of exactly the bound is read whole; its write-ahead log counts toward the size', () => {
    const d = dir();
    const path = join(d, 'a.db');
    const pages = realDb(path);
    // a copy taken while a writer holds the database open: its last writes are in the -wal file beside it
    const w = new Store(path);
    w.recordMatch(match(40), [ev('L#40', 0)], [], []);
    const copy = join(d, 'copy.db');
    copyFileSync(path, copy);
    copyFileSync(`${path}-wal`, `${copy}-wal`);
    w.close();
    smash(copy, Math.floor(pages * 0.7));
    const size = statSync(copy).size;
    const wal = statSync(`${copy}-wal`).size;
    expect(wal).toBeGreaterThan(0);
    // opened for reading (closing a writer would fold the log into the file)
    expect(() => new Store(copy, { readonly: true, quickCheckMaxBytes: size + wal })).toThrow(/copy\.db is damaged/);
    new Store(copy, { readonly: true, quickCheckMaxBytes: size + wal - 1 }).close(); // above the bound: header and schema only
    new Store(copy, { readonly: true, quickCheckMaxBytes: size }).close(); // the file alone is at the bound, with its log above it
    expect(statSync(`${copy}-wal`).size).toBe(wal);
    // a database in rollback-journal mode has no log beside it: its size alone counts
    const rollback = join(d, 'rollback.db');
    copyFileSync(path, rollback);
    const r = new Database(rollback);
    r.pragma('journal_mode = DELETE');
    r.close();
    smash(rollback, Math.floor(pages * 0.7));
    const alone = statSync(rollback).size;
    new Store(rollback, { readonly: true, quickCheckMaxBytes: alone - 1 }).close();
    expect(() => new Store(rollback, { readonly: true, quickCheckMaxBytes: alone })).toThrow(/rollback\.db is damaged/);
    expect(existsSync(`${rollback}-wal`)).toBe(false);
  });

  test('an in-memory database is created and migrated (no file to check)', () => {
    const s = new Store(':memory:');
    s.ensureLeague('L', {});
    expect(s.matchCount('L')).toBe(0);
    expect(s.constructor).toBe(Store);
    s.close();
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

describe('permissions (simulated: the tests may run as root, who may read and write every file)', () => {
  const fs = require('node:fs') as typeof import('node:fs');
  /** Makes `accessSync` refuse (with `code`) the checks `refused(path, mode)` names. */
  const deny = (code: string, refused: (path: string, mode: number | undefined) => boolean) =>
    jest.spyOn(fs, 'accessSync').mockImplementation((p, mode) => {
      if (refused(String(p), mode)) throw Object.assign(new Error(`${code}: operation not permitted, access '${String(p)}'`), { code });
    });
  afterEach(() => jest.restoreAllMocks());
  const err = (code: string) => Object.assign(new Error('boom'), { code });

  test('a file or a folder this user may not write: read-only, named before SQLite opens the file; reading needs no write access', () => {
    const d = dir();
    const path = join(d, 'a.db');
    new Store(path).close();
    deny('EACCES', (p, mode) => p === path && mode === fs.constants.W_OK);
    expect(() => new Store(path)).toThrow(/a\.db is read-only \(EACCES: .+\); make the file and its folder writable, or copy the database elsewhere/);
    new Store(path, { readonly: true }).close();
    jest.restoreAllMocks();
    // the folder (SQLite writes the -wal and -shm files beside the database)
    deny('EPERM', (p, mode) => p === d && mode === fs.constants.W_OK);
    expect(() => new Store(path)).toThrow(/a\.db is read-only \(EPERM: .+\)/);
    expect(() => new Store(join(d, 'new.db'))).toThrow(/new\.db is read-only \(EPERM: .+\)/);
    new Store(path, { readonly: true }).close();
  });

  test('an in-memory database checks no access (there is no file, and the working folder is not its folder)', () => {
    deny('EACCES', () => true);
    const s = new Store(':memory:');
    s.ensureLeague('L', {});
    s.close();
  });

  test('a file this user may not read: permission denied (EACCES or EPERM), whichever error SQLite gave', () => {
    const path = join(dir(), 'a.db');
    new Store(path).close();
    for (const code of ['EACCES', 'EPERM']) {
      deny(code, (p, mode) => p === path && mode === fs.constants.R_OK);
      const denied = `${path} cannot be read (permission denied); give this user read access to it, or another --db`;
      expect(storeProblem(path, err('SQLITE_CANTOPEN'))).toBe(denied);
      expect(storeProblem(path, err('SQLITE_IOERR_READ'))).toBe(denied);
      expect(storeProblem(path, err(code))).toBe(denied);
      jest.restoreAllMocks();
    }
    // a file that does not exist cannot be unreadable: EPERM (as EACCES) is then about writing
    expect(storeProblem(join(dir(), 'f.db'), err('EPERM'))).toMatch(/f\.db is read-only \(boom\)/);
    // another failure of the access check is no verdict: SQLite's own error is named
    deny('ELOOP', (p) => p === path);
    expect(storeProblem(path, err('SQLITE_CANTOPEN'))).toBe(`cannot open ${path} (boom); check that its folder exists and that this user may read and write there`);
  });
});

describe('translateErrorsOf', () => {
  const err = (code: string) => Object.assign(new Error('boom'), { code });
  class Fake {
    constructor(
      readonly db: { name: string; readonly: boolean },
      readonly failure: unknown,
    ) {}
    get kind(): string {
      return 'fake';
    }
    add(a: number, b: number): number {
      if (this.failure) throw this.failure;
      return a + b;
    }
  }
  let wrapped = false;
  /** Wraps Fake once, inside a test (a wrapping that throws fails that test, not the file's collection). */
  const wrap = () => {
    if (!wrapped) translateErrorsOf(Fake.prototype, (f) => f.db);
    wrapped = true;
  };

  test('wraps the methods (not the constructor, not accessors): arguments and result pass; a data error names the database of that instance, opened for reading or not', () => {
    wrap();
    const ok = new Fake({ name: '/x/a.db', readonly: false }, null);
    expect(ok.add(2, 3)).toBe(5);
    expect(ok.kind).toBe('fake');
    expect(ok.constructor).toBe(Fake);
    expect(() => new Fake({ name: '/x/r.db', readonly: true }, err('SQLITE_CANTOPEN')).add(1, 1)).toThrow(new StoreError('/x/r.db does not exist; run a league or tournament into it first, or give another --db'));
    expect(() => new Fake({ name: '/x/w.db', readonly: false }, err('SQLITE_CANTOPEN')).add(1, 1)).toThrow(/^cannot open \/x\/w\.db \(boom\)/);
    const bug = new TypeError('bug');
    let thrown: unknown;
    try {
      new Fake({ name: '/x/a.db', readonly: false }, bug).add(1, 1);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBe(bug);
  });

  test('translateStoreError: a file opened for writing unless told (a missing file is then not named as missing)', () => {
    expect((translateStoreError('/x/a.db', err('SQLITE_CANTOPEN')) as Error).message).toBe('cannot open /x/a.db (boom); check that its folder exists and that this user may read and write there');
    expect((translateStoreError('/x/a.db', err('SQLITE_CANTOPEN'), true) as Error).message).toMatch(/^\/x\/a\.db does not exist;/);
  });

  test('a StoreError is named so; an error without a text message is named by its text', () => {
    expect(new StoreError('x').name).toBe('StoreError');
    expect(storeProblem('/x/a.db', { code: 'SQLITE_FULL', toString: () => 'full!' })).toBe('/x/a.db cannot grow: the disk is full (full!); free some space and run the command again');
  });
});
