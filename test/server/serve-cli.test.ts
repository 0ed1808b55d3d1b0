import { MIGRATIONS } from '../../src/store/schema';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Store } from '../../src/store/store';
import { arena, ROOT } from '../cli/helpers';

describe('arena serve', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'arena-serve-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('serves the page and the API over a store, prints its URL, stops cleanly on SIGTERM', async () => {
    new Store(join(dir, 'a.db')).close(); // serve reads an existing database (a missing one is refused: newcomer-cli.test.ts)
    const child = spawn(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), 'serve', '--db', join(dir, 'a.db'), '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL printed; stderr: ${err}`)), 60_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /serving .* at (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(`${url}api/health`)).json()).toEqual({
      ok: true,
      live: 0,
      stream: { matchesStarted: 0, matchesEnded: 0, decisions: 0, faults: 0, outcomes: {} },
      store: { ok: true, file: join(dir, 'a.db'), schemaVersion: MIGRATIONS.length, readonly: false, leagues: 0, matches: 0 },
    });
    expect(((await (await fetch(`${url}api/leagues`)).json()) as { leagues: unknown[] }).leagues).toEqual([]);
    expect(await (await fetch(url)).text()).toMatch(/selfplay-arena/);
    const code = await new Promise<number | null>((ok) => {
      child.once('exit', (c) => ok(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });

  test('a bad port is a usage error', () => {
    const r = arena(['serve', '--db', join(dir, 'b.db'), '--port', '70000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--port: expected 0-65535/);
  });
});
