/**
 * Per-seat tokens of remote and human seats. A token is 32 random bytes (base64url), handed to
 * whoever fills the seat and never stored or logged: the server keeps its SHA-256 and compares
 * digests in constant time (`timingSafeEqual`), so neither a log line nor response timing gives
 * it away.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The digest kept in place of a token. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Constant-time check of a presented token against a stored digest. */
export function tokenMatches(presented: unknown, digest: Buffer): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 256) return false;
  return timingSafeEqual(tokenDigest(presented), digest);
}

/** Finds the entry whose digest matches (checks every entry, so the time does not depend on which). */
export function findByToken<T extends { digest: Buffer }>(entries: Iterable<T>, presented: unknown): T | null {
  let hit: T | null = null;
  for (const e of entries) if (tokenMatches(presented, e.digest) && !hit) hit = e;
  return hit;
}
