/**
 * The scheduler and workers in one process (fast paths of issue 14): every job is played once
 * when nothing fails, a match whose env throws is a recorded failure (the league goes on), and
 * `league status` reports the league, the queue and the workers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { runLeague } from '../../league/league-run';
import { MatchWorkers } from '../../league/scale/match-worker';
import { formatStatus, scaleStatus } from '../../league/scale/league-status';
import { parseRedisUrl } from '../../src/scale/redis-connection';
import { BULL_PREFIX, queueName } from '../../src/scale/keys';
import { outcome, rpsLeague } from '../league/scale/helpers';
import { describeRedis, startRedis, type TestRedis } from './redis-server';

const tmp = () => mkdtempSync(join(tmpdir(), 'arena-sched-'));

describeRedis('scheduler and workers in one process', () => {
  let redis: TestRedis;
  beforeEach(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await redis.stop();
  });

  async function scheduled(db: string, raw: Record<string, unknown>, workers: number, o: { log?: (line: string) => void; onMatch?: (done: number) => void; maxInFlight?: number } = {}) {
    const target = parseRedisUrl(redis.url);
    const registry = createRegistry();
    const ws = await Promise.all(Array.from({ length: workers }, (_, i) => MatchWorkers.start({ redis: target, registry, cacheDir: join(tmp(), 'cache'), name: `w${i}`, live: false, log: o.log })));
    const store = new Store(db);
    try {
      const result = await runLeague({ config: parseLeagueConfig(raw), store, registry, bus: new EventBus(), workers: { redis: target, pollMs: 200, maxInFlight: o.maxInFlight }, log: o.log, onMatch: (_m, done) => o.onMatch?.(done) });
      return { result, workers: ws };
    } catch (e) {
      await Promise.all(ws.map((w) => w.close()));
      throw e;
    } finally {
      store.close(); // the workers are closed by the test (status is read while they still beat)
    }
  }

  test('2 workers: every match played once, recorded in index order, equal to the single-process run; status reports it', async () => {
    const dir = tmp();
    const raw = rpsLeague('once', 40, { window: 4 });
    const store = new Store(join(dir, 'ref.db'));
    await runLeague({ config: parseLeagueConfig(raw), store, registry: createRegistry(), bus: new EventBus() });
    store.close();
    const { result, workers } = await scheduled(join(dir, 's.db'), raw, 2);
    try {
      expect(result).toEqual({ played: 40, completed: 40, budget: 40, stopped: false });
      expect(workers.reduce((n, w) => n + w.stats.done, 0)).toBe(40);
      expect(workers.reduce((n, w) => n + w.stats.failed, 0)).toBe(0);
      expect(outcome(join(dir, 's.db'), 'once')).toEqual(outcome(join(dir, 'ref.db'), 'once'));

      const client = new Redis(redis.port, '127.0.0.1');
      try {
        const status = await scaleStatus(client, parseRedisUrl(redis.url));
        expect(status.leagues).toEqual([expect.objectContaining({ league: 'once', env: 'rock-paper-scissors-v1', completed: 40, budget: 40, window: 4, inFlight: 0 })]);
        expect(status.queues).toEqual([expect.objectContaining({ env: 'rock-paper-scissors-v1', waiting: 0, active: 0, failed: 0 })]);
        expect(status.workers.map((w) => w.name)).toEqual(['w0', 'w1']);
        expect(formatStatus(status)).toMatch(/once \(rock-paper-scissors-v1\): 40\/40 matches, window 4, 0 in flight/);
      } finally {
        client.disconnect();
      }
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });

  test('a match whose env throws is recorded as failed at once (no retry) and the league goes on', async () => {
    const dir = tmp();
    const raw = { name: 'poison', env: './test/fixtures/throwing-env.js', seed: 3, players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'random' }], budget: { matches: 6 }, window: 2 };
    const { result, workers } = await scheduled(join(dir, 'p.db'), raw, 1);
    try {
      expect(result.completed).toBe(6);
      const store = new Store(join(dir, 'p.db'), { readonly: true });
      try {
        const matches = store.matches('poison');
        const failed = matches.filter((m) => m.code === 'failed');
        // the env throws when a match reaches its second step (not every match does)
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.length).toBeLessThan(6);
        for (const m of failed) expect(JSON.stringify(m.summary)).toMatch(/step\(\) threw .*cannot read the pot.*\(1 error, 0 worker deaths\)/);
        // one attempt each: retrying cannot help
        expect(workers[0].stats).toEqual({ done: 6 - failed.length, failed: failed.length, active: 0 });
        expect(matches.map((m) => m.idx)).toEqual([0, 1, 2, 3, 4, 5]);
        // failed matches change no rating: the ratings are those of the others alone
        expect([...new Set(store.ratingHistory('poison', 'elo').map((h) => h.matchIdx))]).toEqual(matches.filter((m) => m.code !== 'failed').map((m) => m.idx));
      } finally {
        store.close();
      }
    } finally {
      await workers[0].close();
    }
  });

  test('Redis restarted (its data lost) mid-league: scheduler and worker reconnect with back-off, lost jobs are enqueued again, the league equals the single-process run', async () => {
    const dir = tmp();
    const raw = rpsLeague('restart', 30, { window: 3, paceMs: 10 });
    const ref = new Store(join(dir, 'ref.db'));
    await runLeague({ config: parseLeagueConfig({ ...raw, paceMs: 0 }), store: ref, registry: createRegistry(), bus: new EventBus() });
    ref.close();
    const lines: string[] = [];
    let restarted: Promise<void> | null = null;
    const { result, workers } = await scheduled(join(dir, 'r.db'), raw, 1, {
      log: (line) => lines.push(line),
      onMatch: (done) => {
        if (done !== 10) return;
        const port = redis.port;
        restarted = redis.stop().then(async () => {
          redis = await startRedis(port);
        });
      },
    });
    try {
      expect(restarted).not.toBeNull();
      expect(result.completed).toBe(30);
      expect(outcome(join(dir, 'r.db'), 'restart')).toEqual(outcome(join(dir, 'ref.db'), 'restart'));
      expect(lines.join('\n')).toMatch(/connection lost; reconnecting/);
      expect(lines.join('\n')).toMatch(/reconnected/);
      expect(lines.join('\n')).toMatch(/is missing from Redis; enqueued again/);
    } finally {
      await workers[0].close();
    }
  });

  test('a job whose first attempt fails with an error is retried and its result recorded as a played match', async () => {
    const dir = tmp();
    const raw = { name: 'retry', env: './examples/rock-paper-scissors.js', seed: 5, players: [{ id: 'random', agent: 'random' }, { id: 'once', agent: './test/fixtures/fail-once-agent.js#fail-once' }], budget: { matches: 4 }, window: 2 };
    const lines: string[] = [];
    const { result, workers } = await scheduled(join(dir, 's.db'), raw, 1, { log: (l) => lines.push(l) });
    try {
      expect(result.completed).toBe(4);
      expect(workers[0].stats).toEqual({ done: 4, failed: 1, active: 0 });
    } finally {
      await workers[0].close();
    }
    // the reference runs after (the fixture fails only its first creation in this process)
    const ref = new Store(join(dir, 'ref.db'));
    await runLeague({ config: parseLeagueConfig(raw), store: ref, registry: createRegistry(), bus: new EventBus() });
    ref.close();
    const got = outcome(join(dir, 's.db'), 'retry');
    expect(got.matches.map((m) => m.code)).not.toContain('failed');
    expect(got).toEqual(outcome(join(dir, 'ref.db'), 'retry'));
  });

  test('back-pressure: with --in-flight 2 the queue never holds more than 2 jobs of the league, whatever its window', async () => {
    const dir = tmp();
    const queue = new Queue(queueName('rock-paper-scissors-v1'), { connection: { host: '127.0.0.1', port: redis.port }, prefix: BULL_PREFIX });
    const counts: Promise<number>[] = [];
    const count = () => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed').then((c) => Object.values(c).reduce((a, b) => a + b, 0));
    try {
      const { result, workers } = await scheduled(join(dir, 'b.db'), rpsLeague('bp', 24, { window: 8, paceMs: 5 }), 2, { maxInFlight: 2, onMatch: () => counts.push(count()) });
      await Promise.all(workers.map((w) => w.close()));
      expect(result.completed).toBe(24);
      const seen = await Promise.all(counts);
      expect(Math.max(...seen)).toBeLessThanOrEqual(2);
      expect(Math.max(...seen)).toBeGreaterThan(0);
    } finally {
      await queue.close();
    }
  });
});

