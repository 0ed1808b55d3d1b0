/**
 * Ctrl-C on the scheduled commands that play on workers: `league run --redis`,
 * `tournament run --redis`, `sprt --redis` (one driver loop: the first signal stops the wait for
 * the next result, nothing half-recorded) and `arena worker` (finishes what it plays, exits 0).
 * The same commands in one process: test/cli/signals.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startArena, type RunningArena } from '../cli/helpers';
import { asConfigFile, matchCount, rpsLeague } from '../league/scale/helpers';
import { describeRedis, startRedis, type TestRedis } from './redis-server';

describeRedis('signals stop the scheduled commands on workers', () => {
  let redis: TestRedis;
  const started: RunningArena[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'arena-scale-sig-'));
  const arena = (args: string[]) => {
    const r = startArena(args);
    started.push(r);
    return r;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const r of started.splice(0)) {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
      await r.exited;
    }
  });
  afterAll(async () => {
    await redis.stop();
  });

  const league = join(dir, 'league.json');
  writeFileSync(league, asConfigFile(rpsLeague('sig', 10, { window: 2 })));
  const tournament = join(dir, 'tournament.json');
  writeFileSync(tournament, JSON.stringify({ name: 'tsig', format: 'round-robin', env: 'deal-or-no-deal-v1', players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'greedy' }], games: 4 }));

  test.each([
    ['league run', () => ['league', 'run', '--config', league, '--db', join(dir, 'l.db'), '--quiet'], 'sig', 0, /stopping after the current match/, /league "sig": 0\/10 matches \(0 this run\), stopped/],
    ['tournament run', () => ['tournament', 'run', '--config', tournament, '--db', join(dir, 't.db'), '--quiet'], 'tsig', 0, /stopping after the current game/, /tournament "tsig": 0 games \(0 this run\), stopped \(rerun to resume\)/],
    ['sprt', () => ['sprt', '--a', 'greedy', '--b', 'random', '--env', 'deal-or-no-deal-v1', '--elo0', '0', '--elo1', '5', '--db', join(dir, 's.db'), '--name', 'ssig'], 'ssig', 3, /stopping after the current game/, /0 games/],
  ] as const)('%s --redis, no worker yet: SIGINT ends the wait for the first result, nothing recorded', async (_name, args, key, code, stopping, summary) => {
    const run = arena([...args(), '--redis', redis.url]);
    await run.waitFor(/schedules its (matches|games) on the workers of/);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(code);
    expect(run.stderr()).toMatch(stopping);
    expect(run.stderr() + run.stdout()).toMatch(summary);
    const db = args()[args().indexOf('--db') + 1];
    expect(matchCount(db, key)).toBe(0);
  });

  test('worker: SIGINT while idle stops it at once, exit 0', async () => {
    // a Redis of its own: the stopped schedulers above leave their windows of jobs queued
    const empty = await startRedis();
    try {
      const w = arena(['worker', '--redis', empty.url, '--name', 'idle']);
      await w.waitFor(/connected to/);
      w.child.kill('SIGINT');
      expect(await w.exited).toBe(0);
      expect(w.stderr()).toMatch(/worker idle: stopped after 0 matches \(0 failed\)/);
    } finally {
      await empty.stop();
    }
  });
});
