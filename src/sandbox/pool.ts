/**
 * The sandbox pool: at most `concurrency` runs at once (each holds a slot: its JS worker process
 * and its Python uid), a FIFO queue with back-pressure behind them, and cancellation. JavaScript
 * runs in worker processes forked with --no-node-snapshot (isolated-vm inside; a crash there ends
 * only that worker, which is restarted); Python runs are spawned per batch (python-runner.ts).
 * JavaScript code runs are pipelined (`run`): a slot's worker may hold the next run while one
 * runs, so it goes from one to the next without waiting for the host. Nothing here blocks the
 * event loop: every run is another process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../package-root';

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
   * JavaScript runs sent ahead to a slot's worker (see `run`): with 2 (the default) the next run
   * already waits in the worker when the current one ends, so the worker goes from one to the
   * next without a round trip to the host. 1 sends a run only when the slot's worker is idle.
   */
  pipeline?: number;
}

/** A request sent to a worker, kept until the worker answers it (in order: the first is running). */
interface Job {
  readonly id: number;
  /** What was sent: sent again as it is to a fresh worker when an earlier job killed this one. */
  readonly message: string | { id: number; op: string; req: unknown };
  readonly wallMs: number;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** The caller was already answered (cancelled while waiting in the worker): the worker's answer is dropped. */
  settled: boolean;
}

/** One slot: a place to run, with its lazily started JS worker. */
export class Slot {
  worker: ChildProcess | undefined;
  /** Requests sent to `worker` and not yet answered, in the order it runs them: the first is running. */
  readonly inflight: Job[] = [];
  /** JSON-text requests dispatched in this tick, sent to the worker together as one message (a JSON array). */
  outbox: string[] = [];
  /** The running (first) job's wall clock. */
  clock: NodeJS.Timeout | undefined;
  /** Held by one run (`withSlot`, `hold`). */
  busy = false;
  /** Pipelined JavaScript runs on it (`run`). */
  pipelined = 0;
  constructor(readonly index: number) {}
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
  private readonly slots: Slot[];
  private readonly waiting: Waiter[] = [];
  private nextId = 1;
  private closed = false;
  /** Runs completed, JS worker processes started, runs cancelled while waiting in a worker that it skipped (for status lines and tests). */
  readonly stats = { runs: 0, workersStarted: 0, skipped: 0 };

  constructor(options: PoolOptions = {}) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? Math.min(8, availableParallelism())));
    this.maxQueue = options.maxQueue ?? 10_000;
    this.depth = Math.max(1, Math.floor(options.pipeline ?? 2));
    this.slots = Array.from({ length: this.concurrency }, (_, i) => new Slot(i));
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
   * `pipeline - 1` earlier runs, which it runs first. Its wall clock (`wallMs`) starts when the
   * runs ahead of it are answered; on abort it is dropped from the worker's queue, or, running,
   * its worker is killed and replaced. A worker lost while running an earlier run does not fail
   * it: it is sent again to a fresh worker.
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
    if (free) {
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
   */
  call(slot: Slot, op: string, req: unknown, wallMs: number, signal?: AbortSignal): Promise<unknown> {
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
    worker.ref();
    (worker.channel as { ref?: () => void } | undefined)?.ref?.();
    (worker.stderr as { ref?: () => void } | null)?.ref?.();
    slot.inflight.push(job);
    if (typeof job.message !== 'string') {
      this.flush(slot);
      worker.send(job.message);
    } else if (slot.outbox.push(job.message) === 1) {
      // the runs dispatched in this tick go together: one message, one wake-up of the worker
      queueMicrotask(() => this.flush(slot));
    }
    if (slot.inflight.length === 1) this.startClock(slot);
  }

  /** Sends the slot's waiting JSON-text requests as one message. */
  private flush(slot: Slot): void {
    if (!slot.outbox.length) return;
    const batch = slot.outbox.length === 1 ? slot.outbox[0] : `[${slot.outbox.join(',')}]`;
    slot.outbox = [];
    slot.worker?.send(batch);
  }

  /** The first job's wall clock: past it the worker is killed and the job answered with a timeout. */
  private startClock(slot: Slot): void {
    const head = slot.inflight[0];
    if (!head) return;
    slot.clock = setTimeout(() => this.lose(slot, new WorkerLostError('timeout', `no answer within ${head.wallMs} ms`)), head.wallMs);
  }

  /** An abort: a job still waiting in the worker is answered now and skipped there; the running one costs the worker. */
  private abort(slot: Slot, job: Job): void {
    if (job.settled) return;
    if (slot.inflight[0] === job) return this.lose(slot, new SandboxCancelledError());
    job.settled = true;
    job.reject(new SandboxCancelledError());
    if (slot.inflight.includes(job)) {
      this.flush(slot);
      slot.worker?.send({ cancel: job.id });
    }
  }

  /**
   * The slot's worker is lost (killed here, or died): its running job fails with `error`; the
   * jobs waiting behind it never started and are sent again to a fresh worker. With no `error`
   * (a worker that retired after its answer) every job left is sent again.
   */
  private lose(slot: Slot, error: Error | null): void {
    clearTimeout(slot.clock);
    this.kill(slot);
    const jobs = slot.inflight.splice(0);
    const head = error ? jobs.shift() : undefined;
    if (head && !head.settled) {
      head.settled = true;
      head.reject(error!);
    }
    for (const job of jobs) {
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
    this.answered(slot, (m ?? {}) as Answer);
  }

  /** The worker's answer to its first job. */
  private answered(slot: Slot, m: Answer): void {
    const head = slot.inflight[0];
    if (!head) return;
    // a worker answers in the order it was asked: anything else and it cannot be trusted with the rest
    if (m?.id !== head.id) return this.lose(slot, new WorkerLostError('crash', 'the sandbox worker answered out of order'));
    clearTimeout(slot.clock);
    slot.inflight.shift();
    if (m.cancelled === true) this.stats.skipped++;
    if (!head.settled) {
      head.settled = true;
      if (m.ok === true) head.resolve(m.res);
      else head.reject(new Error(typeof m.error === 'string' ? m.error : 'worker error'));
    }
    // a worker that could not stop a program's isolate ends after this answer, running nothing more: the rest go to a fresh one
    if (m.retire === true) this.lose(slot, null);
    else this.startClock(slot);
  }

  private workerOf(slot: Slot): ChildProcess {
    if (slot.worker && slot.worker.connected) return slot.worker;
    const child = fork(WORKER(), [], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 16_384) stderr += d;
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
    if (!w || slot.inflight.length) return;
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
