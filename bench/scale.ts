/**
 * Scale-out throughput (issue 14): a scripted league played in one process (a pairing window,
 * `league run` without --redis) and by 1, 2 and 4 `arena worker` child processes through a
 * loopback Redis (`league run --redis`, scheduler in this process). Prints markdown tables:
 * matches/s per configuration, the scheduler's CPU per match and Redis commands per match; then
 * live events/s through Redis to a spectator server's bus (LivePublisher -> LiveFeed).
 *
 * Starts its own redis-server (must be installed) on a free 127.0.0.1 port; run from the
 * package root after `npm run build`: npm run bench:scale [-- --matches 300 --workers 1,2,4]
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { EventBus } from '../src/bus/event-bus';
import { createRegistry } from '../app/catalog';
import type { MatchEvent } from '../src/core/events';
import { LiveFeed } from '../src/scale/live-feed';
import { LivePublisher } from '../src/scale/live-publisher';
import { QUEUES_KEY } from '../src/scale/keys';
import { parseRedisUrl } from '../src/scale/redis-connection';
import { Store } from '../src/store/store';
import { parseLeagueConfig } from '../league/config';
import { runLeague } from '../league/league-run';
import { commandCalls, ROOT, startRedis, startWorkers, stopWorkers } from './scale-kit';


function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

interface Scenario {
  name: string;
  config: (name: string) => { name: string; env: string } & Record<string, unknown>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'rock-paper-scissors (3 rounds, scripted)',
    config: (name) => ({
      name,
      env: './examples/rock-paper-scissors.js',
      params: { rounds: 3 },
      seed: 7,
      players: [
        { id: 'random', agent: 'random' },
        { id: 'counter', agent: 'counter-last' },
      ],
      budget: { matches: 0 },
      window: 16,
    }),
  },
  {
    name: 'werewolf (arena preset, random vs rule-based)',
    config: (name) => ({
      name,
      env: 'werewolf-v1',
      params: { preset: 'arena', debateTurns: 4 },
      seed: 1,
      players: [
        { id: 'random', agent: 'random' },
        { id: 'rule-based', agent: 'rule-based' },
      ],
      budget: { matches: 0 },
      window: 16,
    }),
  },
];

async function main(): Promise<void> {
  const matches = Number(arg('matches', '300'));
  const counts = arg('workers', '1,2,4').split(',').map(Number);
  const redisServer = await startRedis();
  const target = parseRedisUrl(redisServer.url);
  const admin = new Redis(redisServer.port, '127.0.0.1');
  const dir = mkdtempSync(join(os.tmpdir(), 'arena-bench-scale-'));
  const registry = createRegistry();
  process.chdir(ROOT);
  const rows: string[] = [];
  let run = 0;
  try {
    for (const sc of SCENARIOS) {
      const name = (label: string) => `bench-${run++}-${label}`;
      // single process, same window (the equal-outcome reference)
      {
        const raw = { ...sc.config(name('local')), budget: { matches } };
        const store = new Store(join(dir, `${raw.name}.db`));
        const t0 = performance.now();
        await runLeague({ config: parseLeagueConfig(raw), store, registry });
        const s = (performance.now() - t0) / 1000;
        store.close();
        rows.push(`| ${sc.name} | one process (no Redis) | ${matches} | ${(matches / s).toFixed(1)} | – | – |`);
      }
      for (const n of counts) {
        const raw = { ...sc.config(name(`w${n}`)), budget: { matches } };
        const envId = (await registry.resolveEnv(raw.env)).meta.id;
        await admin.sadd(QUEUES_KEY, envId); // workers attach to the queue at start
        const workers = await startWorkers(redisServer.url, n);
        const store = new Store(join(dir, `${raw.name}.db`));
        const calls0 = await commandCalls(admin);
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        try {
          await runLeague({ config: parseLeagueConfig(raw), store, registry, workers: { redis: target } });
        } finally {
          store.close();
        }
        const s = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        const calls = (await commandCalls(admin)) - calls0;
        await stopWorkers(workers);
        rows.push(`| ${sc.name} | ${n} worker${n === 1 ? '' : 's'} + scheduler | ${matches} | ${(matches / s).toFixed(1)} | ${((cpu.user + cpu.system) / 1000 / matches).toFixed(2)} | ${Math.round(calls / matches)} |`);
      }
    }
    process.stdout.write(`Scale-out throughput, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), loopback Redis, window 16\n\n`);
    process.stdout.write('| league | played by | matches | matches/s | scheduler CPU ms/match | Redis commands/match |\n|---|---|---:|---:|---:|---:|\n');
    process.stdout.write(`${rows.join('\n')}\n\n`);

    // live events through Redis: publisher (a worker's bus) -> Redis -> feed (a server's bus)
    const events = Number(arg('events', '50000'));
    const pubBus = new EventBus();
    const subBus = new EventBus();
    const pubRedis = new Redis(redisServer.port, '127.0.0.1');
    const feed = new LiveFeed(new Redis(redisServer.port, '127.0.0.1', { maxRetriesPerRequest: null }), subBus);
    await feed.start();
    const publisher = new LivePublisher(pubRedis, pubBus);
    let got = 0;
    const all = new Promise<void>((ok) => subBus.events$.subscribe(() => ++got === events && ok()));
    const t0 = performance.now();
    const perMatch = 1000;
    for (let i = 0; i < events; i++) {
      const seq = i % perMatch;
      const matchId = `bench-live-${Math.floor(i / perMatch)}`;
      const e = { type: seq === 0 ? 'match.created' : seq === perMatch - 1 ? 'match.ended' : 'message', matchId, seq, time: Date.now(), visibility: 'public', data: { text: 'hello' } } as unknown as MatchEvent;
      pubBus.publish(e);
      if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
    }
    await publisher.drain();
    await all;
    const s = (performance.now() - t0) / 1000;
    await publisher.close();
    await feed.stop();
    pubRedis.disconnect();
    process.stdout.write('| live events through Redis | events | events/s (publish -> spectator server bus) |\n|---|---:|---:|\n');
    process.stdout.write(`| one publisher, one server | ${events} | ${Math.round(events / s)} |\n`);
  } finally {
    admin.disconnect();
    redisServer.child.kill('SIGKILL');
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench:scale: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
