/**
 * Scale-out when matches take time (issue 27), played in one process and by 1, 2 and 4 `arena
 * worker` processes with `--concurrency N` each, the scheduler's window large enough to feed them
 * all (one plan per job: `--batch 1`, so the jobs spread over the workers). Two leagues:
 *
 * - `--league slow` (default): rock-paper-scissors whose agents wait 200 ms per decision
 *   (bench/fixtures/slow-agents.js, like an LLM player);
 * - `--league code-repair`: examples/leagues/code-repair.json (repair mode, the bundled JavaScript
 *   tasks): every revision and every auditor test runs in the sandbox (src/sandbox).
 *
 * Prints a markdown table: matches/s, the ratio to one process, speed-up over one worker and the
 * fraction of linear scaling (rate / (workers x the 1-worker rate)), with the load average.
 *
 * Starts its own redis-server (must be installed) on a free 127.0.0.1 port; run from the package
 * root after `npm run build`:
 *   npm run bench:slow-players [-- --league slow|code-repair --matches 200 --local-matches 200 --workers 1,2,4 --concurrency 16 --delay 200 --window-factor 2]
 * (`--local-matches`: the one-process row's budget; it plays one match at a time. `--window-factor F`: the
 * scheduler's window is F x workers x concurrency.) "slots busy": the mean fraction of the workers' slots
 * (workers x concurrency) holding a job, sampled every 50 ms — below 1 the workers waited for the scheduler.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { EventBus } from '../src/bus/event-bus';
import { createRegistry } from '../app/catalog';
import { Queue } from 'bullmq';
import { BULL_PREFIX, QUEUES_KEY, queueName } from '../src/scale/keys';
import { parseRedisUrl } from '../src/scale/redis-connection';
import { Store } from '../src/store/store';
import { readFileSync } from 'node:fs';
import { parseLeagueConfig } from '../league/config';
import { runLeague } from '../league/league-run';
import { ROOT, startRedis, startWorkers, stopWorkers } from './scale-kit';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const load = (): string => os.loadavg()[0].toFixed(1);

async function main(): Promise<void> {
  const matches = Number(arg('matches', '200'));
  const localMatches = Number(arg('local-matches', String(matches))); // one process plays one match at a time: slow
  const counts = arg('workers', '1,2,4').split(',').map(Number);
  const concurrency = Number(arg('concurrency', '16'));
  const delayMs = Number(arg('delay', '200'));
  const factor = Number(arg('window-factor', '2')); // the scheduler's window: factor x workers x concurrency
  for (const [name, v] of [['matches', matches], ['local-matches', localMatches], ['concurrency', concurrency], ['delay', delayMs], ['window-factor', factor]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${name}: expected a positive integer, got ${arg(name, '')}`);
  }
  const redisServer = await startRedis();
  const admin = new Redis(redisServer.port, '127.0.0.1');
  const dir = mkdtempSync(join(os.tmpdir(), 'arena-bench-slow-'));
  const registry = createRegistry();
  process.chdir(ROOT);
  process.env.ARENA_BENCH_DELAY_MS = String(delayMs); // read by the agent, here and in the workers
  const league = arg('league', 'slow');
  if (league !== 'slow' && league !== 'code-repair') throw new Error(`--league: expected slow or code-repair, got ${league}`);
  const slow = { agent: './bench/fixtures/slow-agents.js#slow-random' };
  const base =
    league === 'slow'
      ? {
          env: './examples/rock-paper-scissors.js',
          params: { rounds: 3 },
          seed: 7,
          players: [
            { id: 'slow-a', ...slow },
            { id: 'slow-b', ...slow },
          ],
        }
      : (({ name: _n, budget: _b, ...rest }) => rest)(JSON.parse(readFileSync(join(ROOT, 'examples', 'leagues', 'code-repair.json'), 'utf8')) as Record<string, unknown>);
  const config = (name: string, window: number, budget = matches) => parseLeagueConfig({ ...base, name, budget: { matches: budget }, window });
  const rows: { label: string; workers: number; matches: number; rate: number; load: string; busy?: number; cpuMs?: number }[] = [];
  try {
    {
      const store = new Store(join(dir, 'local.db'));
      const l0 = load();
      const t0 = performance.now();
      await runLeague({ config: config(`${league}-local-${process.pid}`, concurrency, localMatches), store, registry, bus: new EventBus() }); // a bus, as `arena league run` has: event logs recorded
      rows.push({ label: `one process, window ${concurrency} (no Redis)`, workers: 0, matches: localMatches, rate: localMatches / ((performance.now() - t0) / 1000), load: `${l0}-${load()}` });
      store.close();
    }
    for (const n of counts) {
      const cfg = config(`${league}-w${n}-${process.pid}`, factor * n * concurrency);
      const envId = (await registry.resolveEnv(cfg.env)).meta.id;
      await admin.sadd(QUEUES_KEY, envId); // workers attach to the queue at start
      const workers = await startWorkers(redisServer.url, n, concurrency);
      const store = new Store(join(dir, `w${n}.db`));
      // how many of the workers' n x concurrency slots hold a job, sampled every 50 ms (the scheduler keeps them fed, or not)
      const queue = new Queue(queueName(envId), { connection: { host: '127.0.0.1', port: redisServer.port }, prefix: BULL_PREFIX });
      const samples: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          samples.push((await queue.getJobCounts('active')).active);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const l0 = load();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      try {
        await runLeague({ config: cfg, store, registry, workers: { redis: parseRedisUrl(redisServer.url), batch: 1 } });
      } finally {
        sampling = false;
        await sampler;
        await queue.close();
        store.close();
        await stopWorkers(workers);
      }
      const cpu = process.cpuUsage(cpu0);
      const busy = samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length) / (n * concurrency);
      rows.push({ label: `${n} worker${n === 1 ? '' : 's'} x concurrency ${concurrency}, window ${factor * n * concurrency}`, workers: n, matches, rate: matches / ((performance.now() - t0) / 1000), load: `${l0}-${load()}`, busy, cpuMs: (cpu.user + cpu.system) / 1000 / matches });
    }
  } finally {
    admin.disconnect();
    redisServer.child.kill('SIGKILL');
  }
  const one = rows.find((r) => r.workers === 1)?.rate;
  const local = rows.find((r) => r.workers === 0)!.rate;
  if (league === 'slow') {
    const ideal = (1000 / (3 * delayMs)) * concurrency; // 3 rounds, both seats decide at once
    process.stdout.write(`# Slow players (${delayMs} ms per decision, rock-paper-scissors of 3 rounds: ~${3 * delayMs} ms per match), ${os.cpus().length} cores, loopback Redis\n\n`);
    process.stdout.write(`A match's floor is ${3 * delayMs} ms, so ${concurrency} matches at once give at most ${ideal.toFixed(1)} matches/s per process.\n\n`);
  } else {
    process.stdout.write(`# Code-repair league (examples/leagues/code-repair.json: programs and tests run in the sandbox), ${os.cpus().length} cores, loopback Redis\n\n`);
  }
  process.stdout.write('| played by | matches | matches/s | x one process | speed-up over 1 worker | fraction of linear scaling | slots busy (mean) | scheduler CPU ms/match | load (1 min, start-end) |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n');
  for (const r of rows) {
    const up = r.workers && one ? r.rate / one : null;
    process.stdout.write(`| ${r.label} | ${r.matches} | ${r.rate.toFixed(2)} | ${(r.rate / local).toFixed(2)} | ${up === null ? '–' : `${up.toFixed(2)}x`} | ${up === null ? '–' : (up / r.workers).toFixed(2)} | ${r.busy === undefined ? '–' : r.busy.toFixed(2)} | ${r.cpuMs === undefined ? '–' : r.cpuMs.toFixed(2)} | ${r.load} |\n`);
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench:slow-players: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
