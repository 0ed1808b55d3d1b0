/**
 * One process at a time per league: `league run` holds a lock file next to the database
 * (`<db>.<league>.lock`, holding the owner's pid and host) while it plays. A second run of the
 * same league is refused with a message naming the owner; a lock left by a process that no
 * longer exists (kill -9, a crash) is taken over.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Another process (or another run in this one) is playing the league. */
export class LeagueLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeagueLockedError';
  }
}

interface LockInfo {
  pid: number;
  host: string;
  since: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
    return Number.isInteger(info.pid) ? info : null;
  } catch {
    return null;
  }
}

/** The lock file of `league` in the database at `dbPath`. */
export function lockFile(dbPath: string, league: string): string {
  return `${dbPath}.${league}.lock`;
}

/**
 * Takes the league's lock; returns the function that releases it. Throws a
 * {@link LeagueLockedError} when a live process holds it. In-memory databases need none.
 */
export function lockLeague(dbPath: string, league: string): () => void {
  if (dbPath === ':memory:' || dbPath === '') return () => {};
  const file = lockFile(dbPath, league);
  const mine: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
    }
    const owner = readLock(file);
    if (owner && (owner.host !== mine.host || alive(owner.pid))) {
      const who = owner.pid === process.pid && owner.host === mine.host ? 'this process (another run of it)' : `another process (pid ${owner.pid} on ${owner.host}, since ${owner.since})`;
      throw new LeagueLockedError(`league "${league}" in ${dbPath} is being run by ${who}; wait for it to finish or stop it, then rerun to resume (its lock: ${file})`);
    }
    unlinkSync(file); // left by a process that is gone
  }
  return () => {
    if (readLock(file)?.pid === process.pid) unlinkSync(file);
  };
}
