/**
 * One-line errors of the scale-out commands (issue 14): Redis unreachable, a bad URL, a league
 * config without a pairing window, options that need --redis, bad worker options. No stack
 * traces, the bad option or file named, exit 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/store';
import { arenaAsync } from '../cli/helpers';
import { rpsLeague, asConfigFile } from '../league/scale/helpers';

/** A 127.0.0.1 port nothing listens on (taken, then released). */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function expectOneLine(r: { code: number; stderr: string }, re: RegExp): void {
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^arena: /);
  expect(lines[0]).toMatch(re);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('scale-out command errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-scale-cli-'));
  const windowed = join(dir, 'windowed.json');
  const serial = join(dir, 'serial.json');
  writeFileSync(windowed, asConfigFile(rpsLeague('e', 4, { window: 2 })));
  writeFileSync(serial, asConfigFile(rpsLeague('e', 4)));
  let url: string;
  beforeAll(async () => {
    url = `redis://127.0.0.1:${await deadPort()}`;
  });

  test('Redis unreachable: league run, worker, league status and serve say where and what to do', async () => {
    new Store(join(dir, 'b.db')).close(); // serve opens an existing database only
    const runs = await Promise.all([
      arenaAsync(['league', 'run', '--config', windowed, '--db', join(dir, 'a.db'), '--redis', url, '--quiet']),
      arenaAsync(['worker', '--redis', url]),
      arenaAsync(['league', 'status', '--redis', url]),
      arenaAsync(['serve', '--db', join(dir, 'b.db'), '--port', '0', '--redis', url]),
    ]);
    for (const r of runs) expectOneLine(r, new RegExp(`cannot reach Redis at ${url.replace(/\./g, '\\.')} \\(ECONNREFUSED\\); start redis-server there or give another --redis URL`));
  });

  test('a bad --redis URL names the problem', async () => {
    expectOneLine(await arenaAsync(['worker', '--redis', 'localhost:6379']), /--redis: expected a redis:\/\/ or rediss:\/\/ URL, got localhost:\/\//);
    expectOneLine(await arenaAsync(['league', 'status', '--redis', 'redis://127.0.0.1:6379/x']), /--redis: database "x" is not a number/);
    expectOneLine(await arenaAsync(['worker', '--redis', 'not a url']), /--redis: "not a url" is not a URL/);
  });

  test('league run --redis needs a pairing window; --in-flight, --attempts and --batch need --redis', async () => {
    expectOneLine(await arenaAsync(['league', 'run', '--config', serial, '--db', join(dir, 'c.db'), '--redis', url]), /--redis: league config .*serial\.json has no "window"/);
    expectOneLine(await arenaAsync(['league', 'run', '--config', windowed, '--db', join(dir, 'd.db'), '--in-flight', '3']), /--in-flight, --attempts and --batch need --redis/);
    expectOneLine(await arenaAsync(['league', 'run', '--config', windowed, '--db', join(dir, 'd.db'), '--batch', '4']), /--in-flight, --attempts and --batch need --redis/);
    expectOneLine(await arenaAsync(['league', 'run', '--config', windowed, '--db', join(dir, 'd.db'), '--redis', url, '--batch', '0']), /--batch: expected at least 1/);
    expectOneLine(await arenaAsync(['league', 'run', '--config', windowed, '--db', join(dir, 'd.db'), '--redis', url, '--in-flight', '0']), /--in-flight: expected at least 1/);
  });

  test('worker options are checked before connecting', async () => {
    expectOneLine(await arenaAsync(['worker', '--redis', url, '--concurrency', '0']), /--concurrency: expected at least 1/);
    expectOneLine(await arenaAsync(['worker', '--redis', url, '--lock-ms', '500']), /--lock-ms: expected at least 1000/);
    expectOneLine(await arenaAsync(['worker', '--redis', url, '--attempts', '0']), /--attempts: expected at least 1/);
  });
});
