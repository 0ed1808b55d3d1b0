/**
 * `arena worker`: plays match jobs from the env queues in Redis (BullMQ) — each job a batch of
 * plans, played one after another — and returns every plan's result with its event log (packed:
 * src/store/event-log.ts) in the job's return value; the league's scheduler records them. A worker may run anywhere
 * that reaches Redis: files the plans name come by content hash (src/scale/blob-store.ts), and
 * its matches' events go live to spectator servers through Redis (src/scale/live-publisher.ts).
 *
 * Failures: an env that throws is that plan's recorded failure at once (retrying cannot help; the
 * job's other plans are played); any other error fails the whole job, retried by BullMQ up to the
 * job's attempts (every plan of it played again from its seed); a worker that dies (kill -9, a crash, a
 * watchdog stop) leaves its job locked until the lock expires, then a live worker's stalled-job
 * check puts it back (`attempts - 1` times, then it fails: a poisoned job). Closing finishes the
 * matches being played, then stops taking jobs.
 */
import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import { EventBus } from '../../src/bus/event-bus';
import type { Registry } from '../../src/core/registry';
import { MatchFailureError } from '../../src/match/match-failure';
import { BlobStore } from '../../src/scale/blob-store';
import { BULL_PREFIX, QUEUES_KEY, queueName, workerKey } from '../../src/scale/keys';
import { LivePublisher } from '../../src/scale/live-publisher';
import { eventLogMessage, packEventLog } from '../../src/store/event-log';
import { connectRedis, redisOptions, type RedisTarget } from '../../src/scale/redis-connection';
import { planKey, type MatchPlan } from '../engine/match-plan';
import { playPlan } from '../engine/play-plan';
import { batchKeyOf, failureText, type MatchJob, type MatchJobResult, type PlanResult } from './match-job';

/** How to run a worker. */
export interface MatchWorkerOptions {
  redis: RedisTarget;
  registry: Registry;
  /** Matches played at once per env queue (default 1). */
  concurrency?: number;
  /** Env ids to play (an id without version matches every version); default: every queue the schedulers announce. */
  envs?: string[];
  /** Folder of files fetched by content. */
  cacheDir: string;
  /** Name shown on jobs and in `league status` (default host-pid). */
  name?: string;
  /** Job lock in ms: a dead worker's job is retried this long after it died, at most (default 30,000). */
  lockMs?: number;
  /** Starts of a job (its worker died each time) before it is a recorded failure (default 3). */
  attempts?: number;
  /** Publish match events for spectators (default true). */
  live?: boolean;
  log?: (line: string) => void;
  /** Called after every job (done or failed). */
  onJob?: (matchId: string, ok: boolean) => void;
}

/** What a worker has done. */
export interface WorkerStats {
  done: number;
  failed: number;
  active: number;
}

/** Whether a queue's env id is one of the `--envs` (an id without its version suffix matches every version). */
export function wantsEnv(envs: readonly string[] | undefined, envId: string): boolean {
  if (!envs?.length) return true;
  return envs.some((e) => e === envId || e === envId.replace(/-v\d+$/, ''));
}

/** A running worker process's job consumers (one BullMQ Worker per env queue). */
export class MatchWorkers {
  readonly stats: WorkerStats = { done: 0, failed: 0, active: 0 };
  readonly name: string;
  private readonly workers = new Map<string, Worker<MatchJob, MatchJobResult>>();
  private readonly attempts = new Map<string, number>();
  private readonly bus = new EventBus();
  private readonly redis: Redis;
  private readonly blobs: BlobStore;
  private readonly publisher: LivePublisher | null;
  private readonly startedAt = Date.now();
  private timer: NodeJS.Timeout | null = null;
  private closing = false;

  private constructor(private readonly o: MatchWorkerOptions) {
    this.name = o.name ?? `${hostname()}-${process.pid}`;
    this.redis = connectRedis(o.redis, { name: `arena-worker:${this.name}`, log: o.log });
    this.blobs = new BlobStore(this.redis, o.cacheDir);
    this.publisher = o.live === false ? null : new LivePublisher(this.redis, this.bus, { attemptOf: (id) => this.attempts.get(id) ?? 1 });
  }

  /** Connects and starts taking jobs from the matching queues (rescanned every 2 s for new ones). */
  static async start(o: MatchWorkerOptions): Promise<MatchWorkers> {
    const w = new MatchWorkers(o);
    await w.scan();
    await w.beat();
    w.timer = setInterval(() => {
      void w.scan().catch(() => {});
      void w.beat().catch(() => {});
    }, 2000);
    w.timer.unref();
    return w;
  }

  /** The env queues this worker listens to. */
  queues(): string[] {
    return [...this.workers.keys()];
  }

  private async scan(): Promise<void> {
    if (this.closing) return;
    const announced = await this.redis.smembers(QUEUES_KEY);
    const wanted = new Set([...announced.filter((id) => wantsEnv(this.o.envs, id)), ...(this.o.envs ?? []).filter((e) => /-v\d+$/.test(e))]);
    for (const envId of wanted) {
      if (this.workers.has(envId) || this.closing) continue;
      const worker = new Worker<MatchJob, MatchJobResult>(queueName(envId), (job) => this.process(job), {
        connection: redisOptions(this.o.redis, `arena-worker:${this.name}`),
        prefix: BULL_PREFIX,
        name: this.name,
        concurrency: this.o.concurrency ?? 1,
        lockDuration: this.o.lockMs ?? 30_000,
        stalledInterval: Math.max(500, Math.floor((this.o.lockMs ?? 30_000) / 2)),
        maxStalledCount: Math.max(0, (this.o.attempts ?? 3) - 1),
        removeOnComplete: { count: 100_000 },
        removeOnFail: { count: 100_000 },
      });
      worker.on('error', () => {}); // connection errors: ioredis reconnects (connectRedis reports the outage)
      worker.on('failed', (job, err) => {
        if (job && job.finishedOn) this.o.log?.(`job ${job.id} (${job.data.plans?.length ?? 0} matches) failed: ${err.message}`);
      });
      this.workers.set(envId, worker);
      this.o.log?.(`worker ${this.name}: playing ${envId} (queue ${queueName(envId)}, concurrency ${this.o.concurrency ?? 1})`);
    }
  }

  private async beat(): Promise<void> {
    const info = { name: this.name, host: hostname(), pid: process.pid, queues: this.queues(), concurrency: this.o.concurrency ?? 1, ...this.stats, startedAt: this.startedAt, seenAt: Date.now() };
    await this.redis.set(workerKey(this.name), JSON.stringify(info), 'EX', 15);
  }

  private async process(job: Job<MatchJob, MatchJobResult>): Promise<MatchJobResult> {
    const { plans, key } = job.data;
    // each plan's key is hashed once: for the batch's key here, and for its result
    const keys = Array.isArray(plans) ? plans.map(planKey) : [];
    if (!keys.length || batchKeyOf(keys) !== key) throw new UnrecoverableError(`job ${job.id}: its plans do not match its key (a damaged job, or one of another version)`);
    const results: PlanResult[] = [];
    for (const [i, plan] of plans.entries()) results.push(await this.playOne(job, plan, keys[i]));
    return { key, results, worker: this.name };
  }

  /** Plays one plan of a job (`key`: its plan key): its result, a failed result when its env threw; throws (the whole job is retried) on any other error. */
  private async playOne(job: Job<MatchJob, MatchJobResult>, plan: MatchPlan, key: string): Promise<PlanResult> {
    this.stats.active++;
    this.attempts.set(plan.matchId, job.attemptsStarted);
    try {
      for (const f of plan.files) if (await this.blobs.ensureAt(f)) this.o.log?.(`worker ${this.name}: wrote ${f.path} from the store (sha256 ${f.sha256.slice(0, 12)}…)`);
      let done;
      try {
        done = await playPlan(plan, { registry: this.o.registry, bus: this.bus, localFile: (ref) => this.blobs.cached(ref) });
      } catch (e) {
        if (!(e instanceof MatchFailureError)) throw e;
        // retrying cannot help: this match is a recorded failure, the job's other matches are played
        this.stats.failed++;
        this.o.onJob?.(plan.matchId, false);
        this.o.log?.(`match ${plan.matchId} failed: ${e.message}`);
        return { key, ok: false, reason: failureText({ failedReason: e.message, attemptsMade: 1, stalledCounter: job.stalledCounter }) };
      }
      if (!done) throw new Error(`match ${plan.matchId} was aborted (an effect failed?)`);
      this.stats.done++;
      this.o.onJob?.(plan.matchId, true);
      return { key, ok: true, played: done.played, log: eventLogMessage(packEventLog(plan.matchId, done.events)) };
    } catch (e) {
      this.stats.failed++;
      this.o.onJob?.(plan.matchId, false);
      throw e;
    } finally {
      this.stats.active--;
      this.attempts.delete(plan.matchId);
    }
  }

  /** Stops taking jobs, finishes the matches being played, then disconnects. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    await this.publisher?.close();
    await this.redis.del(workerKey(this.name)).catch(() => {});
    await this.redis.quit().catch(() => {});
  }
}
