/**
 * Playing a schedule on workers (`league run --redis`, `tournament run --redis`, `sprt --redis`):
 * the scheduling process enqueues each plan as a BullMQ job with a deterministic id (schedule,
 * match index) on its env's queue, at most `maxInFlight` (<= the schedule's window) at once, and
 * waits for the head's result, which the driver folds strictly in index order — each exactly
 * once: the store's (league, idx) key and the schedule's `completed` counter admit only the next
 * match; a job's result is taken only for the plan it was played for (its key); duplicates,
 * retries and results of matches already recorded are ignored. A job that failed every attempt
 * comes back as a failed outcome (the schedule records a failed match and goes on). Learners'
 * training rounds run in the scheduling process while workers play the matches already enqueued
 * (paired with the policies published before the round).
 *
 * Killed at any point (kill -9), a rerun resumes: the store says which matches are recorded,
 * the schedule what is in flight, and jobs finished meanwhile are collected from Redis. If Redis
 * lost the queue (restarted without persistence) the missing jobs are enqueued again.
 */
import { hostname } from 'node:os';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type Redis from 'ioredis';
import type { EventBus } from '../../src/bus/event-bus';
import { parseAgentRef } from '../../src/core/agent-ref';
import { BlobStore } from '../../src/scale/blob-store';
import { BULL_PREFIX, QUEUES_KEY, jobId, leagueKey, queueName } from '../../src/scale/keys';
import { LivePublisher } from '../../src/scale/live-publisher';
import { connectRedis, redisOptions, type RedisTarget } from '../../src/scale/redis-connection';
import { planKey, type MatchPlan } from './match-plan';
import type { PlayOutcome } from './record-match';
import type { PlanPlayer, Schedule } from './schedule';
import { MATCH_JOB, type MatchJob, type MatchJobResult } from '../scale/match-job';

/** How a schedule is played on workers. */
export interface WorkerPlayOptions {
  redis: RedisTarget;
  /** Most jobs enqueued and not yet recorded (default and maximum: the schedule's window). */
  maxInFlight?: number;
  /** Tries of a job that fails with an error (default 3); a worker's death counts against the workers' own limit. */
  attempts?: number;
  /** How often (ms) the head job is checked when no completion is heard (default 1000). */
  pollMs?: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why a job failed, with its errors and its workers' deaths counted ("... (1 error, 2 worker deaths)"). */
export function failureText(job: Pick<Job, 'failedReason' | 'attemptsMade' | 'stalledCounter'>): string {
  const errors = Math.max(0, job.attemptsMade - (job.stalledCounter > 0 && /stalled/.test(job.failedReason ?? '') ? 1 : 0));
  return `${job.failedReason || 'failed'} (${plural(errors, 'error')}, ${plural(job.stalledCounter, 'worker death')})`;
}

/**
 * The first of `players` (id and agent reference) whose seat this process serves itself
 * (`remote`, `human`): such players cannot play on workers. Null when there is none.
 */
export function servedPlayer(players: readonly { id: string; agent: string }[]): { id: string; kind: string } | null {
  for (const p of players) {
    const { kind } = parseAgentRef(p.agent);
    if (kind === 'remote' || kind === 'human') return { id: p.id, kind };
  }
  return null;
}

/**
 * Connects to Redis and returns the player that plays `schedule`'s plans on workers (see the
 * file doc); `bus` events (ratings, snapshots) are published live for spectator servers.
 */
export async function workerPlayer(schedule: Schedule<unknown>, o: WorkerPlayOptions & { bus?: EventBus; log?: (line: string) => void }): Promise<PlanPlayer> {
  const p = new JobScheduler(schedule, o);
  await p.ready();
  return p;
}

class JobScheduler implements PlanPlayer {
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
  private signal: AbortSignal | undefined;

  constructor(
    private readonly schedule: Schedule<unknown>,
    private readonly o: WorkerPlayOptions & { bus?: EventBus; log?: (line: string) => void },
  ) {
    const name = `arena-scheduler:${schedule.name}`;
    this.redis = connectRedis(o.redis, { name, log: o.log });
    const connection = redisOptions(o.redis, name);
    this.queue = new Queue(queueName(schedule.envId), { connection, prefix: BULL_PREFIX });
    this.queue.on('error', () => {});
    this.events = new QueueEvents(queueName(schedule.envId), { connection, prefix: BULL_PREFIX });
    this.events.on('error', () => {});
    const poke = () => {
      this.pokes++;
      this.wake?.();
    };
    this.events.on('completed', poke);
    this.events.on('failed', poke);
    this.blobs = new BlobStore(this.redis, '');
    this.publisher = o.bus ? new LivePublisher(this.redis, o.bus) : null;
    this.maxInFlight = Math.max(1, Math.min(o.maxInFlight ?? schedule.window, schedule.window));
  }

  /** Announces the queue (workers find it there) and waits until completions can be heard. */
  async ready(): Promise<void> {
    await this.redis.sadd(QUEUES_KEY, this.schedule.envId);
    await this.events.waitUntilReady();
  }

  async play(plans: readonly MatchPlan[], signal?: AbortSignal): Promise<PlayOutcome | null> {
    this.signal = signal;
    await this.enqueue(plans.slice(0, this.maxInFlight));
    const outcome = await this.collect(plans[0]);
    if (outcome && !outcome.ok) this.o.log?.(`${plans[0].schedule ?? 'league'} ${this.schedule.name}: match ${plans[0].idx} failed on every attempt and is recorded as failed (${outcome.reason})`);
    return outcome;
  }

  async folded(plan: MatchPlan, outcome: PlayOutcome): Promise<void> {
    // a failed job stays in its queue's failed list (league status shows it); a result is not needed any more
    if (outcome.ok) await this.queue.remove(jobId(plan.league, plan.idx)).catch(() => 0);
    this.enqueued.delete(plan.idx);
    this.folds.push(Date.now());
    if (Date.now() - this.reportedAt >= 1000) await this.report();
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
  private async collect(plan: MatchPlan): Promise<PlayOutcome | null> {
    const id = jobId(plan.league, plan.idx);
    const key = planKey(plan);
    for (;;) {
      if (this.signal?.aborted) return null;
      const heard = this.pokes;
      const job = (await this.queue.getJob(id)) as Job<MatchJob, MatchJobResult> | undefined;
      if (!job) {
        // Redis lost it (restarted without persistence): its files may be gone too
        this.o.log?.(`${plan.schedule ?? 'league'} ${plan.league}: the job of match ${plan.idx} is missing from Redis; enqueued again`);
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
      if (job.finishedOn) return job.returnvalue ? { ok: true, played: job.returnvalue.played, events: job.returnvalue.events } : { ok: false, reason: failureText(job) };
      await this.sleep(this.o.pollMs ?? 1000, heard);
    }
  }

  /** Resolves on the next completion or failure heard (at once if one was heard since `heard`), the signal, or after `ms`. */
  private sleep(ms: number, heard: number): Promise<void> {
    if (this.pokes !== heard) return Promise.resolve();
    const signal = this.signal;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** The schedule's progress for `league status` (rate over the last minute). */
  private async report(): Promise<void> {
    const now = Date.now();
    this.reportedAt = now;
    while (this.folds.length && this.folds[0] < now - 60_000) this.folds.shift();
    await this.redis.sadd(QUEUES_KEY, this.schedule.envId); // again: a restarted Redis may have lost it (workers find queues there)
    const span = Math.max(1, now - (this.folds[0] ?? now));
    await this.redis.hset(leagueKey(this.schedule.name), {
      env: this.schedule.envId,
      completed: this.schedule.completed,
      budget: this.schedule.total,
      window: this.schedule.window,
      inFlight: this.enqueued.size,
      ratePerS: this.folds.length > 1 ? ((this.folds.length - 1) / span) * 1000 : 0,
      scheduler: `${hostname()}-${process.pid}`,
      startedAt: this.startedAt,
      updatedAt: now,
    });
  }

  /**
   * Reports progress a last time and disconnects. When the schedule is over, jobs enqueued ahead
   * and never needed (an SPRT decided before its last enqueued games) are removed; otherwise they
   * stay for the next run to collect.
   */
  async close(finished: boolean): Promise<void> {
    try {
      await this.report();
      if (finished) for (const idx of this.enqueued) await this.queue.remove(jobId(this.schedule.name, idx)).catch(() => 0);
    } catch {
      // Redis gone: nothing more to tell it
    }
    await this.publisher?.close();
    await Promise.all([this.events.close().catch(() => {}), this.queue.close().catch(() => {})]);
    await this.redis.quit().catch(() => {});
  }
}
