/**
 * Redis connections of the scale-out processes (league scheduler, workers, spectator servers):
 * URL parsing with one-line errors, a reachability check before anything starts, and
 * connections that survive Redis going away (reconnect with exponential back-off, commands wait
 * for the connection instead of failing, one line when the connection is lost and one when it
 * is back).
 */
import Redis from 'ioredis';

/** A `--redis` URL that cannot be used. */
export class RedisUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisUrlError';
  }
}

/** Redis did not answer (not running, wrong host or port, refused the password). */
export class RedisUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisUnreachableError';
  }
}

/** Connection settings parsed from a `redis://[user:password@]host[:port][/db]` (or `rediss://`) URL. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL without its password, for messages. */
  shown: string;
}

/** Parses a Redis URL; throws a RedisUrlError naming the problem. */
export function parseRedisUrl(url: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RedisUrlError(`--redis: "${url.slice(0, 80)}" is not a URL; expected redis://HOST:PORT (e.g. redis://127.0.0.1:6379)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new RedisUrlError(`--redis: expected a redis:// or rediss:// URL, got ${u.protocol}//`);
  if (!u.hostname) throw new RedisUrlError('--redis: the URL names no host (redis://HOST:PORT)');
  const port = u.port ? Number(u.port) : 6379;
  const dbText = u.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new RedisUrlError(`--redis: database "${dbText.slice(0, 20)}" is not a number (redis://HOST:PORT/DB)`);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    tls: u.protocol === 'rediss:',
    shown: `${u.protocol}//${u.hostname}:${port}${db ? `/${db}` : ''}`,
  };
}

/** Reconnection delay after `attempt` failed attempts: 100 ms doubling to 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(100 * 2 ** Math.max(0, attempt - 1), 5000);
}

/** ioredis connection options (what both ioredis and BullMQ take). */
export interface ConnectionSettings {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  connectionName?: string;
  maxRetriesPerRequest: null;
  retryStrategy: (times: number) => number;
}

/**
 * ioredis options for a long-lived connection (also given to BullMQ): reconnects forever with
 * {@link backoffMs}, and commands wait while it is down (`maxRetriesPerRequest: null`, as
 * BullMQ requires) instead of failing.
 */
export function redisOptions(target: RedisTarget, name?: string): ConnectionSettings {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
    ...(name ? { connectionName: name } : {}),
    maxRetriesPerRequest: null,
    retryStrategy: backoffMs,
  };
}

/**
 * A connection with {@link redisOptions} that reports its state: `log` gets one line when the
 * connection is lost and one when it is back (errors while reconnecting are not thrown).
 */
export function connectRedis(target: RedisTarget, o: { name?: string; log?: (line: string) => void } = {}): Redis {
  const client = new Redis(redisOptions(target, o.name));
  let lost = false;
  let ready = false;
  client.on('error', () => {}); // ioredis keeps reconnecting; the lines below say so once
  client.on('reconnecting', () => {
    if (ready && !lost) {
      lost = true;
      o.log?.(`redis ${target.shown}: connection lost; reconnecting (back-off up to 5 s)`);
    }
  });
  client.on('ready', () => {
    if (lost) o.log?.(`redis ${target.shown}: reconnected`);
    lost = false;
    ready = true;
  });
  return client;
}

/**
 * Checks that Redis answers at `target` within `timeoutMs` (one attempt, no retries). Throws a
 * RedisUnreachableError with one line saying where and why, and what to do.
 */
export async function checkRedis(target: RedisTarget, timeoutMs = 5000): Promise<void> {
  const client = new Redis({
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let why = '';
  client.on('error', (e: Error) => (why ||= (e as NodeJS.ErrnoException).code ?? e.message));
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    const reason = why || (e as NodeJS.ErrnoException).code || (e as Error).message;
    throw new RedisUnreachableError(`cannot reach Redis at ${target.shown} (${reason}); start redis-server there or give another --redis URL`);
  } finally {
    client.disconnect();
  }
}
