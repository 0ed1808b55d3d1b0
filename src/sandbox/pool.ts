/**
 * The sandbox pool: at most `concurrency` runs at once (each holds a slot: its JS worker process
 * and its Python uid), a FIFO queue with back-pressure behind them, and cancellation. JavaScript
 * runs in worker processes forked with --no-node-snapshot (isolated-vm inside; a crash there ends
 * only that worker, which is restarted); Python runs are spawned per batch (python-runner.ts).
 * JavaScript code runs are pipelined (`run`): a slot's worker may hold the next runs while one
 * runs, so it goes from one to the next without waiting for the host; the runs dispatched to a
 * worker in one tick go as one batch, answered by one message. Nothing here blocks the event
 * loop: every run is another process.
 *
 * The batch rule. A batch is answered when its last run ends, so while it runs the host does not
 * know which of its runs is running. A worker lost in the middle of a batch (it died, or the
 * batch ran past the sum of its runs' wall clocks) blames none of them: each of its runs that was
 * not answered is sent again alone, one per message (answered at once), and only a run that
 * loses a worker while running alone is failed by it. So no answer is lost and no run is blamed
 * for another's crash; a crashing run costs its batch's innocent runs a second run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../package-root';
import { Deadline } from './deadline';

/** The run was refused because the queue is full. */
export class SandboxBusyError extends Error {
  constructor(queued: number) {
    super(`the sandbox queue is full (${queued} runs waiting); slow down or raise maxQueue`);
    this.name = 'SandboxBusyError';
  }
}

/** The run was cancelled (its AbortSignal fired). */
export class SandboxCancelledError extends Error {
  constructor() {
    super('sandbox run cancelled');
    this.name = 'SandboxCancelledError';
  }
}

/**
 * A worker process died or stopped answering while running a request: it ran past the wall
 * clock (`timeout`), V8 ended it for want of memory (`out-of-memory`: a program's allocation
 * that the isolate's limit could not stop, e.g. a string or array built by one builtin call), or
 * it died otherwise (`crash`).
 */
export class WorkerLostError extends Error {
  constructor(readonly why: 'timeout' | 'crash' | 'out-of-memory', detail: string) {
    super(detail);
    this.name = 'WorkerLostError';
  }
}

export interface PoolOptions {
  /** Concurrent runs; default: the CPU count (at most 8). */
  concurrency?: number;
  /** Runs allowed to wait; beyond it `acquire` throws SandboxBusyError. Default 10,000. */
  maxQueue?: number;
  /**
   * JavaScript runs a slot's worker may hold at once (see `run`): with more than 1 the next runs
   * already wait in the worker when the current one ends, so the worker goes from one to the
   * next without a round trip to the host, and the runs dispatched together go as one batch
   * answered by one message (a run's answer then waits for the rest of its batch). Default 4.
   * 1 sends a run only when the slot's worker is idle.
   */
  pipeline?: number;
  /**
   * Whether the runs dispatched to a worker together go as one batch answered by one message
   * (default true). False sends each run as its own message, answered as soon as it ends: the
   * host hears of each run at once (on two idle cores it can overlap more with the worker), at
   * two process switches per run (docs/architecture.md, "The sandbox", measured).
   */
  batch?: boolean;
  /**
   * Whether a lone one-test code run makes synchronous isolate calls (default false). They cost a
   * tenth of an asynchronous call's CPU (docs/architecture.md, "JavaScript throughput"), but while
   * one runs nothing in the worker can stop a builtin the isolate's timeout cannot interrupt (a
   * 256 MB string flattened): the pool's wall clock for the run (`jsWallMs`, a few times the
   * per-test limit) is then its only watchdog, so such a program holds its slot that long instead
   * of the per-test limit. Off, every run keeps the worker's watchdog at the per-test limit.
   */
  syncCalls?: boolean;
}

/** A request sent to a worker, kept until the worker answers it. */
interface Job {
  readonly id: number;
  /** What was sent: sent again as it is to a fresh worker when an earlier job killed this one. */
  readonly message: string | { id: number; op: string; req: unknown };
  readonly wallMs: number;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** The caller was already answered (cancelled while waiting in the worker): the worker's answer is dropped. */
  settled: boolean;
  /** Its batch lost a worker: from then on it is sent alone, so a worker it loses is its own doing (the batch rule). */
  alone: boolean;
}

/** What one message to a worker held: one request answered on its own, or a batch answered by one message. */
interface Unit {
  /** Its requests not yet answered, in order (a batch answered in part loses its answered head). */
  jobs: Job[];
  readonly batch: boolean;
}

/** One slot: a place to run, with its lazily started JS worker. */
export class Slot {
  worker: ChildProcess | undefined;
  /** Messages sent to `worker` and not yet answered, in the order it runs them: the first is running. */
  readonly units: Unit[] = [];
  /** JSON-text requests dispatched in this tick, sent to the worker together as one batch. */
  outbox: Job[] = [];
  /** The running (first) unit's wall clock (the sum of its requests' clocks), set by the pool. */
  clock: Deadline | undefined;
  /** That clock's length (ms), for the error that says it ran out. */
  clockMs = 0;
  /** Whether the worker's handles are ref'd (a run is out): they keep the host alive. */
  refd = false;
  /** Held by one run (`withSlot`, `hold`). */
  busy = false;
  /** Pipelined JavaScript runs on it (`run`). */
  pipelined = 0;
  constructor(readonly index: number) {}

  /** Requests dispatched to `worker` and not yet answered, in the order it runs them. */
  get inflight(): Job[] {
    return [...this.units.flatMap((u) => u.jobs), ...this.outbox];
  }
}

/** V8's report of a fatal out-of-memory (the worker prints it to stderr as it aborts). */
export const V8_OOM = /JavaScript heap out of memory|Fatal JavaScript out of memory|Fatal JavaScript invalid size error|is_heap_oom = 1|Reached heap limit|Ineffective mark-compacts near heap limit|Fatal process out of memory/;

const WORKER = () => join(packageRoot(), 'src', 'sandbox', 'worker', 'js-worker.cjs');

/** A worker's answer to a request (validated field by field where it is read). */
interface Answer {
  id?: unknown;
  ok?: unknown;
  res?: unknown;
  error?: unknown;
  retire?: unknown;
  cancelled?: unknown;
}

/** A run waiting for a slot: one that holds a slot (`withSlot`, `hold`) or a pipelined JavaScript run (`run`). */
interface Waiter {
  readonly pipelined: boolean;
  take: (s: Slot) => void;
  onAbort: () => void;
}

export class SandboxPool {
  readonly concurrency: number;
  private readonly maxQueue: number;
  private readonly depth: number;
  private readonly batching: boolean;
  /** Lone one-test code runs make synchronous isolate calls (`PoolOptions.syncCalls`): the wall clock of `jsWallMs` is their watchdog. */
  readonly syncCalls: boolean;
  private readonly slots: Slot[];
  private readonly waiting: Waiter[] = [];
  private nextId = 1;
  private closed = false;
  /**
   * Runs completed, JS worker processes started, runs cancelled while waiting in a worker that it
   * skipped, messages sent to workers (a batch is one), runs sent alone after their batch lost a
   * worker (for status lines, benches and tests).
   */
  readonly stats = { runs: 0, workersStarted: 0, skipped: 0, messages: 0, isolated: 0 };

  constructor(options: PoolOptions = {}) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? Math.min(8, availableParallelism())));
    this.maxQueue = options.maxQueue ?? 10_000;
    this.depth = Math.max(1, Math.floor(options.pipeline ?? 4));
    this.batching = options.batch ?? true;
    this.syncCalls = options.syncCalls === true;
    this.slots = Array.from({ length: this.concurrency }, (_, i) => new Slot(i));
    for (const slot of this.slots) slot.clock = new Deadline(() => this.lose(slot, new WorkerLostError('timeout', `no answer within ${slot.clockMs} ms`)));
  }

  /** Runs waiting to start: in the queue, or sent ahead to a worker behind its running one. */
  get queued(): number {
    return this.waiting.length + this.slots.reduce((n, s) => n + Math.max(0, s.pipelined - 1), 0);
  }

  /** Runs holding a slot (a slot's pipelined runs run one at a time: one of them is running). */
  get running(): number {
    return this.slots.filter((s) => s.busy || s.pipelined > 0).length;
  }

  /** Process ids of the running JS workers (for benchmarks that count their CPU time). */
  workerPids(): number[] {
    return this.slots.flatMap((s) => (s.worker?.pid !== undefined ? [s.worker.pid] : []));
  }

  /** Runs `f` on a free slot (waiting in FIFO order); the slot is released when `f` settles. */
  async withSlot<T>(f: (slot: Slot) => Promise<T>, signal?: AbortSignal): Promise<T> {
    // one decision may queue hundreds of runs on its signal (a mutation search): not a leak
    if (signal) setMaxListeners(0, signal);
    const slot = await this.acquire(false, signal);
    try {
      return await f(slot);
    } finally {
      this.stats.runs++;
      this.release(slot);
    }
  }

  /** Takes a slot until `release` is called (kernel-lab sessions hold one for their lifetime). */
  async hold(signal?: AbortSignal): Promise<{ slot: Slot; release: () => void }> {
    const slot = await this.acquire(false, signal);
    let released = false;
    return {
      slot,
      release: () => {
        if (released) return;
        released = true;
        this.stats.runs++;
        this.release(slot);
      },
    };
  }

  /**
   * Runs one JavaScript request (`op` of the worker, plain JSON data) in FIFO order with the other
   * runs, pipelined: it may be sent to a slot's worker while that worker still runs up to
   * `pipeline - 1` earlier runs, which it runs first; the runs dispatched to a worker in one tick
   * go as one batch. Its wall clock (`wallMs`) starts when the messages ahead of it are answered
   * (a batch's clock is the sum of its runs'); on abort it is answered at once and dropped from
   * the worker's queue, or, running, its worker ends (killed here, or, inside a batch, by itself
   * after answering the runs before it) and is replaced. A worker lost while running an earlier
   * run does not fail it: it is sent again to a fresh worker (the batch rule at the top).
   */
  async run(op: string, req: unknown, wallMs: number, signal?: AbortSignal): Promise<unknown> {
    if (signal) setMaxListeners(0, signal);
    const slot = await this.acquire(true, signal);
    try {
      return await this.call(slot, op, req, wallMs, signal);
    } finally {
      slot.pipelined--;
      this.stats.runs++;
      this.pump();
      this.idle(slot);
    }
  }

  private acquire(pipelined: boolean, signal?: AbortSignal): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('the sandbox pool is closed'));
    if (signal?.aborted) return Promise.reject(new SandboxCancelledError());
    const free = this.waiting.length ? undefined : this.slotFor(pipelined);
    // a run sent ahead to a busy worker waits there: it counts against maxQueue like one waiting here
    if (free && (free.pipelined === 0 || this.queued < this.maxQueue)) {
      this.occupy(free, pipelined);
      return Promise.resolve(free);
    }
    if (this.queued >= this.maxQueue) return Promise.reject(new SandboxBusyError(this.queued));
    return new Promise((resolve, reject) => {
      const entry: Waiter = {
        pipelined,
        take: (s: Slot) => {
          signal?.removeEventListener('abort', entry.onAbort);
          resolve(s);
        },
        onAbort: () => {
          // also called by close(): a signal may outlive the pool, and its listener would keep the pool
          signal?.removeEventListener('abort', entry.onAbort);
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new SandboxCancelledError());
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** A slot for a run: a free one, or for a pipelined run the least loaded slot with room in its worker's queue. */
  private slotFor(pipelined: boolean): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) {
      if (s.busy) continue;
      if (s.pipelined === 0) return s;
      if (pipelined && s.pipelined < this.depth && (!best || s.pipelined < best.pipelined)) best = s;
    }
    return best;
  }

  private occupy(slot: Slot, pipelined: boolean): void {
    if (pipelined) slot.pipelined++;
    else slot.busy = true;
  }

  /** Hands free places to the waiting runs, first come first served. */
  private pump(): void {
    while (this.waiting.length && !this.closed) {
      const slot = this.slotFor(this.waiting[0].pipelined);
      if (!slot) return;
      const next = this.waiting.shift()!;
      this.occupy(slot, next.pipelined);
      next.take(slot);
    }
  }

  private release(slot: Slot): void {
    slot.busy = false;
    this.pump();
    this.idle(slot);
  }

  /**
   * Sends one request to the slot's JS worker. The worker answers its requests in order; the
   * first unanswered one is running, under its wall clock (`wallMs`): past it the worker is
   * killed. An abort drops a request still waiting in the worker, or kills the worker running it.
   * A closed pool refuses (it starts no worker after close).
   */
  call(slot: Slot, op: string, req: unknown, wallMs: number, signal?: AbortSignal): Promise<unknown> {
    // a slot held across close() (a kernel-lab session) must not start a worker that nothing will stop
    if (this.closed) return Promise.reject(new Error('the sandbox pool is closed'));
    if (signal?.aborted) return Promise.reject(new SandboxCancelledError());
    const id = this.nextId++;
    // plain-data requests cross as JSON text: Node's structured-clone channel costs more per message
    const message = op === 'tests' ? JSON.stringify({ id, op, req }) : { id, op, req };
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => this.abort(slot, job);
      const finish = () => signal?.removeEventListener('abort', onAbort);
      const job: Job = {
        id,
        message,
        wallMs,
        settled: false,
        alone: false,
        resolve: (v) => (finish(), resolve(v)),
        reject: (e) => (finish(), reject(e)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.dispatch(slot, job);
    });
  }

  /** Sends `job` to the slot's worker (started if need be), behind the jobs it already has. */
  private dispatch(slot: Slot, job: Job): void {
    const worker = this.workerOf(slot);
    if (!slot.refd) {
      slot.refd = true;
      worker.ref();
      (worker.channel as { ref?: () => void } | undefined)?.ref?.();
      (worker.stderr as { ref?: () => void } | null)?.ref?.();
    }
    if (typeof job.message !== 'string' || job.alone || !this.batching) {
      this.flush(slot);
      this.send(slot, { jobs: [job], batch: false }, job.message);
    } else if (slot.outbox.push(job) === 1) {
      // the runs dispatched in this tick go together: one batch, one wake-up of the worker and one answer
      queueMicrotask(() => this.flush(slot));
    }
  }

  /** Sends the slot's waiting JSON-text requests as one message: a batch (a JSON array) when there are several. */
  private flush(slot: Slot): void {
    const jobs = slot.outbox;
    if (!jobs.length) return;
    slot.outbox = [];
    if (jobs.length === 1) this.send(slot, { jobs, batch: false }, jobs[0].message);
    else this.send(slot, { jobs, batch: true }, `[${jobs.map((j) => j.message as string).join(',')}]`);
  }

  private send(slot: Slot, unit: Unit, message: Job['message']): void {
    slot.units.push(unit);
    this.stats.messages++;
    slot.worker?.send(message);
    if (slot.units.length === 1) this.startClock(slot);
  }

  /** The first unit's wall clock (the sum of its requests'): past it the worker is killed (and the unit's runs failed, or sent again alone). */
  private startClock(slot: Slot): void {
    const head = slot.units[0];
    if (!head) return;
    let ms = 0;
    for (const j of head.jobs) ms += j.wallMs;
    slot.clockMs = ms;
    slot.clock?.set(ms);
  }

  /**
   * An abort: a job not yet sent is dropped; one waiting in the worker is answered now and skipped
   * there; one running alone costs the worker (killed here); one inside a batch, which may be
   * running, is answered now and the worker told: it skips it, or, running it, answers the batch
   * so far and ends.
   */
  private abort(slot: Slot, job: Job): void {
    if (job.settled) return;
    const head = slot.units[0];
    if (head && !head.batch && head.jobs[0] === job) return this.lose(slot, new SandboxCancelledError());
    job.settled = true;
    job.reject(new SandboxCancelledError());
    const waiting = slot.outbox.indexOf(job);
    if (waiting >= 0) slot.outbox.splice(waiting, 1);
    else if (slot.units.some((u) => u.jobs.includes(job))) slot.worker?.send({ cancel: job.id });
  }

  /**
   * The slot's worker is lost (killed here, or died): with an `error`, the running unit was the
   * cause — a single request fails with it; a batch's runs are sent again alone (the batch rule).
   * The units behind it never started and are sent again to a fresh worker. With no `error` (a
   * worker that retired after its answer) every request left is sent again.
   */
  private lose(slot: Slot, error: Error | null): void {
    slot.clock?.clear();
    const units = slot.units.splice(0);
    const unsent = slot.outbox;
    this.kill(slot);
    const head = error ? units.shift() : undefined;
    const again: Job[] = [];
    if (head && !head.batch) {
      const culprit = head.jobs[0];
      if (culprit && !culprit.settled) {
        culprit.settled = true;
        culprit.reject(error!);
      }
    } else if (head && !this.closed) {
      for (const job of head.jobs) {
        if (job.settled) continue;
        job.alone = true;
        this.stats.isolated++;
        again.push(job);
      }
    } else if (head) again.push(...head.jobs);
    for (const job of [...again, ...units.flatMap((u) => u.jobs), ...unsent]) {
      if (job.settled) continue;
      if (!this.closed) this.dispatch(slot, job);
      else {
        job.settled = true;
        job.reject(new Error('the sandbox pool is closed'));
      }
    }
  }

  /** A message from the slot's worker: an answer (JSON text for code runs). */
  private received(slot: Slot, child: ChildProcess, raw: unknown): void {
    if (slot.worker !== child) return;
    let m: unknown;
    try {
      m = typeof raw === 'string' ? JSON.parse(raw) : raw;
    } catch {
      m = {};
    }
    this.answered(slot, m ?? {});
  }

  /**
   * The worker's answer to its first unit: one answer, or for a batch the array of its answers in
   * order — all of them, or fewer when the last says `retire` (the rest never started).
   */
  private answered(slot: Slot, m: unknown): void {
    const head = slot.units[0];
    if (!head) return;
    const answers = (head.batch ? (Array.isArray(m) ? m : []) : [m]) as (Answer | null)[];
    const last = answers[answers.length - 1];
    const retire = last?.retire === true;
    const inOrder = answers.length > 0 && answers.length <= head.jobs.length && (retire || answers.length === head.jobs.length) && answers.every((a, i) => a?.id === head.jobs[i].id);
    // a worker answers in the order it was asked: anything else and it cannot be trusted with the rest
    if (!inOrder) return this.lose(slot, new WorkerLostError('crash', 'the sandbox worker answered out of order'));
    slot.clock?.clear();
    const jobs = head.jobs.splice(0, answers.length);
    if (!head.jobs.length) slot.units.shift();
    answers.forEach((a, i) => {
      const job = jobs[i];
      if (a!.cancelled === true) this.stats.skipped++;
      if (job.settled) return;
      job.settled = true;
      if (a!.ok === true) job.resolve(a!.res);
      else job.reject(new Error(typeof a!.error === 'string' ? a!.error : 'worker error'));
    });
    // a worker that could not stop a program's isolate ends after this answer, running nothing more: the rest go to a fresh one
    if (retire) this.lose(slot, null);
    else this.startClock(slot);
  }

  private workerOf(slot: Slot): ChildProcess {
    if (slot.worker && slot.worker.connected) return slot.worker;
    // --sync: a lone one-test code run makes synchronous isolate calls; this pool's wall clock is its watchdog (js-worker.cjs)
    const child = fork(WORKER(), this.syncCalls ? ['--sync'] : [], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-16_384); // its last 16 KiB: the end says why the worker died
    });
    child.on('message', (raw: unknown) => this.received(slot, child, raw));
    child.on('exit', (code, sig) => {
      // a worker killed here was already replaced; this is one that died on its own
      if (slot.worker !== child) return;
      const oom = V8_OOM.test(stderr);
      const detail = `the sandbox worker died (${sig ?? `exit ${code}`})${oom ? ': V8 heap out of memory' : stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`;
      this.lose(slot, new WorkerLostError(oom ? 'out-of-memory' : 'crash', detail));
    });
    child.on('error', () => undefined);
    slot.worker = child;
    slot.refd = true; // a new child's handles start ref'd
    this.stats.workersStarted++;
    return child;
  }

  private kill(slot: Slot): void {
    slot.worker?.kill('SIGKILL');
    slot.worker = undefined;
    slot.outbox = [];
  }

  /** An idle worker must not keep the process alive. */
  private idle(slot: Slot): void {
    const w = slot.worker;
    if (!w || !slot.refd || slot.units.length || slot.outbox.length) return;
    slot.refd = false;
    w.unref();
    (w.channel as { unref?: () => void } | undefined)?.unref?.();
    (w.stderr as { unref?: () => void } | null)?.unref?.();
  }

  /** Stops every worker; waiting runs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.onAbort();
    for (const s of this.slots) this.lose(s, new Error('the sandbox pool is closed'));
  }
}
