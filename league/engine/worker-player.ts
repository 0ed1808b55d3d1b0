/**
 * Playing a schedule on workers (`league run --redis`, `tournament run --redis`, `sprt --redis`):
 * the scheduling process enqueues the plans in batches of up to `batch` consecutive plans, one
 * BullMQ job per batch with a deterministic id (schedule, first index) on its env's queue, at
 * most `maxInFlight` plans (<= the schedule's window) at once, all new batches in one `addBulk`.
 * It waits for the head's batch and hands back its results — with those of the batches after it
 * that have finished too — at once, which the driver folds strictly in index order in one SQLite
 * transaction — each exactly once: the store's (league,
 * idx) key and the schedule's `completed` counter admit only the next match; a result is taken
 * only for the plan it was played for (each plan's key, and the batch's); duplicates, retries
 * and results of matches already recorded are ignored. A batch job that failed every attempt is
 * split into one job per plan (so one poisoned match cannot fail the others); a one-plan job that
 * failed every attempt comes back as a failed outcome (the schedule records a failed match and
 * goes on). Learners' training rounds run in the scheduling process while workers play the
 * matches already enqueued (paired with the policies published before the round).
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
import { BULL_PREFIX, QUEUES_KEY, jobId, leagueKey, queueName, splitJobId } from '../../src/scale/keys';
import { LivePublisher } from '../../src/scale/live-publisher';
import { eventLogOfMessage, type PackedEventLog } from '../../src/store/event-log';
import { connectRedis, redisOptions, type RedisTarget } from '../../src/scale/redis-connection';
import { planKey, type MatchPlan } from './match-plan';
import type { PlayOutcome } from './record-match';
import type { PlanPlayer, Schedule } from './schedule';
import { MATCH_JOB, batchKeyOf, failureText, type MatchJob, type MatchJobResult } from '../scale/match-job';

/** How a schedule is played on workers. */
export interface WorkerPlayOptions {
  redis: RedisTarget;
  /** Most jobs enqueued and not yet recorded (default and maximum: the schedule's window). */
  maxInFlight?: number;
  /** Tries of a job that fails with an error (default 3); a worker's death counts against the workers' own limit. */
  attempts?: number;
  /** How often (ms) the head job is checked when no completion is heard (default 1000). */
  pollMs?: number;
  /**
   * Plans per job (default: half of `maxInFlight`, at most 16): a batch costs the same Redis work
   * as one plan, and its results are folded in one transaction. Keep it 1 for slow or heavy
   * matches that should spread over many workers (a worker holds up to `--concurrency` jobs).
   */
  batch?: number;
}

/** The default batch size for `maxInFlight` plans in flight (two batches in flight, at most 16 plans each). */
export function defaultBatch(maxInFlight: number): number {
  return Math.max(1, Math.min(16, Math.floor(maxInFlight / 2)));
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


/** One job: consecutive plans and, once the job has finished, their outcomes. */
interface Batch {
  id: string;
  plans: MatchPlan[];
  /** Each plan's key (hashed once: for the batch's key, and to check each result). */
  keys: string[];
  key: string;
  outcomes: PlayOutcome[] | null;
  /** Its job failed every attempt (it stays in the queue's failed list for `league status`). */
  failed: boolean;
  /** Plans of it not folded yet. */
  left: number;
  /**
   * When collect reads its job back from Redis (ms since the epoch; 0: at once). A job enqueued by
   * this run is read only when no completion was heard for it within the poll interval (its result
   * comes with its completed event) or when a failure was heard; a job the first enqueue of a run
   * found (a killed run's, maybe finished unheard) is read at once.
   */
  readAt: number;
}

/** Whether `r` (a completed event's return value, from Redis) is a result of the batch with key `key`. */
function resultOf(r: unknown, key: string): r is MatchJobResult {
  return typeof r === 'object' && r !== null && (r as { key?: unknown }).key === key && Array.isArray((r as { results?: unknown }).results);
}

/**
 * Cuts consecutive runs of plans into batches at the multiples of `size` (plan `idx` starts a
 * batch when `idx % size === 0`), so that batch boundaries — and job ids — do not depend on when
 * plans were handed out: a restarted scheduler cuts the same batches.
 */
export function chunks(plans: readonly MatchPlan[], size: number): MatchPlan[][] {
  const out: MatchPlan[][] = [];
  for (const p of plans) {
    const last = out[out.length - 1];
    if (last && p.idx % size !== 0 && last[last.length - 1].idx === p.idx - 1) last.push(p);
    else out.push([p]);
  }
  return out;
}

class JobScheduler implements PlanPlayer {
  private readonly redis: Redis;
  private readonly queue: Queue<MatchJob, MatchJobResult>;
  private readonly events: QueueEvents;
  private readonly blobs: BlobStore;
  private readonly publisher: LivePublisher | null;
  /** The batch of every plan enqueued by this run and not folded yet, by index. */
  private readonly batchOf = new Map<number, Batch>();
  /** The same batches by job id (a completed event names the job). */
  private readonly byId = new Map<string, Batch>();
  /** Removals of finished jobs under way (not waited for between folds; waited for at close). */
  private readonly removing = new Set<Promise<unknown>>();
  /** No job was enqueued by this run yet (the first enqueue may find a killed run's jobs, finished unheard). */
  private firstEnqueue = true;
  private readonly maxInFlight: number;
  private readonly batch: number;
  private readonly pollMs: number;
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
    // a completed event carries the job's return value (BullMQ writes it into the event stream): a batch's
    // results are taken from it, without reading the job back; a job finished unheard (before a restart)
    // is read back by collect
    this.events.on('completed', ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) => {
      const b = this.byId.get(jobId);
      if (b && !b.outcomes && !b.failed && resultOf(returnvalue, b.key)) b.outcomes = this.outcomesOf(b, returnvalue);
      poke();
    });
    this.events.on('failed', ({ jobId }: { jobId: string }) => {
      const b = this.byId.get(jobId);
      if (b) b.readAt = 0;
      poke();
    });
    this.blobs = new BlobStore(this.redis, '');
    this.publisher = o.bus ? new LivePublisher(this.redis, o.bus) : null;
    this.maxInFlight = Math.max(1, Math.min(o.maxInFlight ?? schedule.window, schedule.window));
    this.pollMs = o.pollMs ?? 1000;
    this.batch = Math.max(1, Math.min(o.batch ?? defaultBatch(this.maxInFlight), this.maxInFlight));
  }

  /** Announces the queue (workers find it there) and waits until completions can be heard. */
  async ready(): Promise<void> {
    await this.redis.sadd(QUEUES_KEY, this.schedule.envId);
    await this.events.waitUntilReady();
  }

  private what(plan: MatchPlan): string {
    return `${plan.schedule ?? 'league'} ${plan.league}`;
  }

  async play(plans: readonly MatchPlan[], signal?: AbortSignal): Promise<PlayOutcome[] | null> {
    this.signal = signal;
    // the list is cut by the in-flight limit or the window (not by the schedule: a budget, a round's end)
    const cut = plans.length > this.maxInFlight || plans.length >= this.schedule.window;
    await this.enqueue(plans.slice(0, this.maxInFlight), cut);
    const head = await this.collect(plans[0]);
    return head && this.withReady(plans, head);
  }

  /**
   * `outcomes` (the head's batch from the head on) followed by the outcomes of the batches after
   * it that have finished already, as long as they continue `plans` in order: one fold for all.
   */
  private withReady(plans: readonly MatchPlan[], outcomes: PlayOutcome[]): PlayOutcome[] {
    const out = [...outcomes];
    for (;;) {
      const next = plans[out.length];
      const b = next && this.batchOf.get(next.idx);
      if (!b?.outcomes || b.plans[0].idx !== next.idx) return out;
      for (const [i, p] of b.plans.entries()) {
        if (plans[out.length]?.idx !== p.idx) return out;
        out.push(b.outcomes[i]);
      }
    }
  }

  async folded(plans: readonly MatchPlan[]): Promise<void> {
    for (const plan of plans) {
      const b = this.batchOf.get(plan.idx);
      if (!b) continue;
      this.batchOf.delete(plan.idx);
      this.folds.push(Date.now());
      if (--b.left > 0) continue;
      this.byId.delete(b.id);
      // a failed job stays in its queue's failed list (league status shows it); a result is not needed any more:
      // removed without waiting (a job left by a crash before its removal is ignored by a rerun, as before)
      if (!b.failed) {
        const removal: Promise<unknown> = this.queue.remove(b.id).catch(() => 0).finally(() => this.removing.delete(removal));
        this.removing.add(removal);
      }
    }
    if (Date.now() - this.reportedAt >= 1000) await this.report();
  }

  /**
   * Adds jobs for the plans not yet enqueued by this run (their files first), all in one
   * `addBulk`; an existing job with the same id is kept. When the list was `cut` short of what
   * the schedule will hand out, a last batch short of its size waits for its other plans (unless
   * it holds the head), so batches stay whole.
   */
  private async enqueue(plans: readonly MatchPlan[], cut: boolean): Promise<void> {
    const cuts = chunks(
      plans.filter((p) => !this.batchOf.has(p.idx)),
      this.batch,
    );
    const last = cuts[cuts.length - 1];
    if (cut && last && last[0] !== plans[0] && (last[last.length - 1].idx + 1) % this.batch !== 0) cuts.pop();
    if (!cuts.length) return;
    for (const c of cuts) for (const p of c) await this.putFiles(p);
    const batches = cuts.map((c) => this.newBatch(jobId(c[0].league, c[0].idx), c));
    if (this.firstEnqueue) for (const b of batches) b.readAt = 0;
    this.firstEnqueue = false;
    await this.queue.addBulk(batches.map((b) => this.job(b)));
  }

  private newBatch(id: string, plans: MatchPlan[]): Batch {
    const keys = plans.map(planKey);
    const b: Batch = { id, plans, keys, key: batchKeyOf(keys), outcomes: null, failed: false, left: plans.length, readAt: Date.now() + this.pollMs };
    for (const p of plans) this.batchOf.set(p.idx, b);
    this.byId.set(id, b);
    return b;
  }

  /** Uploads the files a plan names (modules, task data, checkpoints, policies) by content. */
  private async putFiles(p: MatchPlan): Promise<void> {
    for (const f of p.files) await this.blobs.put(f);
    for (const s of p.seats) {
      if (s.checkpoint) await this.blobs.put(s.checkpoint);
      if (s.policy) await this.blobs.put(s.policy);
    }
  }

  private job(b: Batch) {
    return {
      name: MATCH_JOB,
      data: { plans: b.plans, key: b.key },
      opts: { jobId: b.id, attempts: this.o.attempts ?? 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: false, removeOnFail: false },
    };
  }

  /**
   * Waits for the batch of the head and returns the outcomes of the head and the rest of its
   * batch; null when the signal stopped the wait. A job that is missing (Redis lost it) is
   * enqueued again; a job of other plans under the same id (an earlier league of this name, or
   * other batches) is replaced once it is not running; a batch job that failed every attempt is
   * split into one job per plan.
   */
  private async collect(head: MatchPlan): Promise<PlayOutcome[] | null> {
    for (;;) {
      if (this.signal?.aborted) return null;
      const b = this.batchOf.get(head.idx)!;
      if (b.outcomes) return b.outcomes.slice(b.plans.findIndex((p) => p.idx === head.idx));
      const heard = this.pokes;
      if (Date.now() < b.readAt) {
        await this.sleep(b.readAt - Date.now(), heard); // a completed event brings the result
        continue;
      }
      b.readAt = Date.now() + this.pollMs;
      const job = (await this.queue.getJob(b.id)) as Job<MatchJob, MatchJobResult> | undefined;
      if (!job) {
        // Redis lost it (restarted without persistence): its files may be gone too
        this.o.log?.(`${this.what(head)}: the job of match ${b.plans.map((p) => p.idx).join(', ')} is missing from Redis; enqueued again`);
        this.blobs.forget();
        for (const p of b.plans) await this.putFiles(p);
        await this.queue.addBulk([this.job(b)]);
        continue;
      }
      if (job.data.key !== b.key) {
        if ((await job.getState()) !== 'active') await job.remove().catch(() => {});
        else await this.sleep(this.pollMs, heard);
        if ((await this.queue.getJob(b.id)) === undefined) await this.queue.addBulk([this.job(b)]);
        b.readAt = 0;
        continue;
      }
      // finishedOn is set with the result (or the last error) by the Redis script that ends the job, never
      // between attempts; a failed attempt's failedReason stays on a job that succeeds later, a result never
      // exists on a job that failed
      if (!job.finishedOn) continue; // read again when its completion is not heard within the poll interval
      if (job.returnvalue) b.outcomes = this.outcomesOf(b, job.returnvalue);
      else if (b.plans.length > 1) await this.split(b, job);
      else {
        b.failed = true;
        b.outcomes = [{ ok: false, reason: failureText(job) }];
        this.o.log?.(`${this.what(head)}: match ${b.plans[0].idx} failed on every attempt and is recorded as failed (${b.outcomes[0].ok ? '' : b.outcomes[0].reason})`);
      }
    }
  }

  /** The outcomes of a batch from its job's result; a result that is not for its plan (a worker of another version) is a failed match. */
  private outcomesOf(b: Batch, r: MatchJobResult): PlayOutcome[] {
    return b.plans.map((plan, i) => {
      const res = Array.isArray(r.results) ? r.results[i] : undefined;
      if (!res || res.key !== b.keys[i]) return { ok: false, reason: `the result of worker ${String(r.worker)} is not for this match's plan (a worker of another version?)` };
      if (!res.ok) {
        this.o.log?.(`${this.what(plan)}: match ${plan.idx} failed and is recorded as failed (${res.reason})`);
        return { ok: false, reason: res.reason };
      }
      let events: PackedEventLog;
      try {
        events = eventLogOfMessage(res.log);
      } catch (e) {
        return { ok: false, reason: `the result of worker ${String(r.worker)} for this match has no readable event log (${e instanceof Error ? e.message : String(e)}; a worker of another version?)` };
      }
      return { ok: true, played: res.played, events };
    });
  }

  /** A batch job that failed every attempt: each of its plans gets a job of its own (one poisoned match cannot fail the others). */
  private async split(b: Batch, job: Job<MatchJob, MatchJobResult>): Promise<void> {
    b.failed = true;
    b.left = 0; // its plans move to their own jobs
    this.byId.delete(b.id);
    this.o.log?.(`${this.what(b.plans[0])}: the job of matches ${b.plans[0].idx}-${b.plans[b.plans.length - 1].idx} failed on every attempt (${failureText(job)}); each is played again in a job of its own`);
    const singles = b.plans.map((p) => this.newBatch(splitJobId(p.league, p.idx), [p]));
    await this.queue.addBulk(singles.map((s) => this.job(s)));
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

  /** The schedule's progress for `league status` (rate over the last minute), in one round trip. */
  private async report(): Promise<void> {
    const now = Date.now();
    this.reportedAt = now;
    while (this.folds.length && this.folds[0] < now - 60_000) this.folds.shift();
    const span = Math.max(1, now - (this.folds[0] ?? now));
    await this.redis
      .multi()
      .sadd(QUEUES_KEY, this.schedule.envId) // again: a restarted Redis may have lost it (workers find queues there)
      .hset(leagueKey(this.schedule.name), {
        env: this.schedule.envId,
        completed: this.schedule.completed,
        budget: this.schedule.total,
        window: this.schedule.window,
        inFlight: this.batchOf.size,
        ratePerS: this.folds.length > 1 ? ((this.folds.length - 1) / span) * 1000 : 0,
        scheduler: `${hostname()}-${process.pid}`,
        startedAt: this.startedAt,
        updatedAt: now,
      })
      .exec();
  }

  /**
   * Reports progress a last time and disconnects. When the schedule is over, jobs enqueued ahead
   * and never needed (an SPRT decided before its last enqueued games) are removed; otherwise they
   * stay for the next run to collect.
   */
  async close(finished: boolean): Promise<void> {
    try {
      await Promise.all(this.removing);
      await this.report();
      if (finished) for (const id of new Set([...this.batchOf.values()].filter((b) => !b.failed).map((b) => b.id))) await this.queue.remove(id).catch(() => 0);
    } catch {
      // Redis gone: nothing more to tell it
    }
    await this.publisher?.close();
    await Promise.all([this.events.close().catch(() => {}), this.queue.close().catch(() => {})]);
    await this.redis.quit().catch(() => {});
  }
}
