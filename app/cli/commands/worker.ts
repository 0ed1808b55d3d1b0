import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registry } from '../../../src/core/registry';
import { closeSharedSandbox } from '../../catalog';
import { MatchWorkers } from '../../../league/scale/match-worker';
import { checkRedis, parseRedisUrl } from '../../../src/scale/redis-connection';
import { UsageError } from '../options';
import { stopOnSignals } from '../stop-signal';

/** Arguments of `arena worker`. */
export interface WorkerArgs {
  redis: string;
  concurrency: number;
  envs?: string;
  cache?: string;
  name?: string;
  lockMs: number;
  attempts: number;
  live: boolean;
}

/**
 * `arena worker --redis URL [--concurrency N] [--envs a,b]`: plays league match jobs until
 * SIGTERM / Ctrl-C, then finishes the matches it is playing and exits 0 (a second signal exits at
 * once; its jobs are retried elsewhere after their lock expires). Redis unreachable at start is
 * one line (exit 1); a connection lost later is retried with back-off.
 */
export async function workerCommand(registry: Registry, args: WorkerArgs): Promise<number> {
  if (args.concurrency < 1) throw new UsageError('--concurrency: expected at least 1');
  if (args.attempts < 1) throw new UsageError('--attempts: expected at least 1');
  if (args.lockMs < 1000) throw new UsageError('--lock-ms: expected at least 1000 (a shorter lock expires while a match plays)');
  const target = parseRedisUrl(args.redis);
  await checkRedis(target);
  const envs = args.envs?.split(',').map((e) => e.trim()).filter(Boolean);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const stop = stopOnSignals('finishing the matches being played');
  const workers = await MatchWorkers.start({
    redis: target,
    registry,
    concurrency: args.concurrency,
    envs,
    cacheDir: args.cache ?? join(tmpdir(), 'arena-worker-cache'),
    name: args.name,
    lockMs: args.lockMs,
    attempts: args.attempts,
    live: args.live,
    log,
  });
  log(`worker ${workers.name}: connected to ${target.shown}; ${envs?.length ? `envs ${envs.join(', ')}` : 'every env a league announces'}; concurrency ${args.concurrency}`);
  try {
    await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
    await workers.close();
  } finally {
    stop.dispose();
    await closeSharedSandbox();
  }
  log(`worker ${workers.name}: stopped after ${workers.stats.done} match${workers.stats.done === 1 ? '' : 'es'} (${workers.stats.failed} failed)`);
  return 0;
}
