/**
 * Tournaments and SPRTs on workers (`tournament run --redis`, `sprt --redis`): the same engine as
 * leagues, so the games, results, ratings and Swiss rounds equal the single-process run's,
 * whatever the number of workers; an SPRT stops at the same game and the jobs of games past its
 * decision are dropped.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import { BULL_PREFIX, queueName } from '../../src/scale/keys';
import { parseRedisUrl } from '../../src/scale/redis-connection';
import { Store } from '../../src/store/store';
import { parseTournamentConfig, type TournamentConfig } from '../../league/tournament/config';
import { runTournament, type TournamentRunOptions, type TournamentRunResult } from '../../league/tournament/tournament-run';
import { MatchWorkers } from '../../league/scale/match-worker';
import { describeRedis, startRedis, type TestRedis } from './redis-server';
import { tournamentOutcome } from '../league/scale/helpers';

const tmp = () => mkdtempSync(join(tmpdir(), 'arena-tw-'));

const outcome = tournamentOutcome;

const swiss = parseTournamentConfig({
  name: 'sw',
  format: 'swiss',
  env: './examples/rock-paper-scissors.js',
  params: { rounds: 5 },
  seed: 4,
  players: [
    { id: 'counter', agent: 'counter-last' },
    { id: 'first', agent: './test/fixtures/league-agents.js#first-legal' },
    { id: 'random', agent: 'random' },
    { id: 'sleepy', agent: './test/fixtures/league-agents.js#sleepy-random' },
    { id: 'random2', agent: 'random' },
  ],
  rounds: 3,
  games: 4,
});

const sprt = parseTournamentConfig({
  name: 'sp',
  format: 'sprt',
  env: 'deal-or-no-deal-v1',
  seed: 2,
  players: [
    { id: 'A', agent: 'greedy' },
    { id: 'B', agent: 'random' },
  ],
  sprt: { elo0: 0, elo1: 5, maxGames: 2000 },
});

describeRedis('tournaments on workers', () => {
  let redis: TestRedis;
  beforeEach(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await redis.stop();
  });

  async function local(db: string, config: TournamentConfig): Promise<TournamentRunResult> {
    const store = new Store(db);
    try {
      return await runTournament({ config, store, registry: createRegistry(), bus: new EventBus() });
    } finally {
      store.close();
    }
  }

  async function onWorkers(db: string, config: TournamentConfig, workers: number, extra: Partial<TournamentRunOptions> = {}) {
    const target = parseRedisUrl(redis.url);
    const registry = createRegistry();
    const ws = await Promise.all(Array.from({ length: workers }, (_, i) => MatchWorkers.start({ redis: target, registry, cacheDir: join(tmp(), 'cache'), name: `t${i}`, live: false })));
    const store = new Store(db);
    try {
      const result = await runTournament({ config, store, registry, bus: new EventBus(), workers: { redis: target, pollMs: 200, maxInFlight: 8 }, ...extra });
      return { result, stats: ws.map((w) => ({ ...w.stats })) };
    } finally {
      store.close();
      await Promise.all(ws.map((w) => w.close()));
    }
  }

  test('a Swiss tournament played by 2 workers equals the single-process run (rounds, games, ratings, events, tables)', async () => {
    const dir = tmp();
    expect(await local(join(dir, 'ref.db'), swiss)).toEqual({ played: 24, completed: 24, finished: true, stopped: false });
    const rounds: number[] = [];
    const { result, stats } = await onWorkers(join(dir, 'w.db'), swiss, 2, { onRound: (r) => rounds.push(r.round) });
    expect(result).toEqual({ played: 24, completed: 24, finished: true, stopped: false });
    expect(rounds).toEqual([0, 1, 2]);
    expect(stats.reduce((n, s) => n + s.done, 0)).toBe(24);
    expect(outcome(join(dir, 'w.db'), 'sw')).toEqual(outcome(join(dir, 'ref.db'), 'sw'));
  });

  test('an SPRT on workers stops at the same game with the same decision; jobs of games past it are dropped', async () => {
    const dir = tmp();
    const ref = await local(join(dir, 'ref.db'), sprt);
    expect(ref.finished).toBe(true);
    const { result } = await onWorkers(join(dir, 'w.db'), sprt, 2);
    expect(result).toEqual(ref);
    const a = outcome(join(dir, 'w.db'), 'sp');
    const b = outcome(join(dir, 'ref.db'), 'sp');
    expect(a.report!.sprt!.decision).toBe('H1');
    expect(a).toEqual(b);
    const queue = new Queue(queueName('deal-or-no-deal-v1'), { connection: { host: '127.0.0.1', port: redis.port }, prefix: BULL_PREFIX });
    try {
      // folded games' jobs are removed as they are folded, the rest when the test decides; only a job a
      // worker was playing at that moment (one per worker) can be left, finished, after the run
      const left = await queue.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
      expect(left.length).toBeLessThanOrEqual(2);
      for (const job of left) expect(Number(job.id!.split('#')[1])).toBeGreaterThanOrEqual(a.matches.length);
    } finally {
      await queue.close();
    }
  });

  test('remote and human players are refused on workers before anything is stored', async () => {
    const store = new Store(join(tmp(), 'r.db'));
    try {
      const config = parseTournamentConfig({ ...swiss, name: 'served', rounds: 1, players: [swiss.players[0], { id: 'me', agent: 'human' }] });
      await expect(runTournament({ config, store, registry: createRegistry(), workers: { redis: parseRedisUrl(redis.url) } })).rejects.toThrow(/player "me": human players are served by this process and cannot play on workers/);
      expect(store.tournaments()).toEqual([]);
    } finally {
      store.close();
    }
  });
});
