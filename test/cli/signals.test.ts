/**
 * Issue 15 item 3: Ctrl-C and SIGTERM stop every command after the current match (leagues,
 * tournaments and SPRTs of synchronous matches yield to the event loop: one driver loop,
 * league/engine/drive.ts); a second signal ends it at once (exit 130). The same commands on
 * workers: test/scale/scale-signals.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/store';
import { jsonLines, ROOT, startArena, type RunningArena } from './helpers';

const RPS = './examples/rock-paper-scissors.js';
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-signals-'));

/** Resolves once `cond()` holds, checking on every timer turn (rejects after a generous ceiling). */
async function until(cond: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function matches(db: string, league: string): number[] {
  try {
    const store = new Store(db);
    try {
      return store.matches(league).map((m) => m.idx);
    } finally {
      store.close();
    }
  } catch {
    return [];
  }
}

function fastLeague(dir: string, name: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      env: join(ROOT, RPS),
      players: [
        { id: 'random', agent: 'random' },
        { id: 'counter', agent: 'counter-last' },
      ],
      matchmaking: { mode: 'random' },
      budget: { matches: 1_000_000_000 },
    }),
  );
  return file;
}

const running: RunningArena[] = [];
const start = (...args: Parameters<typeof startArena>) => {
  const r = startArena(...args);
  running.push(r);
  return r;
};
afterEach(() => {
  for (const r of running.splice(0)) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
});

describe('signals stop every command after the current match', () => {
  test.each(['SIGINT', 'SIGTERM'] as const)('league run of synchronous matches stops on %s, every recorded match whole', async (sig) => {
    const dir = tmp();
    const db = join(dir, 'l.db');
    const run = start(['league', 'run', '--config', fastLeague(dir, 'fast'), '--db', db, '--quiet']);
    await until(() => matches(db, 'fast').length >= 100, '100 recorded matches');
    run.child.kill(sig);
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/stopping after the current match/);
    expect(run.stderr()).toMatch(/league "fast": \d+\/1000000000 matches \(\d+ this run\), stopped/);
    const idx = matches(db, 'fast');
    expect(idx.length).toBeLessThan(1_000_000_000);
    expect(idx).toEqual(idx.map((_, i) => i));
  });

  test.each(['SIGINT', 'SIGTERM'] as const)('tournament run of synchronous games stops on %s after the current game, every recorded game whole', async (sig) => {
    const dir = tmp();
    const db = join(dir, 't.db');
    const cfg = join(dir, 'rr.json');
    // one encounter of 50,000 game pairs: far more than the test waits for
    writeFileSync(cfg, JSON.stringify({ name: 'long', format: 'round-robin', env: join(ROOT, RPS), players: [{ id: 'random', agent: 'random' }, { id: 'counter', agent: 'counter-last' }], games: 100_000 }));
    const run = start(['tournament', 'run', '--config', cfg, '--db', db, '--quiet']);
    await until(() => matches(db, 'long').length >= 100, '100 recorded games');
    run.child.kill(sig);
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/stopping after the current game/);
    expect(run.stderr()).toMatch(/tournament "long": \d+ games \(\d+ this run\), stopped \(rerun to resume\)/);
    const idx = matches(db, 'long');
    expect(idx.length).toBeLessThan(100_000);
    expect(idx).toEqual(idx.map((_, i) => i));
  });

  test('sprt stops on SIGINT after the current game, prints the test so far (undecided: exit 3)', async () => {
    const db = join(tmp(), 's.db');
    // equal players and narrow bounds: undecided for far longer than the test waits
    const run = start(['sprt', '--a', 'random', '--b', 'random', '--env', RPS, '--elo0', '0', '--elo1', '1', '--max-games', '100000000', '--db', db, '--name', 'eq']);
    await until(() => matches(db, 'eq').length >= 100, '100 recorded games');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(3);
    expect(run.stderr()).toMatch(/stopping after the current game/);
    const games = matches(db, 'eq');
    expect(games).toEqual(games.map((_, i) => i));
    expect(run.stdout()).toMatch(new RegExp(`: ${games.length} games, .*: running\n$`));
  });

  test('play --episodes 1e12 stops on SIGTERM and prints the summary of the episodes played', async () => {
    const run = start(['play', RPS, '--agents', 'random', '--episodes', '1e12', '--json']);
    await run.waitFor(/"episode":200,/);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const lines = jsonLines(run.stdout());
    const summary = lines[lines.length - 1].summary as { episodes: number };
    expect(summary.episodes).toBe(lines.length - 1);
    expect(summary.episodes).toBeGreaterThan(200);
  });

  test('train stops on SIGTERM and saves the last completed iteration', async () => {
    const out = join(tmp(), 'run');
    const config = JSON.stringify({ hidden: [8], episodesPerIteration: 16, evalEvery: 0 });
    const run = start(['train', RPS, '--iterations', '1000000', '--backend', 'cpu', '--out', out, '--config', config]);
    await run.waitFor(/iter 2 /);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const state = JSON.parse(readFileSync(join(out, 'state.json'), 'utf8')) as { iteration: number };
    expect(state.iteration).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(out, 'checkpoints', `state-${state.iteration}.json`))).toBe(true);
  });

  test('demo stops on SIGINT (server closed, leagues stopped)', async () => {
    const db = join(tmp(), 'demo.db');
    const run = start(['demo', '--port', '0', '--db', db, '--pace', '0', '--no-learners']);
    await run.waitFor(/watch live at http:\/\/127\.0\.0\.1:\d+/);
    await until(() => matches(db, 'demo-werewolf').length > 0, 'a demo match');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/stopping after the current matches/);
  });

  test('a second signal ends a command stuck in user code at once (exit 130)', async () => {
    const run = start(['play', RPS, '--agents', 'random,./test/fixtures/stuck-agents.js#busy-loop', '--watch', 'public'], { ARENA_WATCHDOG_MS: '0' });
    // the worker is inside busy-loop's act by the time its first output gets out
    await run.waitFor(/▶ rock-paper-scissors-v1/);
    run.child.kill('SIGINT');
    await run.waitFor(/stopping after the current episode/);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
  });

  test('a command with nothing to stop cleanly ends on the first signal (exit 130)', async () => {
    const run = start(['check', './test/fixtures/loops-at-load.js'], { ARENA_WATCHDOG_MS: '0' });
    await run.waitFor(/loops-at-load: loading/);
    // The supervisor answers signals itself, even while the worker is stuck loading the module.
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
  });
});
