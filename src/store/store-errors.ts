/**
 * Data errors a user can act on: every way the database file can fail (damaged, not a database,
 * a folder, unreadable, read-only, locked, on a failing or full disk) becomes one line naming the
 * file and what to do — {@link StoreError}, which the CLI prints as `arena: <line>` with exit 2
 * and the server answers with 503. {@link storeProblem} is the one translation, used when the
 * file is opened and around every query of the store.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';

/** The database file cannot be used (not a database, damaged, read-only, missing); the message names the file and what to do. */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreError';
  }
}

const RESTORE = 'restore it from a backup, or start afresh with another --db';

/** Why a file exists but cannot be read by this process, or null. */
function unreadable(path: string): string | null {
  try {
    if (statSync(path).isDirectory()) return `${path} is a folder, not a database file; give the path of a file`;
    accessSync(path, constants.R_OK);
    return null;
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === 'EACCES' || code === 'EPERM' ? `${path} cannot be read (permission denied); give this user read access to it, or another --db` : null;
  }
}

/**
 * One line naming `path` and what to do about error `e`, when `e` says the database file cannot
 * be used (SQLite's CORRUPT, NOTADB, IOERR, READONLY, CANTOPEN, BUSY, LOCKED, FULL, PERM, their
 * extended codes, a file's JSON that does not parse, or the file system's EACCES, EPERM, EISDIR,
 * ENOENT); null for any other error (a constraint, a bug), which the caller rethrows as it is.
 * `readonly`: the file was opened for reading (a missing file is then named as missing).
 */
export function storeProblem(path: string, e: unknown, readonly = false): string | null {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  // Not `instanceof Error`: better-sqlite3 hands its native addon one SqliteError constructor per
  // process, so under a test runner with a realm per file its errors may come from another realm.
  const message = (e as { message?: unknown } | null)?.message;
  const msg = typeof message === 'string' ? message : String(e);
  const base = code.replace(/^(SQLITE_[A-Z]+?)(_[A-Z_]+)?$/, '$1');
  switch (base) {
    case 'SQLITE_CORRUPT':
      return `${path} is damaged (${msg}); ${RESTORE}`;
    case 'SQLITE_NOTADB':
      return `${path} is not an arena database (${msg}); give another --db, or move the file away`;
    case 'SQLITE_IOERR':
      return unreadable(path) ?? `${path} cannot be read or written (${msg}, ${code}): the file may be truncated or its disk failing; ${RESTORE}`;
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      return `${path} is read-only (${msg}); make the file and its folder writable, or copy the database elsewhere`;
    case 'SQLITE_CANTOPEN':
      if (readonly && !existsSync(path)) return `${path} does not exist; run a league or tournament into it first, or give another --db`;
      return unreadable(path) ?? `cannot open ${path} (${msg}); check that its folder exists and that this user may read and write there`;
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return `${path} is locked by another process (${msg}); wait for it to finish, or give another --db`;
    case 'SQLITE_FULL':
      return `${path} cannot grow: the disk is full (${msg}); free some space and run the command again`;
    default:
      break;
  }
  if (e instanceof SyntaxError) return `${path} is damaged (a stored record is not valid JSON: ${msg}); ${RESTORE}`;
  if (code === 'EISDIR') return `${path} is a folder, not a database file; give the path of a file`;
  if (code === 'EACCES' || code === 'EPERM') return unreadable(path) ?? `${path} is read-only (${msg}); make the file and its folder writable, or copy the database elsewhere`;
  if (code === 'ENOENT') return `${path}: its folder does not exist (${msg}); create it, or give another --db`;
  return null;
}

/** `e` as a {@link StoreError} when it is a data error of `path` (see {@link storeProblem}); else `e` itself. */
export function translateStoreError(path: string, e: unknown, readonly = false): unknown {
  if (e instanceof StoreError) return e;
  const problem = storeProblem(path, e, readonly);
  return problem === null ? e : new StoreError(problem);
}

/**
 * Wraps every method of `proto` (a class's prototype) so that a data error it throws becomes a
 * {@link StoreError} naming the database `dbOf(this)` works on; other errors pass unchanged.
 */
export function translateErrorsOf<T extends object>(proto: T, dbOf: (self: T) => { name: string; readonly: boolean }): void {
  for (const name of Object.getOwnPropertyNames(proto)) {
    const desc = Object.getOwnPropertyDescriptor(proto, name)!;
    if (name === 'constructor' || typeof desc.value !== 'function') continue;
    const method = desc.value as (this: T, ...args: unknown[]) => unknown;
    Object.defineProperty(proto, name, {
      ...desc,
      value: function (this: T, ...args: unknown[]): unknown {
        try {
          return method.apply(this, args);
        } catch (e) {
          const db = dbOf(this);
          throw translateStoreError(db.name, e, db.readonly);
        }
      },
    });
  }
}
