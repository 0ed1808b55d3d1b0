/**
 * A throwaway redis-server for tests: started on 127.0.0.1 on a free port in a temp folder (no
 * persistence), ready when it says so on stdout (no sleeps). Tests that need one use
 * `describeRedis`, which skips them with one clear line when redis-server is not installed
 * (`.ci/run` installs it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The redis-server binary, or null when it is not installed. */
export const REDIS_SERVER: string | null = (() => {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? 'redis-server' : null;
})();

/** `describe` when redis-server is installed, else `describe.skip` with a line saying why. */
export const describeRedis: jest.Describe = REDIS_SERVER
  ? describe
  : ((name: string, fn: jest.EmptyFunction) => {
      // eslint-disable-next-line no-console
      console.warn(`skipped "${name}": redis-server is not installed (apt-get install redis-server; .ci/run installs it)`);
      describe.skip(name, fn);
    }) as jest.Describe;

/** A running redis-server. */
export interface TestRedis {
  port: number;
  url: string;
  process: ChildProcess;
  /** Stops it (SIGKILL) and resolves when it has exited. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function startOn(port: number): Promise<TestRedis | null> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-redis-'));
  const child = spawn(REDIS_SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/Ready to accept connections/.test(out)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ port, url: `redis://127.0.0.1:${port}`, process: child, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.resume();
    child.once('error', reject);
    child.once('exit', () => (/Address already in use/.test(out) ? resolve(null) : reject(new Error(`redis-server exited before it was ready: ${out.slice(-400)}`))));
  });
}

/**
 * Starts a redis-server on a free 127.0.0.1 port (tries another port if it was taken meanwhile),
 * or on `port` (a restart of a stopped one; no data survives).
 */
export async function startRedis(port?: number): Promise<TestRedis> {
  if (!REDIS_SERVER) throw new Error('redis-server is not installed');
  if (port !== undefined) {
    const r = await startOn(port);
    if (!r) throw new Error(`redis-server: port ${port} is taken`);
    return r;
  }
  for (let i = 0; i < 5; i++) {
    const r = await startOn(await freePort());
    if (r) return r;
  }
  throw new Error('redis-server: no free port after 5 tries');
}
