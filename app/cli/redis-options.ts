import type { WorkerPlayOptions } from '../../league/engine/worker-player';
import { checkRedis, parseRedisUrl } from '../../src/scale/redis-connection';
import { UsageError } from './options';

/** The scale-out options of a scheduling command (`league run`, `tournament run`, `sprt`). */
export interface SchedulerRedisArgs {
  /** Redis URL: this process schedules the matches on `arena worker` processes (docs/scale-out.md). */
  redis?: string;
  /** With --redis: most match jobs in flight. */
  inFlight?: number;
  /** With --redis: tries of a job that fails with an error before it is a recorded failure. */
  attempts?: number;
  /** With --redis: plans per job. */
  batch?: number;
}

/**
 * How to play on workers from `--redis`, `--in-flight`, `--attempts` and `--batch`, with Redis checked to
 * answer (one line naming the URL otherwise); null without --redis. Throws a UsageError for an
 * option that needs --redis or is out of range.
 */
export async function workerPlayArgs(args: SchedulerRedisArgs): Promise<WorkerPlayOptions | null> {
  if (args.redis === undefined) {
    if (args.inFlight !== undefined || args.attempts !== undefined || args.batch !== undefined) throw new UsageError('--in-flight, --attempts and --batch need --redis (they set how jobs are scheduled on workers)');
    return null;
  }
  if (args.inFlight !== undefined && args.inFlight < 1) throw new UsageError('--in-flight: expected at least 1');
  if (args.attempts !== undefined && args.attempts < 1) throw new UsageError('--attempts: expected at least 1');
  if (args.batch !== undefined && args.batch < 1) throw new UsageError('--batch: expected at least 1');
  const redis = parseRedisUrl(args.redis);
  await checkRedis(redis);
  return { redis, maxInFlight: args.inFlight, attempts: args.attempts, batch: args.batch };
}
