/**
 * `arena league run --redis URL`: the league's process becomes a scheduler. It pairs matches
 * ahead (PlannedLeague: the config's window W), enqueues each as a BullMQ job with a
 * deterministic id (league, match index) on its env's queue, at most `maxInFlight` (<= W) at
 * once, and records results strictly in index order — each exactly once: the store's
 * (league, idx) key and the `completed` counter admit only the next match; a job's result is
 * taken only for the plan it was played for (its key); duplicates, retries and results of
 * matches already recorded are ignored. A job that failed every attempt is recorded as a failed
 * match and the league goes on. Training rounds run here while workers play the matches already
 * enqueued (paired with the policies published before the round).
 *
 * Killed at any point (kill -9), a rerun resumes: the store says which matches are recorded,
 * the stored plans say what is in flight, and jobs finished meanwhile are collected from Redis.
 * If Redis lost the queue (restarted without persistence) the missing jobs are enqueued again.
 */
import { hostname } from 'node:os';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type Redis from 'ioredis';
import { BlobStore } from '../../src/scale/blob-store';
import { BULL_PREFIX, QUEUES_KEY, jobId, leagueKey, queueName } from '../../src/scale/keys';
import { LivePublisher } from '../../src/scale/live-publisher';
import { connectRedis, redisOptions, type RedisTarget } from '../../src/scale/redis-connection';
import { LeagueConfigError } from '../config';
import { lockLeague } from '../league-lock';
import type { LeagueRunOptions, LeagueRunResult } from '../league-run';
import { planKey, type MatchPlan } from '../planned/match-plan';
import { withConfigPathsResolved } from '../module-paths';
import { PlannedLeague } from '../planned/planned-league';
import { MATCH_JOB, type MatchJob, type MatchJobResult } from './match-job';

/** How to schedule a league on workers. */
export interface ScheduledLeagueOptions extends LeagueRunOptions {
  redis: RedisTarget;
  /** Most jobs enqueued and not yet recorded (default and maximum: the config's window). */
  maxInFlight?: number;
  /** Tries of a job that fails with an error (default 3); a worker's death counts against the workers' own limit. */
  attempts?: number;
  /** How often (ms) the head job is checked when no completion is heard (default 1000). */
  pollMs?: number;
}

type Outcome = { ok: true; result: MatchJobResult } | { ok: false; reason: string };

/** Agent kinds that need the league's own process (their seats are served by it). */
const LOCAL_ONLY = /^(remote|human)(:|$)/;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why a job failed, with its errors and its workers' deaths counted ("... (1 error, 2 worker deaths)"). */
export function failureText(job: Pick<Job, 'failedReason' | 'attemptsMade' | 'stalledCounter'>): string {
  const errors = Math.max(0, job.attemptsMade - (job.stalledCounter > 0 && /stalled/.test(job.failedReason ?? '') ? 1 : 0));
  return `${job.failedReason || 'failed'} (${plural(errors, 'error')}, ${plural(job.stalledCounter, 'worker death')})`;
}

/** Plays a league on workers through Redis (see the file doc). */
export async function runScheduledLeague(options: ScheduledLeagueOptions): Promise<LeagueRunResult> {
  const o = withConfigPathsResolved(options);
  const remote = o.config.players.find((p) => LOCAL_ONLY.test(p.agent));
  if (remote) throw new LeagueConfigError(`league config: player "${remote.id}": ${remote.agent.split(':')[0]} players are served by the league's own process and cannot play on workers; run this league without --redis`);
  const unlock = lockLeague(o.store.db.name, o.config.name);
  try {
    const league = await PlannedLeague.open(o);
    const scheduler = new Scheduler(o, league);
    try {
      return await scheduler.run();
    } finally {
      await scheduler.close();
      league.dispose();
    }
  } finally {
    unlock();
  }
}

class Scheduler {
  private readonly redis: Redis;
  private readonly queue: Queue<MatchJob, MatchJobResult>;
  private readonly events: QueueEvents;
  private readonly blobs: BlobStore;
  private readonly publisher: LivePublisher | null;
  private readonly enqueued = new Set<number>();
  private readonly maxInFlight: number;
  private wake: (() => void) | null = null;
  /** Completions and failures heard so far (a wait started after one it has not seen returns at once). */
  private pokes = 0;
  private readonly folds: number[] = [];
  private readonly startedAt = Date.now();
  private reportedAt = 0;

  constructor(
    private readonly o: ScheduledLeagueOptions,
    private readonly league: PlannedLeague,
  ) {
    const name = `arena-scheduler:${o.config.name}`;
    this.redis = connectRedis(o.redis, { name, log: o.log });
    const connection = redisOptions(o.redis, name);
    this.queue = new Queue(queueName(league.envId), { connection, prefix: BULL_PREFIX });
    this.queue.on('error', () => {});
    this.events = new QueueEvents(queueName(league.envId), { connection, prefix: BULL_PREFIX });
    this.events.on('error', () => {});
    const poke = () => {
      this.pokes++;
      this.wake?.();
    };
    this.events.on('completed', poke);
    this.events.on('failed', poke);
    this.blobs = new BlobStore(this.redis, '');
    this.publisher = o.bus ? new LivePublisher(this.redis, o.bus) : null;
    this.maxInFlight = Math.max(1, Math.min(o.maxInFlight ?? league.window, league.window));
  }

  async run(): Promise<LeagueRunResult> {
    const { o, league } = this;
    const budget = league.budget;
    await this.redis.sadd(QUEUES_KEY, league.envId);
    await this.events.waitUntilReady();
    let played = 0;
    let stopped = !(await league.catchUp(o.signal));
    while (!stopped && league.completed < budget && (o.maxMatches === undefined || played < o.maxMatches)) {
      const plans = league.nextPlans().filter((p) => p.idx < budget).slice(0, this.maxInFlight);
      await this.enqueue(plans);
      const head = plans[0];
      const outcome = await this.collect(head);
      if (!outcome) {
        stopped = true;
        break;
      }
      const record = outcome.ok ? league.fold(head, outcome.result.played, outcome.result.events) : league.foldFailure(head, outcome.reason);
      if (!outcome.ok) o.log?.(`league ${o.config.name}: match ${head.idx} failed on every attempt and is recorded as failed (${outcome.reason})`);
      // a failed job stays in its queue's failed list (league status shows it); a result is not needed any more
      if (outcome.ok) await this.queue.remove(jobId(head.league, head.idx)).catch(() => 0);
      this.enqueued.delete(head.idx);
      played++;
      o.onMatch?.(record, league.completed, budget);
      this.folds.push(Date.now());
      if (Date.now() - this.reportedAt >= 1000) await this.report();
      stopped = !(await league.afterFold(o.signal));
    }
    await this.report();
    return { played, completed: league.completed, budget, stopped };
  }

  /** Adds the jobs of plans not yet enqueued by this run (their files first); an existing job with the same id is kept. */
  private async enqueue(plans: readonly MatchPlan[]): Promise<void> {
    const fresh = plans.filter((p) => !this.enqueued.has(p.idx));
    if (!fresh.length) return;
    for (const p of fresh) await this.putFiles(p);
    await this.queue.addBulk(fresh.map((p) => this.job(p)));
    for (const p of fresh) this.enqueued.add(p.idx);
  }

  /** Uploads the files a plan names (modules, task data, checkpoints, policies) by content. */
  private async putFiles(p: MatchPlan): Promise<void> {
    for (const f of p.files) await this.blobs.put(f);
    for (const s of p.seats) {
      if (s.checkpoint) await this.blobs.put(s.checkpoint);
      if (s.policy) await this.blobs.put(s.policy);
    }
  }

  private job(plan: MatchPlan) {
    return {
      name: MATCH_JOB,
      data: { plan, key: planKey(plan) },
      opts: { jobId: jobId(plan.league, plan.idx), attempts: this.o.attempts ?? 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: false, removeOnFail: false },
    };
  }

  /**
   * Waits for the result of the plan's job; null when the signal stopped the wait. A job that
   * is missing (Redis lost it) is enqueued again; a job of another plan under the same id (an
   * earlier league of this name) is replaced once it is not running.
   */
  private async collect(plan: MatchPlan): Promise<Outcome | null> {
    const id = jobId(plan.league, plan.idx);
    const key = planKey(plan);
    for (;;) {
      if (this.o.signal?.aborted) return null;
      const heard = this.pokes;
      const job = (await this.queue.getJob(id)) as Job<MatchJob, MatchJobResult> | undefined;
      if (!job) {
        // Redis lost it (restarted without persistence): its files may be gone too
        this.o.log?.(`league ${plan.league}: the job of match ${plan.idx} is missing from Redis; enqueued again`);
        this.blobs.forget();
        await this.putFiles(plan);
        await this.queue.addBulk([this.job(plan)]);
        continue;
      }
      if (job.data.key !== key) {
        if ((await job.getState()) !== 'active') await job.remove().catch(() => {});
        else await this.sleep(this.o.pollMs ?? 1000, heard);
        continue;
      }
      // finishedOn is set with the result (or the last error) by the Redis script that ends the job, never
      // between attempts; a failed attempt's failedReason stays on a job that succeeds later, a result never
      // exists on a job that failed
      if (job.finishedOn) return job.returnvalue ? { ok: true, result: job.returnvalue } : { ok: false, reason: failureText(job) };
      await this.sleep(this.o.pollMs ?? 1000, heard);
    }
  }

  /** Resolves on the next completion or failure heard (at once if one was heard since `heard`), the signal, or after `ms`. */
  private sleep(ms: number, heard: number): Promise<void> {
    if (this.pokes !== heard) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        this.o.signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      this.o.signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** The league's progress for `league status` (rate over the last minute). */
  private async report(): Promise<void> {
    const now = Date.now();
    this.reportedAt = now;
    while (this.folds.length && this.folds[0] < now - 60_000) this.folds.shift();
    await this.redis.sadd(QUEUES_KEY, this.league.envId); // again: a restarted Redis may have lost it (workers find queues there)
    const span = Math.max(1, now - (this.folds[0] ?? now));
    await this.redis.hset(leagueKey(this.o.config.name), {
      env: this.league.envId,
      completed: this.league.completed,
      budget: this.league.budget,
      window: this.league.window,
      inFlight: this.enqueued.size,
      ratePerS: this.folds.length > 1 ? ((this.folds.length - 1) / span) * 1000 : 0,
      scheduler: `${hostname()}-${process.pid}`,
      startedAt: this.startedAt,
      updatedAt: now,
    });
  }

  async close(): Promise<void> {
    await this.publisher?.close();
    await Promise.all([this.events.close().catch(() => {}), this.queue.close().catch(() => {})]);
    await this.redis.quit().catch(() => {});
  }
}
