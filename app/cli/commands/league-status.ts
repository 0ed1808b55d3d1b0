import { formatStatus, scaleStatus } from '../../../league/scale/league-status';
import { checkRedis, connectRedis, parseRedisUrl } from '../../../src/scale/redis-connection';

/** Arguments of `arena league status`. */
export interface LeagueStatusArgs {
  redis: string;
  league?: string;
  json?: boolean;
}

/**
 * `arena league status --redis URL [--league NAME] [--json]`: queue depth per env, the workers
 * seen in the last 15 s, each league's progress and throughput as its scheduler reports it, and
 * the failed jobs. Redis unreachable is one line (exit 2).
 */
export async function leagueStatusCommand(args: LeagueStatusArgs): Promise<number> {
  const target = parseRedisUrl(args.redis);
  await checkRedis(target);
  const redis = connectRedis(target, { name: 'arena-status' });
  try {
    const status = await scaleStatus(redis, target, args.league);
    process.stdout.write(`${args.json ? JSON.stringify(status, null, 2) : formatStatus(status)}\n`);
  } finally {
    await redis.quit().catch(() => {});
  }
  return 0;
}
