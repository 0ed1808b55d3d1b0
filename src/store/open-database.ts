/**
 * Opening the arena's SQLite file: write access checked first (better-sqlite3 opens a read-only
 * file without complaint and fails at the first write), the file checked (see
 * {@link QUICK_CHECK_MAX_BYTES}), then migrated. Every failure is one {@link StoreError} line.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './schema';
import { StoreError, translateStoreError } from './store-errors';

/**
 * Files up to this size are read whole when opened (`PRAGMA quick_check`: every page, so a
 * damaged one is named before a command uses the file; 0.8 s for 67 MB at load 19 on 2 cores);
 * larger ones get their header and schema read, and damage elsewhere is named when a query
 * reaches it.
 */
export const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;

/** Size of the database's write-ahead log, 0 when there is none. */
function walSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * The open-time check: the schema is read (a damaged first page or a file that is no database
 * fails here), an SQLite file of another program is refused (its tables would get ours), an empty
 * one opened for reading is named as such, and a file up to `quickCheckMaxBytes` is read whole.
 */
function check(db: Database.Database, path: string, version: number, quickCheckMaxBytes: number): void {
  const tables = (db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
  if (version === 0 && tables > 0) throw new StoreError(`${path} is an SQLite database of another program (tables, but no arena schema); give another --db`);
  if (version === 0 && db.readonly) throw new StoreError(`${path} holds no arena data (an empty database); run a league or tournament into it first, or give another --db`);
  if (path === ':memory:' || statSync(path).size + walSize(path) > quickCheckMaxBytes) return;
  const result = db.pragma('quick_check(1)', { simple: true });
  if (result === 'ok') return;
  const first = String(result).replace(/^\*\*\* in database \w+ \*\*\*\s*/, '').split('\n')[0]; // "Page 61: btreeInitPage() returns error code 11"
  throw new StoreError(`${path} is damaged (${first}); restore it from a backup, or start afresh with another --db`);
}

/**
 * Opens, checks and migrates (unless `readonly`) the database at `path`; a StoreError names what
 * is wrong. Files up to `quickCheckMaxBytes` are read whole.
 */
export function openDatabase(path: string, readonly: boolean, quickCheckMaxBytes = QUICK_CHECK_MAX_BYTES): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (!readonly && path !== ':memory:') {
      const target = existsSync(path) ? path : dirname(resolve(path));
      accessSync(target, constants.W_OK);
      if (existsSync(path)) accessSync(dirname(resolve(path)), constants.W_OK); // the -wal and -shm files
    }
    db = new Database(path, readonly ? { readonly: true, fileMustExist: true } : {});
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    check(db, path, version, quickCheckMaxBytes);
    if (readonly) {
      if (version !== MIGRATIONS.length) throw new StoreError(`${path} has an older schema (version ${version}); open it once with write access to upgrade it`);
      return db;
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    for (let v = version; v < MIGRATIONS.length; v++) {
      db.transaction(() => {
        db!.exec(MIGRATIONS[v]);
        db!.pragma(`user_version = ${v + 1}`);
      })();
    }
    return db;
  } catch (e) {
    db?.close();
    throw translateStoreError(path, e, readonly);
  }
}
