/**
 * A league with a learner on workers (issue 14): training rounds run in the scheduler, workers
 * play the learner's policy and its snapshots from files fetched by content hash (their own
 * cache folder), and the league — matches, ratings, players, training — equals the
 * single-process run of the same config.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { runLeague } from '../../league/league-run';
import { MatchWorkers } from '../../league/scale/match-worker';
import { parseRedisUrl } from '../../src/scale/redis-connection';
import { describeRedis, startRedis, type TestRedis } from './redis-server';

const config = {
  name: 'learn',
  env: 'deal-or-no-deal-v1',
  params: { protocol: 'openspiel' },
  seed: 5,
  players: [
    { id: 'random', agent: 'random' },
    { id: 'greedy', agent: 'greedy' },
  ],
  learners: [{ id: 'neural', roles: ['negotiator'], options: { hidden: [16], epochs: 1 } }],
  training: { every: 4, episodes: 16, snapshotEvery: 1 },
  matchmaking: { mode: 'random' },
  budget: { matches: 16 },
  window: 3,
};

const TIMING = new Set(['seconds', 'rolloutSeconds', 'updateSeconds', 'episodesPerSec', 'samplesPerSec', 'updateSamplesPerSec']);

function outcome(db: string, work: string) {
  const store = new Store(db, { readonly: true });
  try {
    return {
      matches: store.matches('learn').map(({ startedAt: _s, endedAt: _e, ...m }) => m),
      events: store.matches('learn').map((m) => store.events(m.id).map(({ time: _t, ...e }) => e)),
      ratings: store.ratings('learn'),
      players: store.players('learn').map(({ createdAt: _c, ...p }) => JSON.parse(JSON.stringify(p).split(work).join('WORK')) as unknown),
      training: store.trainingMetrics('learn').map((t) => ({ iteration: t.iteration, role: t.role, metrics: JSON.parse(JSON.stringify(t.metrics, (k, v) => (TIMING.has(k) ? undefined : v))) as unknown })),
    };
  } finally {
    store.close();
  }
}

describeRedis('a league with a learner on workers', () => {
  let redis: TestRedis;
  beforeEach(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await redis.stop();
  });

  test('policies and snapshots travel by content; the league equals the single-process run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-learn-'));
    const local = new Store(join(dir, 'local.db'));
    await runLeague({ config: parseLeagueConfig(config), store: local, registry: createRegistry(), bus: new EventBus(), workDir: join(dir, 'work-local'), backend: 'cpu' });
    local.close();

    const target = parseRedisUrl(redis.url);
    const registry = createRegistry();
    const workers = await Promise.all([0, 1].map((i) => MatchWorkers.start({ redis: target, registry, cacheDir: join(dir, `cache-${i}`), name: `l${i}`, live: false })));
    const store = new Store(join(dir, 'scaled.db'));
    try {
      const r = await runLeague({ config: parseLeagueConfig(config), store, registry, bus: new EventBus(), workers: { redis: target, pollMs: 200 }, workDir: join(dir, 'work-scaled'), backend: 'cpu' });
      expect(r.completed).toBe(16);
    } finally {
      store.close();
      await Promise.all(workers.map((w) => w.close()));
    }
    const a = outcome(join(dir, 'local.db'), join(dir, 'work-local'));
    const b = outcome(join(dir, 'scaled.db'), join(dir, 'work-scaled'));
    // snapshots joined and played: the learner and its snapshots are in the matches
    expect(a.players.length).toBeGreaterThan(3);
    const seated = new Set(a.matches.flatMap((m) => m.seats.map((s) => s.player)));
    expect(seated).toContain('neural');
    expect([...seated].some((p) => !['random', 'greedy', 'neural'].includes(p))).toBe(true); // a snapshot played
    // the workers played them from copies fetched by hash
    const cached = [0, 1].flatMap((i) => (existsSync(join(dir, `cache-${i}`)) ? readdirSync(join(dir, `cache-${i}`)) : []));
    expect(cached.filter((f) => /^[0-9a-f]{64}\.json$/.test(f)).length).toBeGreaterThan(1);
    expect(b).toEqual(a);
  }, 180_000);
});
