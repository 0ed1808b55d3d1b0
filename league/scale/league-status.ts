/**
 * `arena league status --redis URL`: what the scale-out system is doing, read from Redis — each
 * env queue's depth, the workers seen (their heartbeats), each league's progress and throughput
 * (the scheduler's report), and the failed jobs.
 */
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { BULL_PREFIX, QUEUES_KEY, WORKER_KEYS, leagueKey, queueName } from '../../src/scale/keys';
import { redisOptions, type RedisTarget } from '../../src/scale/redis-connection';
import type { MatchJob } from './match-job';

/** One env queue. */
export interface QueueStatus {
  env: string;
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

/** A worker seen in the last 15 seconds. */
export interface WorkerStatus {
  name: string;
  host: string;
  pid: number;
  queues: string[];
  concurrency: number;
  active: number;
  done: number;
  failed: number;
  /** Milliseconds since its last heartbeat. */
  seenMsAgo: number;
}

/** A league's progress as its scheduler last reported it. */
export interface LeagueProgress {
  league: string;
  env: string;
  completed: number;
  budget: number;
  window: number;
  inFlight: number;
  /** Matches recorded per second over the last minute. */
  ratePerS: number;
  scheduler: string;
  /** Milliseconds since the scheduler's last report. */
  updatedMsAgo: number;
}

/** A job that failed (its last error). */
export interface FailedJob {
  id: string;
  /** The match ids of the job (comma-separated: a job may hold a batch of plans). */
  match: string;
  reason: string;
  attempts: number;
}

/** Everything `league status` shows. */
export interface ScaleStatus {
  queues: QueueStatus[];
  workers: WorkerStatus[];
  leagues: LeagueProgress[];
  failed: FailedJob[];
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    out.push(...keys);
  } while (cursor !== '0');
  return out;
}

/** Reads the status (optionally of one league: its queue, its progress, its failed jobs). */
export async function scaleStatus(redis: Redis, target: RedisTarget, league?: string): Promise<ScaleStatus> {
  const now = Date.now();
  const leagues: LeagueProgress[] = [];
  const names = league ? [league] : (await scanKeys(redis, leagueKey('*'))).map((k) => k.slice(leagueKey('').length)).sort();
  for (const name of names) {
    const h = await redis.hgetall(leagueKey(name));
    if (!h.env) continue;
    leagues.push({
      league: name,
      env: h.env,
      completed: Number(h.completed),
      budget: Number(h.budget),
      window: Number(h.window),
      inFlight: Number(h.inFlight),
      ratePerS: Number(h.ratePerS),
      scheduler: h.scheduler,
      updatedMsAgo: now - Number(h.updatedAt),
    });
  }
  const envs = league ? [...new Set(leagues.map((l) => l.env))] : (await redis.smembers(QUEUES_KEY)).sort();
  const queues: QueueStatus[] = [];
  const failed: FailedJob[] = [];
  for (const env of envs) {
    const q = new Queue<MatchJob>(queueName(env), { connection: redisOptions(target, 'arena-status'), prefix: BULL_PREFIX });
    q.on('error', () => {});
    try {
      const c = await q.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
      queues.push({ env, waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0, completed: c.completed ?? 0, failed: c.failed ?? 0 });
      for (const job of await q.getFailed(0, 49)) {
        const plans = Array.isArray(job?.data.plans) ? job.data.plans : [];
        if (!job || !plans.length || (league && plans[0].league !== league)) continue;
        failed.push({ id: job.id ?? '', match: plans.map((p) => p.matchId).join(', '), reason: job.failedReason ?? '', attempts: job.attemptsStarted });
      }
    } finally {
      await q.close();
    }
  }
  const workers: WorkerStatus[] = [];
  for (const key of await scanKeys(redis, WORKER_KEYS)) {
    const text = await redis.get(key);
    if (!text) continue;
    try {
      const w = JSON.parse(text) as Omit<WorkerStatus, 'seenMsAgo'> & { seenAt: number };
      workers.push({ name: w.name, host: w.host, pid: w.pid, queues: w.queues, concurrency: w.concurrency, active: w.active, done: w.done, failed: w.failed, seenMsAgo: now - w.seenAt });
    } catch {
      // not a worker heartbeat
    }
  }
  workers.sort((a, b) => a.name.localeCompare(b.name));
  return { queues, workers, leagues, failed };
}

/** The status as text lines. */
export function formatStatus(s: ScaleStatus): string {
  const out: string[] = [];
  out.push('leagues');
  if (!s.leagues.length) out.push('  (none reported)');
  for (const l of s.leagues) {
    out.push(`  ${l.league} (${l.env}): ${l.completed}/${l.budget} matches, window ${l.window}, ${l.inFlight} in flight, ${l.ratePerS.toFixed(2)} matches/s, scheduler ${l.scheduler} (${(l.updatedMsAgo / 1000).toFixed(0)} s ago)`);
  }
  out.push('queues');
  if (!s.queues.length) out.push('  (none)');
  for (const q of s.queues) out.push(`  ${q.env}: ${q.waiting} waiting, ${q.active} active, ${q.delayed} delayed, ${q.completed} completed, ${q.failed} failed`);
  out.push(`workers (${s.workers.length} seen)`);
  for (const w of s.workers) out.push(`  ${w.name} (${w.host}, pid ${w.pid}): ${w.active} playing, ${w.done} done, ${w.failed} failed; ${w.queues.join(', ') || 'no queue yet'}; seen ${(w.seenMsAgo / 1000).toFixed(0)} s ago`);
  if (s.failed.length) {
    out.push('failed jobs');
    for (const f of s.failed) out.push(`  ${f.match} after ${f.attempts} attempt(s): ${f.reason.replace(/\s+/g, ' ').slice(0, 200)}`);
  }
  return out.join('\n');
}
