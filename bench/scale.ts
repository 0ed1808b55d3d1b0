/**
 * Scale-out throughput (issues 14, 27): a scripted league played in one process (a pairing
 * window, `league run` without --redis) and by 1 and 2 `arena worker` child processes through a
 * loopback Redis (`league run --redis`, scheduler in this process), in interleaved rounds (one
 * process, 1 worker, 2 workers, again...) so that each ratio compares runs under the same load.
 * Prints markdown tables: matches/s, the ratio to the same round's one-process rate, the CPU
 * per match of the one process and of the workers (all their threads: /proc/<pid>/stat) with
 * the ratio of the two (what one worker on a core of its own reaches at best, a figure that
 * shifts little with the machine's load), the scheduler's and Redis's CPU per match, Redis commands per match (INFO commandstats: commands inside
 * BullMQ's scripts included), bytes into and out of Redis per match (INFO stats; the median run) and
 * the load average; then live events/s through Redis to a
 * spectator server's bus (LivePublisher -> LiveFeed).
 *
 * Starts its own redis-server (must be installed) on a free 127.0.0.1 port; run from the
 * package root after `npm run build`:
 *   npm run bench:scale [-- --matches 300 --workers 1,2 --rounds 2 --window 32 --batch N --warmup 0 --leagues rock-paper-scissors,werewolf --events 50000 --cpu-prof DIR --pin]
 * (`--cpu-prof DIR`: the scheduler's CPU profile of each worker run, written to DIR as a .cpuprofile.)
 *
 * `--warmup N`: before each measured run, N matches of another league played the same way (in
 * this process; by the run's freshly started workers) and not counted, so that both sides are
 * measured warm (JIT-compiled), as a long-running worker is. Without it every worker run is a
 * fresh process's first matches, while the one-process runs after the first round are warm.
 *
 * `--pin`: workers that do not share the scheduler's core, as on machines of their own. The bench
 * itself (the scheduler, and the one-process league it compares with) and Redis run on CPU 0,
 * every worker on CPU 1 (`taskset`), so "x one process" compares one core of play with one core
 * of scheduling plus one core of workers. Needs two CPUs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector';
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
import { commandCalls, netBytes, pinSelf, processesCpuMs, redisCpuS, ROOT, startRedis, startWorkers, stopWorkers } from './scale-kit';


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
    }),
  },
];

const load = (): string => os.loadavg()[0].toFixed(1);
const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Starts the inspector's CPU profiler in this process; the returned function stops it and gives the profile. */
async function startProfile(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) => new Promise<unknown>((ok, fail) => session.post(method, params ?? {}, (e, r) => (e ? fail(e) : ok(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    session.disconnect();
    return profile;
  };
}

interface Row {
  scenario: string;
  label: string;
  workers: number;
  rate: number[];
  /** Rate over the same round's one-process rate. */
  ratio: number[];
  cpuMs: number[];
  /** CPU ms per match of the one process, or of the workers (every thread). */
  playCpuMs: number[];
  /** The same round's one-process CPU per match over this row's workers' CPU per match. */
  cpuRatio: number[];
  /** Redis's CPU ms per match. */
  redisCpuMs: number[];
  commands: number[];
  /** Bytes into and out of Redis per match, in KB. */
  kbIn: number[];
  kbOut: number[];
  load: string[];
}

async function main(): Promise<void> {
  const matches = Number(arg('matches', '300'));
  const counts = arg('workers', '1,2').split(',').map(Number);
  const rounds = Number(arg('rounds', '2'));
  const window = Number(arg('window', '32'));
  const batch = arg('batch', '');
  const warmup = Number(arg('warmup', '0'));
  const only = arg('leagues', 'rock-paper-scissors,werewolf').split(',');
  const profDir = arg('cpu-prof', '');
  const pin = process.argv.includes('--pin');
  if (pin && os.cpus().length < 2) throw new Error('--pin needs two CPUs (the scheduler on CPU 0, workers on CPU 1)');
  if (pin) pinSelf('0');
  const redisServer = await startRedis(pin ? '0' : '');
  const target = parseRedisUrl(redisServer.url);
  const admin = new Redis(redisServer.port, '127.0.0.1');
  const dir = mkdtempSync(join(os.tmpdir(), 'arena-bench-scale-'));
  const registry = createRegistry();
  process.chdir(ROOT);
  const rows = new Map<string, Row>();
  const row = (scenario: string, label: string, workers: number): Row => {
    const key = `${scenario}|${label}`;
    if (!rows.has(key)) rows.set(key, { scenario, label, workers, rate: [], ratio: [], cpuMs: [], playCpuMs: [], cpuRatio: [], redisCpuMs: [], commands: [], kbIn: [], kbOut: [], load: [] });
    return rows.get(key)!;
  };
  let run = 0;
  try {
    // rounds interleave the configurations (one process, 1 worker, 2 workers, ...) so that each ratio compares runs made under the same load
    for (let round = 0; round < rounds; round++) {
      for (const sc of SCENARIOS.filter((x) => only.some((o) => x.name.startsWith(o)))) {
        const name = (label: string) => `bench-${process.pid}-${run++}-${label}`;
        let local = 0;
        let localCpu = 0;
        {
          const raw = { ...sc.config(name('local')), budget: { matches }, window };
          if (warmup) {
            const warm = new Store(join(dir, `${raw.name}-warmup.db`));
            await runLeague({ config: parseLeagueConfig({ ...raw, name: `${raw.name}-warmup`, budget: { matches: warmup } }), store: warm, registry, bus: new EventBus() });
            warm.close();
          }
          const store = new Store(join(dir, `${raw.name}.db`));
          const l0 = load();
          const cpu0 = process.cpuUsage();
          const t0 = performance.now();
          // with a bus, as `arena league run` has one: each match's event log is recorded, as the workers' are
          await runLeague({ config: parseLeagueConfig(raw), store, registry, bus: new EventBus() });
          local = matches / ((performance.now() - t0) / 1000);
          const cpu = process.cpuUsage(cpu0);
          localCpu = (cpu.user + cpu.system) / 1000 / matches;
          store.close();
          const r = row(sc.name, 'one process (no Redis)', 0);
          r.rate.push(local);
          r.playCpuMs.push(localCpu);
          r.ratio.push(1);
          r.load.push(`${l0}-${load()}`);
        }
        for (const n of counts) {
          const raw = { ...sc.config(name(`w${n}`)), budget: { matches }, window };
          const envId = (await registry.resolveEnv(raw.env)).meta.id;
          await admin.sadd(QUEUES_KEY, envId); // workers attach to the queue at start
          const workers = await startWorkers(redisServer.url, n, 1, pin ? '1' : '');
          const playOn = { redis: target, ...(batch ? { batch: Number(batch) } : {}) };
          if (warmup) {
            const warm = new Store(join(dir, `${raw.name}-warmup.db`));
            await runLeague({ config: parseLeagueConfig({ ...raw, name: `${raw.name}-warmup`, budget: { matches: warmup } }), store: warm, registry, workers: playOn }).finally(() => warm.close());
          }
          const store = new Store(join(dir, `${raw.name}.db`));
          const l0 = load();
          const calls0 = await commandCalls(admin);
          const bytes0 = await netBytes(admin);
          const prof = profDir ? await startProfile() : null;
          const pids = workers.map((w) => w.pid!);
          const workerCpu0 = processesCpuMs(pids);
          const redisCpu0 = await redisCpuS(admin);
          const cpu0 = process.cpuUsage();
          const t0 = performance.now();
          try {
            await runLeague({ config: parseLeagueConfig(raw), store, registry, workers: playOn });
          } finally {
            store.close();
          }
          const s = (performance.now() - t0) / 1000;
          const cpu = process.cpuUsage(cpu0);
          const workerCpu = (processesCpuMs(pids) - workerCpu0) / matches;
          const redisCpu = ((await redisCpuS(admin)) - redisCpu0) * 1000 / matches;
          if (prof) writeFileSync(join(profDir, `${raw.name}.cpuprofile`), JSON.stringify(await prof()));
          const calls = (await commandCalls(admin)) - calls0;
          const bytes = await netBytes(admin);
          await stopWorkers(workers);
          const r = row(sc.name, `${n} worker${n === 1 ? '' : 's'} + scheduler`, n);
          r.rate.push(matches / s);
          r.ratio.push(matches / s / local);
          r.cpuMs.push((cpu.user + cpu.system) / 1000 / matches);
          r.playCpuMs.push(workerCpu);
          r.cpuRatio.push(localCpu / workerCpu);
          r.redisCpuMs.push(redisCpu);
          r.commands.push(calls / matches);
          r.kbIn.push((bytes.input - bytes0.input) / 1024 / matches);
          r.kbOut.push((bytes.output - bytes0.output) / 1024 / matches);
          r.load.push(`${l0}-${load()}`);
        }
      }
    }
    const jobs = batch || `default (${Math.max(1, Math.min(16, Math.floor(window / 2)))})`;
    process.stdout.write(`Scale-out throughput, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'})${pin ? ', pinned: scheduler, one-process run and Redis on CPU 0, workers on CPU 1' : ''}, loopback Redis, window ${window}, plans per job ${jobs}, ${matches} matches per run${warmup ? ` (each after ${warmup} unmeasured warm-up matches played the same way)` : ''}, ${rounds} interleaved round(s); medians of the rounds (each round's figures in brackets)\n\n`);
    process.stdout.write('| league | played by | matches/s | x one process | CPU ms/match: one process, or workers | CPU ratio (one process / workers) | scheduler CPU ms/match | Redis CPU ms/match | Redis commands/match | Redis KB in / out per match | load (1 min, start-end) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n');
    const f = (xs: number[], d: number) => (xs.length ? `${median(xs).toFixed(d)}${xs.length > 1 ? ` [${xs.map((x) => x.toFixed(d)).join(', ')}]` : ''}` : '–');
    for (const r of rows.values()) {
      process.stdout.write(`| ${r.scenario} | ${r.label} | ${f(r.rate, 1)} | ${r.workers ? f(r.ratio, 2) : '1'} | ${f(r.playCpuMs, 2)} | ${r.workers ? f(r.cpuRatio, 2) : '1'} | ${f(r.cpuMs, 2)} | ${f(r.redisCpuMs, 2)} | ${f(r.commands, 1)} | ${r.workers ? `${median(r.kbIn).toFixed(2)} / ${median(r.kbOut).toFixed(2)}` : '–'} | ${r.load.join(', ')} |\n`);
    }
    process.stdout.write('\n');

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
