/**
 * The sandbox pool: at most `concurrency` runs at once (each holds a slot: its JS worker process
 * and its Python uid), a FIFO queue with back-pressure behind them, and cancellation. JavaScript
 * runs in worker processes forked with --no-node-snapshot (isolated-vm inside; a crash there ends
 * only that worker, which is restarted); Python runs are spawned per batch (python-runner.ts).
 * Nothing here blocks the event loop: every run is another process.
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
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** The worker the request went to (a replaced worker's exit must not fail its successor's requests). */
  worker: ChildProcess;
}

/** One slot: a place to run, with its lazily started JS worker. */
export class Slot {
  worker: ChildProcess | undefined;
  readonly pending = new Map<number, Pending>();
  busy = false;
  constructor(readonly index: number) {}
}

/** V8's report of a fatal out-of-memory (the worker prints it to stderr as it aborts). */
export const V8_OOM = /JavaScript heap out of memory|Fatal JavaScript out of memory|Fatal JavaScript invalid size error|is_heap_oom = 1|Reached heap limit|Ineffective mark-compacts near heap limit|Fatal process out of memory/;

const WORKER = () => join(packageRoot(), 'src', 'sandbox', 'worker', 'js-worker.cjs');

export class SandboxPool {
  readonly concurrency: number;
  private readonly maxQueue: number;
  private readonly slots: Slot[];
  private readonly waiting: { take: (s: Slot) => void; signal?: AbortSignal; onAbort: () => void }[] = [];
  private nextId = 1;
  private closed = false;
  /** Runs completed and JS worker processes started (for status lines and tests). */
  readonly stats = { runs: 0, workersStarted: 0 };

  constructor(options: PoolOptions = {}) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? Math.min(8, availableParallelism())));
    this.maxQueue = options.maxQueue ?? 10_000;
    this.slots = Array.from({ length: this.concurrency }, (_, i) => new Slot(i));
  }

  /** Runs waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs holding a slot. */
  get running(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  /** Runs `f` on a free slot (waiting in FIFO order); the slot is released when `f` settles. */
  async withSlot<T>(f: (slot: Slot) => Promise<T>, signal?: AbortSignal): Promise<T> {
    // one decision may queue hundreds of runs on its signal (a mutation search): not a leak
    if (signal) setMaxListeners(0, signal);
    const slot = await this.acquire(signal);
    try {
      return await f(slot);
    } finally {
      this.stats.runs++;
      this.release(slot);
    }
  }

  /** Takes a slot until `release` is called (kernel-lab sessions hold one for their lifetime). */
  async hold(signal?: AbortSignal): Promise<{ slot: Slot; release: () => void }> {
    const slot = await this.acquire(signal);
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

  private acquire(signal?: AbortSignal): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('the sandbox pool is closed'));
    if (signal?.aborted) return Promise.reject(new SandboxCancelledError());
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    if (this.waiting.length >= this.maxQueue) return Promise.reject(new SandboxBusyError(this.waiting.length));
    return new Promise((resolve, reject) => {
      const entry = {
        take: (s: Slot) => {
          signal?.removeEventListener('abort', entry.onAbort);
          resolve(s);
        },
        signal,
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

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next && !this.closed) next.take(slot);
    else {
      slot.busy = false;
      this.idle(slot);
    }
  }

  /** Sends one request to the slot's JS worker; kills the worker after `wallMs` or on abort. */
  call(slot: Slot, op: string, req: unknown, wallMs: number, signal?: AbortSignal): Promise<unknown> {
    const worker = this.workerOf(slot);
    const id = this.nextId++;
    worker.ref();
    (worker.channel as { ref?: () => void } | undefined)?.ref?.();
    (worker.stderr as { ref?: () => void } | null)?.ref?.();
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        slot.pending.delete(id);
      };
      const timer = setTimeout(() => {
        done();
        this.kill(slot);
        reject(new WorkerLostError('timeout', `no answer within ${wallMs} ms`));
      }, wallMs);
      const onAbort = () => {
        done();
        this.kill(slot);
        reject(new SandboxCancelledError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.pending.set(id, {
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
        worker,
      });
      worker.send({ id, op, req });
    });
  }

  private workerOf(slot: Slot): ChildProcess {
    if (slot.worker && slot.worker.connected) return slot.worker;
    const child = fork(WORKER(), [], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 16_384) stderr += d;
    });
    child.on('message', (m: { id?: number; ok?: boolean; res?: unknown; error?: string; retire?: boolean }) => {
      if (typeof m?.id !== 'number') return;
      const p = slot.pending.get(m.id);
      if (!p) return;
      if (m.ok) p.resolve(m.res);
      else p.reject(new Error(m.error ?? 'worker error'));
      // a worker that could not stop a program's isolate ends after this answer: the next request goes to a fresh one
      if (m.retire && slot.worker === child) this.kill(slot);
    });
    child.on('exit', (code, sig) => {
      if (slot.worker === child) slot.worker = undefined;
      const oom = V8_OOM.test(stderr);
      const detail = `the sandbox worker died (${sig ?? `exit ${code}`})${oom ? ': V8 heap out of memory' : stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`;
      for (const p of [...slot.pending.values()]) if (p.worker === child) p.reject(new WorkerLostError(oom ? 'out-of-memory' : 'crash', detail));
    });
    child.on('error', () => undefined);
    slot.worker = child;
    this.stats.workersStarted++;
    return child;
  }

  private kill(slot: Slot): void {
    slot.worker?.kill('SIGKILL');
    slot.worker = undefined;
  }

  /** An idle worker must not keep the process alive. */
  private idle(slot: Slot): void {
    const w = slot.worker;
    if (!w || slot.pending.size) return;
    w.unref();
    (w.channel as { unref?: () => void } | undefined)?.unref?.();
    (w.stderr as { unref?: () => void } | null)?.unref?.();
  }

  /** Stops every worker; waiting runs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.onAbort();
    for (const s of this.slots) this.kill(s);
  }
}
