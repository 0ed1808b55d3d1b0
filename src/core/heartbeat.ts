/**
 * The heartbeat: where a thread running user code (env members, agents' `act`, user modules
 * loading) is right now, written into a SharedArrayBuffer so that another thread can tell a
 * hang from slow progress and name the culprit. The CLI runs each command in a worker thread
 * and watches its heartbeat from the main thread (app/cli/supervisor.ts); code here only
 * writes it, and only when one is installed, so a library user pays one null check.
 *
 * Layout (Int32 slots, then a float64 seed, then a UTF-8 JSON context):
 * count (bumped on every enter and leave), phase, what (env member code or seat), step,
 * limit (ms a hang may last in the current phase, 0 = the watcher's default), stoppable
 * (commands that stop cleanly on a signal), context length, context version.
 */
import type { Env } from './env';

/**
 * What the watched thread is doing: Idle (framework code, or waiting for I/O or a promise: not
 * watched), Env (inside an env member; `what` = its code in {@link ENV_MEMBERS}), Agent (inside
 * an agent's synchronous `act`; `what` = the seat), Load (loading a user module; its path is in
 * the context).
 */
export const Phase = { Idle: 0, Env: 1, Agent: 2, Load: 3 } as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

/** Env members the heartbeat can name; codes are indices. */
export const ENV_MEMBERS = [
  'init', 'seats', 'toAct', 'effect', 'sampleEffectResult', 'legalActions', 'validateAction', 'step', 'isTerminal',
  'returns', 'outcome', 'observe', 'render', 'sampleAction', 'summary', 'aggregate', 'publicParams', 'actionVisibility',
  'defaultAction', 'forfeitReturns', 'privateVariants', 'resolveParams', 'utilityFor', 'maxLengthFor', 'phase',
] as const;

const COUNT = 0;
const PHASE = 1;
const WHAT = 2;
const STEP = 3;
const LIMIT = 4;
const STOPPABLE = 5;
const CTX_LEN = 6;
const CTX_VERSION = 7;
const INTS = 8;
const SEED_OFFSET = INTS * 4; // 8-byte aligned
const CTX_OFFSET = SEED_OFFSET + 8;
const CTX_BYTES = 4096;

/** Bytes of a heartbeat buffer. */
export const HEARTBEAT_BYTES = CTX_OFFSET + CTX_BYTES;

/** A fresh heartbeat buffer (all zero: idle). */
export function createHeartbeatBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEARTBEAT_BYTES);
}

/** What the watched code runs in: the command, env, match, seed, agents, players, the check or module. */
export interface WatchContext {
  [key: string]: string | number | boolean | string[] | undefined;
}

/** The writing side, used by the thread that runs user code. */
export class HeartbeatWriter {
  private readonly i32: Int32Array;
  private readonly seed: Float64Array;
  private readonly bytes: Uint8Array;
  private readonly ctx: WatchContext = {};
  private readonly encoder = new TextEncoder();
  private readonly wrapped = new WeakMap<Env, Env>();

  constructor(readonly buffer: SharedArrayBuffer) {
    this.i32 = new Int32Array(buffer, 0, INTS);
    this.seed = new Float64Array(buffer, SEED_OFFSET, 1);
    this.bytes = new Uint8Array(buffer, CTX_OFFSET, CTX_BYTES);
  }

  /** Enters user code: an env member (`what` = member code), an agent (`what` = seat) or a module load. */
  enter(phase: Phase, what: number): void {
    const a = this.i32;
    a[PHASE] = phase;
    a[WHAT] = what;
    a[COUNT]++;
  }

  /** Back in framework code (or waiting). */
  leave(): void {
    const a = this.i32;
    a[PHASE] = Phase.Idle;
    a[COUNT]++;
  }

  /** The episode seed and step the following calls belong to. */
  at(seed: number, step: number): void {
    this.seed[0] = seed;
    this.i32[STEP] = step;
  }

  /** The step the following calls belong to. */
  atStep(step: number): void {
    this.i32[STEP] = step;
  }

  /** How long (ms) a call in the current context may take before it counts as hung; 0 = the watcher's default. */
  limit(ms: number): void {
    this.i32[LIMIT] = Number.isFinite(ms) && ms > 0 ? Math.min(ms, 2 ** 31 - 1) : 0;
  }

  /** Counts commands that stop cleanly on a signal (+1 when one starts listening, -1 when it stops). */
  stoppable(delta: 1 | -1): void {
    Atomics.add(this.i32, STOPPABLE, delta);
  }

  /** Sets context fields (undefined removes one); rewritten into the buffer only when something changed. */
  context(fields: WatchContext): void {
    let changed = false;
    for (const [k, v] of Object.entries(fields)) {
      const old = this.ctx[k];
      if (old === v || (Array.isArray(old) && Array.isArray(v) && old.length === v.length && old.every((x, i) => x === v[i]))) continue;
      if (v === undefined) delete this.ctx[k];
      else this.ctx[k] = Array.isArray(v) ? [...v] : v;
      changed = true;
    }
    if (!changed) return;
    let text = JSON.stringify(this.ctx);
    if (text.length * 3 > CTX_BYTES) text = JSON.stringify(Object.fromEntries(Object.entries(this.ctx).map(([k, v]) => [k, String(v).slice(0, 200)])));
    Atomics.add(this.i32, CTX_VERSION, 1);
    const { written } = this.encoder.encodeInto(text, this.bytes);
    this.i32[CTX_LEN] = written;
    Atomics.add(this.i32, CTX_VERSION, 1);
    Atomics.notify(this.i32, CTX_VERSION);
  }

  /**
   * The env with every member marking the heartbeat (phase Env, the member's code) while it
   * runs; one wrapper per env, cached.
   */
  watchEnv<E extends Env>(env: E): E {
    let w = this.wrapped.get(env);
    if (!w) {
      const copy: Record<string, unknown> = { ...env };
      ENV_MEMBERS.forEach((name, code) => {
        const f = (env as unknown as Record<string, unknown>)[name];
        if (typeof f !== 'function') return;
        copy[name] = (...args: unknown[]) => {
          this.enter(Phase.Env, code);
          try {
            return (f as (...a: unknown[]) => unknown)(...args);
          } finally {
            this.leave();
          }
        };
      });
      w = copy as unknown as Env;
      this.wrapped.set(env, w);
      this.wrapped.set(w, w);
    }
    return w as E;
  }
}

let installed: HeartbeatWriter | null = null;

/** Makes `buffer` this thread's heartbeat (the CLI's worker does this first); null uninstalls it. */
export function installHeartbeat(buffer: SharedArrayBuffer | null): HeartbeatWriter | null {
  installed = buffer ? new HeartbeatWriter(buffer) : null;
  return installed;
}

/** This thread's heartbeat, or null when nobody watches it. */
export function heartbeat(): HeartbeatWriter | null {
  return installed;
}

/** One look at a heartbeat, from the watching thread. */
export interface HeartbeatReading {
  count: number;
  phase: Phase;
  /** The env member's name (phase Env) or null. */
  member: string | null;
  /** The seat (phase Agent) or null. */
  seat: number | null;
  step: number;
  seed: number;
  limitMs: number;
  stoppable: boolean;
  context: WatchContext;
}

/** How long a context reading waits for a writer caught in the middle of a write. */
const READ_PATIENCE_MS = 250;

/** Blocks until the context version moves on from `v` (at most 1 ms); spins where a thread may not block. */
function waitForChange(a: Int32Array, v: number): void {
  try {
    Atomics.wait(a, CTX_VERSION, v, 1);
  } catch {
    // a browser's main thread may not block: the caller's loop spins instead
  }
}

/**
 * Reads a heartbeat buffer (the context is parsed only when `withContext`; an empty context
 * only when a writer stayed mid-write for READ_PATIENCE_MS).
 */
export function readHeartbeat(buffer: SharedArrayBuffer, withContext = false): HeartbeatReading {
  const a = new Int32Array(buffer, 0, INTS);
  const phase = Atomics.load(a, PHASE) as Phase;
  const what = Atomics.load(a, WHAT);
  let context: WatchContext = {};
  if (withContext) {
    // A seqlock: the writer makes the version odd while it writes. A reading that meets a write
    // waits for it to end (a signal must not read an empty context because a match began) and
    // gives up only if a writer stays mid-write for READ_PATIENCE_MS (a thread stopped there).
    const giveUpAt = Date.now() + READ_PATIENCE_MS;
    for (;;) {
      const v = Atomics.load(a, CTX_VERSION);
      if (v % 2 === 0) {
        const len = Atomics.load(a, CTX_LEN);
        const text = new TextDecoder().decode(new Uint8Array(buffer, CTX_OFFSET, len).slice());
        if (Atomics.load(a, CTX_VERSION) === v) {
          try {
            context = text ? (JSON.parse(text) as WatchContext) : {};
          } catch {
            context = {};
          }
          break;
        }
      }
      if (Date.now() >= giveUpAt) break;
      waitForChange(a, v);
    }
  }
  return {
    count: Atomics.load(a, COUNT),
    phase,
    member: phase === Phase.Env ? (ENV_MEMBERS[what] ?? `member ${what}`) : null,
    seat: phase === Phase.Agent ? what : null,
    step: Atomics.load(a, STEP),
    seed: new Float64Array(buffer, SEED_OFFSET, 1)[0],
    limitMs: Atomics.load(a, LIMIT),
    stoppable: Atomics.load(a, STOPPABLE) > 0,
    context,
  };
}
