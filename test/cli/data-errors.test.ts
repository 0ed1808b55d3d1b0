/**
 * Data errors a user can act on (issue 23): a damaged or unreadable database gives one line that
 * names the file and what to do, exit 2, on every command that opens it — read-only ones
 * included. Each bad file below is made from a real league database: one page overwritten with
 * garbage (a page of match events, which no read-only command here reads: the check at open
 * finds it), the file truncated, a file that is no database, a folder, and a file this user may
 * not read. chmod 000 does not stop root: when the tests run as root the unreadable case runs
 * the command as `nobody` (uid 65534), which it does stop.
 *
 * The commands run in this process through `runCli` (what the bin's worker thread runs: the same
 * error printing), since starting the bin costs seconds each on a loaded machine; the bin itself
 * runs one command per kind, and every command of the unreadable case when it must run as nobody.
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arena, ROOT } from './helpers';
import { runCli } from '../../app/cli/main';

const asRoot = process.getuid?.() === 0;
const dir = mkdtempSync(join(tmpdir(), 'arena-data-errors-'));
chmodSync(dir, 0o755); // nobody must reach the files (and the config) when the tests run as root
const RPS = resolve(ROOT, 'examples', 'rock-paper-scissors.js');
const leagueCfg = join(dir, 'league.json');
const tournamentCfg = join(dir, 'tournament.json');
const good = join(dir, 'good.db');

/** Runs the bin (as nobody when `nobody`), without blocking: several at once. */
function run(args: string[], nobody = false): Promise<{ code: number; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0' },
      ...(nobody ? { uid: 65534, gid: 65534 } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stderr });
    });
  });
}

/** Every command that opens the database, with what it needs besides --db. */
const COMMANDS: [string, string[]][] = [
  ['league run', ['league', 'run', '--config', leagueCfg, '--quiet']],
  ['league table', ['league', 'table']],
  ['league matches', ['league', 'matches']],
  ['league export', ['league', 'export']],
  ['tournament run', ['tournament', 'run', '--config', tournamentCfg, '--quiet']],
  ['tournament show', ['tournament', 'show']],
  ['tournament list', ['tournament', 'list']],
  ['sprt', ['sprt', '--env', RPS, '--a', 'counter-last', '--b', 'random', '--elo0', '0', '--elo1', '50', '--max-games', '4']],
  ['serve', ['serve', '--port', '0']],
  ['demo', ['demo', '--port', '0', '--no-learners']],
];

beforeAll(() => {
  writeFileSync(leagueCfg, JSON.stringify({ name: 'rps', env: RPS, params: { rounds: 30 }, players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'counter-last' }], budget: { matches: 60 } }));
  writeFileSync(tournamentCfg, JSON.stringify({ name: 'rps-rr', format: 'round-robin', env: RPS, params: { rounds: 3 }, players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'counter-last' }], games: 2 }));
  const r = arena(['league', 'run', '--config', leagueCfg, '--db', good, '--quiet']);
  expect(r.code).toBe(0);
  expect(arena(['league', 'table', '--db', good]).code).toBe(0); // folds the write-ahead log in on close
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the good database, spoiled by `how`. */
function spoiled(name: string, how: (path: string) => void): string {
  const path = join(dir, `${name}.db`);
  copyFileSync(good, path);
  how(path);
  return path;
}

const quote = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Runs the command line in this process; its exit code and what it wrote on stderr. */
async function inProcess(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await runCli(['node', 'arena', ...args]), stderr };
  } finally {
    spy.mockRestore();
    out.mockRestore();
  }
}

/** Checks one line, naming what `expected` says, and exit code 2. */
function oneLine(name: string, r: { code: number; stderr: string }, expected: RegExp): void {
  const lines = r.stderr.trim().split('\n');
  expect([name, lines.length, r.code]).toEqual([name, 1, 2]);
  expect([name, lines[0]]).toEqual([name, expect.stringMatching(/^arena: /)]);
  expect([name, lines[0]]).toEqual([name, expect.stringMatching(expected)]);
}

/**
 * Runs every command on `db` and checks its one line and exit code 2: in this process, and
 * `league run` through the bin; with `nobody`, every command through the bin as nobody (4 at a time).
 */
async function everyCommand(db: string, expected: RegExp, nobody = false): Promise<void> {
  if (nobody) {
    const queue = [...COMMANDS];
    const results: [string, { code: number; stderr: string }][] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) results.push([c[0], await run([...c[1], '--db', db], true)]);
      }),
    );
    for (const [name, r] of results) oneLine(name, r, expected);
    expect(results).toHaveLength(COMMANDS.length);
    return;
  }
  for (const [name, args] of COMMANDS) oneLine(name, await inProcess([...args, '--db', db]), expected);
  oneLine('league run (bin)', await run([...COMMANDS[0][1], '--db', db]), expected);
}

test('one page of match events overwritten with garbage: every command names the damage', async () => {
  const pages = statSync(good).size / 4096;
  expect(pages).toBeGreaterThan(20);
  const db = spoiled('page', (p) => {
    const fd = openSync(p, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, Math.floor(pages * 0.8) * 4096);
    closeSync(fd);
  });
  await everyCommand(db, new RegExp(`${quote(db)} is damaged \\(.+\\); restore it from a backup, or start afresh with another --db$`));
}, 600_000);

test('a truncated file', async () => {
  const db = spoiled('cut', (p) => truncateSync(p, 8192));
  await everyCommand(db, new RegExp(`${quote(db)} is damaged \\(database disk image is malformed\\); restore it from a backup`));
}, 600_000);

test('a file that is no database', async () => {
  const db = spoiled('text', (p) => writeFileSync(p, 'league results, exported as text\n'.repeat(500)));
  await everyCommand(db, new RegExp(`${quote(db)} is not an arena database \\(file is not a database\\); give another --db, or move the file away`));
}, 600_000);

test('a folder', async () => {
  const db = join(dir, 'folder.db');
  mkdirSync(db);
  await everyCommand(db, new RegExp(`${quote(db)} is a folder, not a database file; give the path of a file`));
}, 600_000);

test(`a file this user may not read (chmod 000${asRoot ? '; as root, run as nobody' : ''})`, async () => {
  const db = spoiled('locked', (p) => chmodSync(p, 0o000));
  await everyCommand(db, new RegExp(`${quote(db)} cannot be read \\(permission denied\\); give this user read access to it, or another --db`), asRoot);
}, 600_000);
