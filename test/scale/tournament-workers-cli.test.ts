/**
 * `arena tournament run --redis` with `arena worker` processes, end to end: the scheduler killed
 * with -9 at a random point and rerun ends with exactly the single-process tournament (rounds,
 * games, ratings, the printed tables).
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import { BULL_PREFIX, queueName } from '../../src/scale/keys';
import { arenaAsync, ROOT, startArena, type RunningArena } from '../cli/helpers';
import { describeRedis, startRedis, type TestRedis } from './redis-server';
import { tournamentOutcome, within } from '../league/scale/helpers';

const snapshot = tournamentOutcome;

describeRedis('a tournament on workers through Redis, from the command line', () => {
  let redis: TestRedis;
  const started: RunningArena[] = [];
  const arena = (args: string[]) => {
    const r = startArena(args);
    started.push(r);
    return r;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const r of started.splice(0)) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    await redis.stop();
  });

  test('Swiss: the scheduler killed with -9 at a random point and rerun equals the single-process run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-twcli-'));
    // module paths are read from the config's folder: give it the repo's examples/ and test/
    for (const sub of ['examples', 'test']) symlinkSync(join(ROOT, sub), join(dir, sub));
    const cfg = join(dir, 'swiss.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'sw',
        format: 'swiss',
        env: './examples/rock-paper-scissors.js',
        params: { rounds: 5 },
        seed: 6,
        players: [
          { id: 'counter', agent: 'counter-last' },
          { id: 'first', agent: './test/fixtures/league-agents.js#first-legal' },
          ...[1, 2, 3, 4].map((k) => ({ id: `sleepy-${k}`, agent: './test/fixtures/league-agents.js#sleepy-random' })),
        ],
        rounds: 3,
        games: 6,
      }),
    );
    const ref = await arenaAsync(['tournament', 'run', '--config', cfg, '--db', join(dir, 'ref.db'), '--quiet']);
    expect(ref.code).toBe(0);
    const events = new QueueEvents(queueName('rock-paper-scissors-v1'), { connection: { host: '127.0.0.1', port: redis.port }, prefix: BULL_PREFIX });
    try {
      await events.waitUntilReady();
      const workers = ['a', 'b'].map((n) => arena(['worker', '--redis', redis.url, '--name', n, '--cache', join(dir, `cache-${n}`)]));
      await Promise.all(workers.map((w) => w.waitFor(/connected to/)));
      // jobs are batches of 2 games (--batch 2): 54 games are 27 jobs
      const killAt = 3 + Math.floor(Math.random() * 20);
      let completed = 0;
      const reached = new Promise<void>((resolve) => events.on('completed', () => ++completed === killAt && resolve()));
      const args = ['tournament', 'run', '--config', cfg, '--db', join(dir, 'w.db'), '--redis', redis.url, '--in-flight', '4', '--batch', '2', '--quiet'];
      const first = arena(args);
      await within(reached, 90_000, `${killAt} jobs completed`);
      first.child.kill('SIGKILL');
      await first.exited;
      const second = arena(args);
      expect(await within(second.exited, 180_000, 'the restarted scheduler finishing')).toBe(0);
      expect(second.stderr()).toMatch(/tournament "sw": 54 games \(\d+ this run\), finished/);
      expect(second.stdout()).toBe(ref.stdout);
    } finally {
      await events.close();
    }
    expect(snapshot(join(dir, 'w.db'), 'sw')).toEqual(snapshot(join(dir, 'ref.db'), 'sw'));
  }, 300_000);
});
