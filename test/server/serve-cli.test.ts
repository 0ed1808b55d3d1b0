import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Store } from '../../src/store/store';
import { arena, ROOT } from '../cli/helpers';
import { MIGRATIONS } from '../../src/store/schema';

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
      store: { ok: true, file: 'a.db', schemaVersion: MIGRATIONS.length, readonly: false, leagues: 0, matches: 0 },
    });
    expect(((await (await fetch(`${url}api/leagues`)).json()) as { leagues: unknown[] }).leagues).toEqual([]);
    expect(await (await fetch(url)).text()).toMatch(/selfplay-arena/);
    const code = await new Promise<number | null>((ok) => {
      child.once('exit', (c) => ok(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });

  test('--allow-play: visitors may start games from the lobby (and the note says with which limits)', async () => {
    new Store(join(dir, 'p.db')).close(); // serve opens an existing database only
    const child = spawn(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), 'serve', '--db', join(dir, 'p.db'), '--port', '0', '--allow-play', '--play-limit', '3', '--play-idle', '45'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL printed; stderr: ${err}`)), 60_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /serving .* at (http:\/\/\S+)\n.*games at once.*\n/.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
    });
    expect(out).toContain('visitors may play from the lobby: at most 3 games at once, 45 s per decision');
    const options = (await (await fetch(`${url}api/play`)).json()) as { maxMatches: number; idleMs: number };
    expect(options).toMatchObject({ maxMatches: 3, idleMs: 45_000 });
    const started = await fetch(`${url}api/play`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ env: 'deal-or-no-deal' }) });
    expect(started.status).toBe(201);
    const code = await new Promise<number | null>((ok) => {
      child.once('exit', (c) => ok(c));
      child.kill('SIGTERM'); // the game still waits for its visitor: closing aborts it
    });
    expect(code).toBe(0);
  });

  test('--allow-play without a database: a play-only server that says so, creates no file, and plays', async () => {
    const db = join(dir, 'none', 'arena.db');
    const child = spawn(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), 'serve', '--db', db, '--port', '0', '--allow-play'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL printed; stdout: ${out} stderr: ${err}`)), 60_000);
      void exited.then((c) => fail(new Error(`exited ${c}: ${err}`)));
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^arena: serving a play-only page at (http:\/\/\S+) \(no database at (\S+): .*no stored matches, leagues or tournaments\)\n.*games at once.*\n/.exec(out);
        if (m) {
          clearTimeout(timer);
          expect(m[2]).toBe(db);
          ok(m[1]);
        }
      });
    });
    expect(((await (await fetch(`${url}api/health`)).json()) as { store: unknown }).store).toBeNull();
    expect(((await (await fetch(`${url}api/leagues`)).json()) as { leagues: unknown[] }).leagues).toEqual([]);
    const started = await fetch(`${url}api/play`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ env: 'deal-or-no-deal' }) });
    expect(started.status).toBe(201);
    const { matchId } = (await started.json()) as { matchId: string };
    expect(((await (await fetch(`${url}api/matches/live`)).json()) as { matches: { id: string }[] }).matches.map((m) => m.id)).toContain(matchId);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });

  test('without --allow-play a missing database is refused, pointing at --allow-play', () => {
    const r = arena(['serve', '--db', join(dir, 'nothing.db'), '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^arena: --db: \S+nothing\.db does not exist \(.*or add --allow-play for a play-only server\)$/);
  });

  test('play options without --allow-play, or out of range, are one-line usage errors', async () => {
    for (const [args, message] of [
      [['--play-limit', '2'], /^arena: --play-limit: only with --allow-play$/m],
      [['--play-idle', '9'], /^arena: --play-idle: only with --allow-play$/m],
      [['--allow-play', '--play-limit', '0'], /--play-limit: expected at least 1 game at once, got 0/],
      [['--allow-play', '--play-idle', '0'], /--play-idle: expected at least 1 second, got 0/],
      [['--allow-play', '--play-limit', 'many'], /--play-limit: expected a non-negative integer/],
    ] as const) {
      const r = arena(['serve', '--db', join(dir, 'c.db'), '--port', '0', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  test('arena demo --allow-play offers games next to its leagues; its play options are checked the same way', async () => {
    const bad = arena(['demo', '--db', join(dir, 'd.db'), '--port', '0', '--play-idle', '5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^arena: --play-idle: only with --allow-play$/m);
    const child = spawn(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), 'demo', '--db', join(dir, 'd.db'), '--port', '0', '--no-learners', '--allow-play', '--play-limit', '1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL printed; stderr: ${err}`)), 60_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /watch live at (http:\/\/\S+)\n[^]*at once.*\n/.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
    });
    expect(out).toContain('at most 1 game at once, 120 s per decision');
    const first = await fetch(`${url}api/play`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ env: 'werewolf', seat: 2 }) });
    expect(first.status).toBe(201);
    const second = await fetch(`${url}api/play`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ env: 'countdown' }) });
    expect(second.status).toBe(429);
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
