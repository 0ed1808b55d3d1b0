/**
 * The sandbox pool's own bookkeeping (pool.ts), driven on a `SandboxPool` directly: the counters
 * and slot release of `withSlot`, `hold` and `run`, the FIFO queue's cancellation and its abort
 * listeners, the slot a pipelined run goes to, a run's wall clock, the abort of a job waiting in
 * a worker or running there, the loss of a worker (its exit status and stderr in the error, the
 * last 16 KiB kept of that stderr, out-of-memory), close() with work in flight, the worker's fork
 * options, and whether the worker keeps the host process alive (ref'd only while a run is out).
 * Each test names the rule it pins; the mutation report (docs/testing.md) names the mutants.
 */
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { SandboxBusyError, SandboxCancelledError, SandboxPool, V8_OOM, WorkerLostError, type Slot } from '../../src/sandbox/pool';
import { until } from './pool-view';

const limits = (timeMs: number) => ({ timeMs, memoryMb: 256, outputBytes: 1_000_000 });
/** A 'tests' request whose program i answers i * i + i (its output text names it). */
const own = (i: number) => ({ program: `function f(x){ return x * ${i} + ${i} }`, entry: 'f', tests: [{ input: [i] }], limits: limits(2000), stopOnTimeout: false });
/** A 'tests' request that loops until the worker's per-test limit `timeMs` stops it. */
const spin = (timeMs: number) => ({ program: 'function f(){ for (;;) {} }', entry: 'f', tests: [{ input: [] }], limits: limits(timeMs), stopOnTimeout: false });
const textOf = (res: unknown) => (res as { outputs: { text?: string }[] }).outputs[0]?.text;

const slotsOf = (pool: SandboxPool) => (pool as unknown as { slots: Slot[] }).slots;
/** A pool with a started worker on its one slot, held (`call` is driven on it directly). */
async function heldPool(options: ConstructorParameters<typeof SandboxPool>[0] = {}) {
  const pool = new SandboxPool({ concurrency: 1, ...options });
  const { slot, release } = await pool.hold();
  await pool.call(slot, 'tests', own(1), 5000); // starts the worker
  return { pool, slot, release, worker: slot.worker! };
}
/** `p`, its rejection marked handled: a test that fails before awaiting it must not leave an unhandled rejection (close() rejects it), which would end jest. */
const handled = <T>(p: Promise<T>): Promise<T> => (p.catch(() => undefined), p);
const rejection = (p: Promise<unknown>) => p.then(() => undefined, (e: Error) => e);

let pool: SandboxPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('withSlot, hold and run: the counters and the slot given back', () => {
  test('withSlot answers what f answers, counts one run and frees the slot (a second withSlot runs)', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    expect(await handled(pool.withSlot(async (s) => s.index + 41))).toBe(41);
    expect(pool.stats.runs).toBe(1);
    expect(pool.running).toBe(0);
    expect(await handled(pool.withSlot(async () => 'again'))).toBe('again');
    expect(pool.stats.runs).toBe(2);
    expect(pool.running).toBe(0);
    expect(pool.stats.workersStarted).toBe(0); // withSlot starts no JS worker
  });

  test('a held slot is freed once, however often release is called', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    const { release } = await pool.hold();
    expect(pool.running).toBe(1);
    release();
    release();
    expect(pool.stats.runs).toBe(1);
    expect(pool.running).toBe(0);
  });

  test('run counts one run', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    expect(textOf(await handled(pool.run('tests', own(3), 5000)))).toBe('12');
    expect(pool.stats.runs).toBe(1);
    expect(pool.running).toBe(0);
  });

  test('one signal may wait on any number of runs (a mutation search): withSlot and run raise no listener-leak warning on it', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    // Node marks an EventTarget warned once it emitted MaxListenersExceededWarning for it (jest swallows the warning itself)
    const warned = (s: AbortSignal) => {
      const k = Object.getOwnPropertySymbols(s).find((x) => x.description === 'events.maxEventTargetListenersWarned');
      expect(k).toBeDefined();
      return (s as unknown as Record<symbol, unknown>)[k!] === true;
    };
    const unlimited = new AbortController();
    for (let i = 0; i < 12; i++) unlimited.signal.addEventListener('abort', () => undefined);
    expect(warned(unlimited.signal)).toBe(true); // the check sees a warning
    for (const queue of [(s: AbortSignal) => handled(pool!.withSlot(async () => undefined, s)), (s: AbortSignal) => handled(pool!.run('tests', own(2), 5000, s))]) {
      const { release } = await pool.hold();
      const c = new AbortController();
      const runs = Array.from({ length: 12 }, () => queue(c.signal));
      expect(warned(c.signal)).toBe(false);
      release();
      await Promise.all(runs);
    }
    expect(pool.stats.runs).toBe(26);
  });

  test('an aborted signal is refused before the slot is taken: f never runs', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    const c = new AbortController();
    c.abort();
    let ran = false;
    await expect(handled(pool.withSlot(async () => (ran = true), c.signal))).rejects.toThrow(SandboxCancelledError);
    expect(ran).toBe(false);
    expect(pool.running).toBe(0);
  });

  test('a closed pool refuses withSlot and hold', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    await pool.close();
    await expect(handled(pool.withSlot(async () => 1))).rejects.toThrow('the sandbox pool is closed');
    await expect(pool.hold()).rejects.toThrow('the sandbox pool is closed');
  });

  test('maxQueue 0: a free slot is still taken (only waiting is refused)', async () => {
    pool = new SandboxPool({ concurrency: 1, maxQueue: 0 });
    const { release } = await pool.hold();
    await expect(handled(pool.withSlot(async () => 1))).rejects.toThrow(SandboxBusyError);
    release();
    expect(await handled(pool.withSlot(async () => 2))).toBe(2);
  });

  test('a held slot takes no pipelined run: the run waits in the queue until release', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    const { release } = await pool.hold();
    const run = handled(pool.run('tests', own(4), 5000));
    expect(pool.queued).toBe(1);
    expect(slotsOf(pool)[0].pipelined).toBe(0);
    release();
    expect(textOf(await run)).toBe('20');
  });
});

describe('the FIFO queue', () => {
  test('a waiting run aborted leaves the queue at once, its abort listener gone; the next waiter gets the slot', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    const { release } = await pool.hold();
    const c = new AbortController();
    const first = handled(pool.withSlot(async () => 'first', c.signal));
    const second = handled(pool.withSlot(async () => 'second'));
    expect(pool.queued).toBe(2);
    c.abort();
    expect(pool.queued).toBe(1);
    await expect(first).rejects.toThrow(SandboxCancelledError);
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
    release();
    expect(await second).toBe('second');
    expect(pool.running).toBe(0);
  });

  test('a run that leaves the queue for a slot, and a run answered, leave no listener on their signal', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    const { release } = await pool.hold();
    const c = new AbortController();
    const waiting = handled(pool.withSlot(async () => getEventListeners(c.signal, 'abort').length, c.signal));
    release();
    expect(await waiting).toBe(0);
    await handled(pool.run('tests', own(2), 5000, c.signal));
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
  });
  test('close() refuses the queued runs and leaves no listener on their signals (they may outlive the pool)', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    await pool.hold();
    const c = new AbortController();
    const queued = [handled(pool.withSlot(async () => 1, c.signal)), handled(pool.run('tests', own(2), 5000, c.signal)), handled(pool.withSlot(async () => 2))];
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(2);
    await pool.close();
    for (const p of queued) await expect(p).rejects.toThrow(SandboxCancelledError);
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
  });
});

describe('the slot a pipelined run goes to', () => {
  test('a free slot first, then the least loaded slot, the first of equals', async () => {
    pool = new SandboxPool({ concurrency: 2, pipeline: 4 });
    const loads = () => slotsOf(pool!).map((s) => s.pipelined);
    const runs: Promise<unknown>[] = [];
    const more = () => runs.push(handled(pool!.run('tests', spin(20_000), 60_000)).catch(() => undefined));
    more();
    more();
    expect(loads()).toEqual([1, 1]);
    more(); // a tie: the first slot
    expect(loads()).toEqual([2, 1]);
    more(); // the less loaded
    expect(loads()).toEqual([2, 2]);
    more(); // a tie again
    expect(loads()).toEqual([3, 2]);
    await pool.close();
    await Promise.all(runs);
  });
});

describe("a message's wall clock", () => {
  test('a worker that stops answering is killed at the clock: a timeout, and the slot serves the next call', async () => {
    const held = await heldPool();
    pool = held.pool;
    process.kill(held.worker.pid!, 'SIGSTOP');
    const e = await rejection(handled(pool.call(held.slot, 'tests', own(2), 300)));
    expect(e).toBeInstanceOf(WorkerLostError);
    expect(e).toMatchObject({ why: 'timeout', message: 'no answer within 300 ms' });
    expect(textOf(await handled(pool.call(held.slot, 'tests', own(2), 5000)))).toBe('6');
  }, 20_000);

  test('the clock is set for the running message only: not again for messages queued behind it, then for the next', async () => {
    const held = await heldPool();
    pool = held.pool;
    const clock = held.slot.clock!;
    const sets: number[] = [];
    const set = clock.set.bind(clock);
    clock.set = (ms: number) => (sets.push(ms), set(ms));
    const a = handled(pool.call(held.slot, 'no.such.op', {}, 1000));
    const b = handled(pool.call(held.slot, 'no.such.op', {}, 2000));
    expect(sets).toEqual([1000]);
    await expect(a).rejects.toThrow('unknown op "no.such.op"');
    await expect(b).rejects.toThrow('unknown op "no.such.op"');
    expect(sets).toEqual([1000, 2000]);
  });
});

describe('requests other than code runs', () => {
  test('go as structured-clone objects, each its own message: an unknown op is refused by the worker, a compiled module comes back as bytes', async () => {
    const held = await heldPool();
    pool = held.pool;
    const messages = pool.stats.messages;
    const both = [handled(pool.call(held.slot, 'no.such.op', {}, 5000)), handled(pool.call(held.slot, 'no.such.op', {}, 5000))];
    for (const p of both) await expect(p).rejects.toThrow('unknown op "no.such.op"');
    expect(pool.stats.messages).toBe(messages + 2);
    const res = (await handled(pool.call(held.slot, 'asc.compile', { source: 'export function f(): i32 { return 1 }' }, 60_000))) as { code: string; wasm: unknown };
    expect(res.code).toBe('ok');
    expect(res.wasm).toBeInstanceOf(Uint8Array);
  });
});

describe('an abort', () => {
  test('of a run still in the outbox drops it: the batch never holds it', async () => {
    const held = await heldPool();
    pool = held.pool;
    const c = new AbortController();
    const first = handled(pool.call(held.slot, 'tests', own(2), 5000, c.signal));
    const second = handled(pool.call(held.slot, 'tests', own(3), 5000));
    c.abort();
    await expect(first).rejects.toThrow(SandboxCancelledError);
    await until(() => held.slot.units.length === 1);
    expect(held.slot.units[0].batch).toBe(false);
    expect(held.slot.units[0].jobs).toHaveLength(1);
    expect(textOf(await second)).toBe('12');
    expect(pool.stats.skipped).toBe(0);
  });

  test('of a run running alone kills its worker at once', async () => {
    const held = await heldPool();
    pool = held.pool;
    const c = new AbortController();
    const run = handled(pool.call(held.slot, 'tests', spin(20_000), 60_000, c.signal));
    await until(() => held.slot.units.length === 1);
    c.abort();
    expect(held.slot.worker).toBeUndefined();
    expect(held.worker.killed).toBe(true);
    await expect(run).rejects.toThrow(SandboxCancelledError);
    expect(textOf(await handled(pool.call(held.slot, 'tests', own(2), 5000)))).toBe('6');
    expect(pool.stats.workersStarted).toBe(2);
  });

  /** A lone run spinning `spinMs` in a held worker, a run queued behind it there, that one cancelled (and seen rejected). */
  async function cancelledBehindLoneRun(spinMs: number) {
    const held = await heldPool();
    pool = held.pool;
    const c = new AbortController();
    const running = handled(pool.call(held.slot, 'tests', spin(spinMs), 60_000));
    await until(() => held.slot.units.length === 1);
    const behind = handled(pool.call(held.slot, 'tests', own(2), 5000, c.signal));
    await until(() => held.slot.units.length === 2);
    c.abort();
    await expect(behind).rejects.toThrow(SandboxCancelledError);
    return { held, running };
  }

  test('of a run waiting in the worker behind a lone run: only it is cancelled, the worker skips it, the running one goes on', async () => {
    const { held, running } = await cancelledBehindLoneRun(300);
    pool = held.pool; // (narrowed here for the assertions below)
    expect(held.slot.worker).toBe(held.worker);
    expect((await running) as { code: string }).toMatchObject({ outputs: [{ code: 'timeout' }] });
    await until(() => held.slot.units.length === 0);
    expect(pool.stats.skipped).toBe(1);
    expect(pool.stats.workersStarted).toBe(1);
  }, 20_000);

  test('a run cancelled in the worker is not sent again when that worker dies', async () => {
    const { held, running } = await cancelledBehindLoneRun(20_000);
    pool = held.pool; // (narrowed here for the assertions below)
    const messages = pool.stats.messages;
    held.worker.kill('SIGKILL');
    await expect(running).rejects.toMatchObject({ why: 'crash' });
    expect(pool.stats.messages).toBe(messages);
    expect(pool.stats.workersStarted).toBe(1);
  }, 20_000);

  test('a run cancelled inside a batch is not sent again alone when the batch loses its worker', async () => {
    const held = await heldPool();
    pool = held.pool;
    const c = new AbortController();
    const runs = [handled(pool.call(held.slot, 'tests', spin(500), 60_000)), handled(pool.call(held.slot, 'tests', own(2), 5000, c.signal)), handled(pool.call(held.slot, 'tests', own(3), 5000))];
    await until(() => held.slot.units.length === 1);
    expect(held.slot.units[0].batch).toBe(true);
    c.abort();
    await expect(runs[1]).rejects.toThrow(SandboxCancelledError);
    held.worker.kill('SIGKILL');
    expect((await runs[0]) as { code: string }).toMatchObject({ outputs: [{ code: 'timeout' }] });
    expect(textOf(await runs[2])).toBe('12');
    expect(pool.stats.isolated).toBe(2);
  }, 20_000);
});

describe("a worker's answers the pool cannot use", () => {
  test('an answer out of order loses the worker as a crash', async () => {
    const held = await heldPool();
    pool = held.pool;
    const run = handled(pool.call(held.slot, 'tests', spin(20_000), 60_000));
    await until(() => held.slot.units.length === 1);
    held.worker.emit('message', 'null');
    const e = await rejection(run);
    expect(e).toBeInstanceOf(WorkerLostError);
    expect(e).toMatchObject({ why: 'crash', message: 'the sandbox worker answered out of order' });
  });

  test('a message when nothing was asked, and an error event of the process, are ignored', async () => {
    const held = await heldPool();
    pool = held.pool;
    expect(() => held.worker.emit('message', JSON.stringify({ id: 999, ok: true, res: {} }))).not.toThrow();
    expect(() => held.worker.emit('error', new Error('channel closed'))).not.toThrow();
    expect(textOf(await handled(pool.call(held.slot, 'tests', own(2), 5000)))).toBe('6');
  });
});

describe('a worker that dies: the error says how, with the last line of its stderr', () => {
  /** A worker running a long request; `die` ends it; resolves with the request's error. */
  async function lost(die: (w: NonNullable<Slot['worker']>) => void): Promise<WorkerLostError> {
    const held = await heldPool();
    pool = held.pool;
    const run = handled(pool.call(held.slot, 'tests', spin(20_000), 60_000));
    await until(() => held.slot.units.length === 1);
    die(held.worker);
    const e = await rejection(run);
    expect(e).toBeInstanceOf(WorkerLostError);
    return e as WorkerLostError;
  }
  const stderr = (w: NonNullable<Slot['worker']>, ...chunks: string[]) => chunks.forEach((c) => w.stderr!.emit('data', c));

  test('killed with nothing on stderr: its signal only', async () => {
    const e = await lost((w) => w.kill('SIGKILL'));
    expect(e).toMatchObject({ why: 'crash', message: 'the sandbox worker died (SIGKILL)' });
  });

  test('exited with a status: the status', async () => {
    const e = await lost((w) => w.emit('exit', 3, null));
    expect(e).toMatchObject({ why: 'crash', message: 'the sandbox worker died (exit 3)' });
  });

  test('with stderr: its last line, trimmed', async () => {
    const e = await lost((w) => (stderr(w, 'a first line\n', 'the last line\n\n'), w.kill('SIGKILL')));
    expect(e).toMatchObject({ why: 'crash', message: 'the sandbox worker died (SIGKILL): the last line' });
  });

  test("V8's out-of-memory report: out-of-memory", async () => {
    const e = await lost((w) => (stderr(w, '<--- Last few GCs --->\n', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n'), w.kill('SIGABRT')));
    expect(e).toMatchObject({ why: 'out-of-memory', message: 'the sandbox worker died (SIGABRT): V8 heap out of memory' });
  });

  test("stderr keeps its last 16 KiB: the last line after more than that still explains, and V8's report still reads as out-of-memory", async () => {
    const late = await lost((w) => (stderr(w, 'noise\n'.repeat(5_000), 'the reason\n'), w.kill('SIGKILL')));
    expect(late.message).toBe('the sandbox worker died (SIGKILL): the reason');
    const oom = await lost((w) => (stderr(w, 'warning\n'.repeat(5_000), 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n', ' 1: 0xb8d0a3 node::Abort() [node]\n'), w.kill('SIGABRT')));
    expect(oom).toMatchObject({ why: 'out-of-memory', message: 'the sandbox worker died (SIGABRT): V8 heap out of memory' });
    // exactly the last 16,384 characters: one line of that length is kept whole, one character more loses its first
    const whole = await lost((w) => (stderr(w, 'x'.repeat(40), `\n${'b'.repeat(16_383)}`), w.kill('SIGKILL')));
    expect(whole.message).toBe(`the sandbox worker died (SIGKILL): ${'b'.repeat(16_383)}`);
    const cut = await lost((w) => (stderr(w, `c${'b'.repeat(16_384)}`), w.kill('SIGKILL')));
    expect(cut.message).toBe(`the sandbox worker died (SIGKILL): ${'b'.repeat(16_384)}`);
  });
});

describe('close() with work in flight', () => {
  test('a lone running request fails as closed', async () => {
    const held = await heldPool();
    pool = held.pool;
    const run = handled(pool.call(held.slot, 'tests', spin(20_000), 60_000));
    await until(() => held.slot.units.length === 1);
    await pool.close();
    await expect(run).rejects.toThrow('the sandbox pool is closed');
  });

  test('a running batch and the messages behind it all fail as closed, and no worker is started again', async () => {
    const held = await heldPool();
    pool = held.pool;
    const batch = [handled(pool.call(held.slot, 'tests', spin(20_000), 60_000)), handled(pool.call(held.slot, 'tests', own(2), 5000))];
    await until(() => held.slot.units.length === 1);
    const behind = handled(pool.call(held.slot, 'tests', own(3), 5000));
    await until(() => held.slot.units.length === 2);
    const unsent = handled(pool.call(held.slot, 'tests', own(4), 5000));
    await pool.close();
    for (const p of [...batch, behind, unsent]) await expect(p).rejects.toThrow('the sandbox pool is closed');
    expect(pool.stats.workersStarted).toBe(1);
    expect(pool.workerPids()).toEqual([]);
  }, 20_000);
});

describe("the pool's options, errors and counts", () => {
  test('its errors say what happened, under their own names', () => {
    const busy = new SandboxBusyError(7);
    expect([busy.name, busy.message]).toEqual(['SandboxBusyError', 'the sandbox queue is full (7 runs waiting); slow down or raise maxQueue']);
    const cancelled = new SandboxCancelledError();
    expect([cancelled.name, cancelled.message]).toEqual(['SandboxCancelledError', 'sandbox run cancelled']);
    const lost = new WorkerLostError('out-of-memory', 'the sandbox worker died (SIGABRT)');
    expect([lost.name, lost.why, lost.message]).toEqual(['WorkerLostError', 'out-of-memory', 'the sandbox worker died (SIGABRT)']);
  });

  test("V8's out-of-memory reports, each alone, and nothing else read as out-of-memory", () => {
    const reports = [
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      '# Fatal JavaScript out of memory: Ineffective mark-compacts',
      '# Fatal JavaScript invalid size error 169220804',
      'is_heap_oom = 1',
      'Reached heap limit',
      'Ineffective mark-compacts near heap limit',
      '# Fatal process out of memory: Zone',
    ];
    for (const r of reports) expect([r, V8_OOM.test(`<--- Last few GCs --->\n${r}\n 1: 0xb0 node::Abort()`)]).toEqual([r, true]);
    for (const r of ['Segmentation fault', 'RangeError: Invalid string length', 'heap limit', 'out of memory']) expect([r, V8_OOM.test(r)]).toEqual([r, false]);
  });

  test('concurrency: the CPU count up to 8 by default, at least 1, whole', () => {
    expect(new SandboxPool().concurrency).toBe(Math.min(8, availableParallelism()));
    expect(new SandboxPool({ concurrency: 0 }).concurrency).toBe(1);
    expect(new SandboxPool({ concurrency: 2.9 }).concurrency).toBe(2);
    expect(slotsOf(new SandboxPool({ concurrency: 3 })).map((s) => s.index)).toEqual([0, 1, 2]);
  });

  test('maxQueue: 10,000 by default', async () => {
    pool = new SandboxPool({ concurrency: 1 });
    await pool.hold();
    const waiting = Array.from({ length: 10_000 }, () => handled(pool!.withSlot(async () => undefined)));
    expect(pool.queued).toBe(10_000);
    await expect(pool.withSlot(async () => undefined)).rejects.toThrow('the sandbox queue is full (10000 runs waiting)');
    await pool.close();
    await Promise.allSettled(waiting);
  });

  test('pipeline: 4 runs on a worker by default, at least 1, whole; queued counts those behind the running one', async () => {
    for (const [pipeline, depth] of [[undefined, 4], [0, 1], [2.5, 2]] as const) {
      pool = new SandboxPool({ concurrency: 1, pipeline });
      const runs = Array.from({ length: depth + 1 }, () => handled(pool!.run('tests', spin(20_000), 60_000)));
      expect([pipeline, slotsOf(pool)[0].pipelined, pool.queued, pool.running]).toEqual([pipeline, depth, depth, 1]);
      await pool.close();
      await Promise.allSettled(runs);
    }
  });

  test('batch false: each run its own message; syncCalls only when true', async () => {
    expect(new SandboxPool().syncCalls).toBe(false);
    expect(new SandboxPool({ syncCalls: true }).syncCalls).toBe(true);
    const held = await heldPool({ batch: false });
    pool = held.pool;
    const messages = pool.stats.messages;
    const runs = [2, 3, 4].map((i) => handled(pool!.call(held.slot, 'tests', own(i), 5000)));
    expect(held.slot.units.map((u) => u.batch)).toEqual([false, false, false]);
    expect((await Promise.all(runs)).map(textOf)).toEqual(['6', '12', '20']);
    expect(pool.stats.messages).toBe(messages + 3);
  });

  test("a slot starts empty; workerPids names the workers started; a slot's wall clock says its length", async () => {
    const fresh = slotsOf(new SandboxPool({ concurrency: 1 }))[0];
    expect([fresh.worker, fresh.units, fresh.outbox, fresh.busy, fresh.pipelined, fresh.inflight]).toEqual([undefined, [], [], false, 0, []]);
    const held = await heldPool();
    pool = held.pool;
    expect(pool.workerPids()).toEqual([held.worker.pid]);
    process.kill(held.worker.pid!, 'SIGSTOP');
    await expect(pool.call(held.slot, 'tests', own(2), 250)).rejects.toMatchObject({ name: 'WorkerLostError', why: 'timeout', message: 'no answer within 250 ms' });
  }, 20_000);
});

describe("the worker's process", () => {
  test('is forked with --no-node-snapshot (isolated-vm needs it), and with --sync only when syncCalls is set', async () => {
    const plain = await heldPool();
    pool = plain.pool;
    expect(plain.worker.spawnargs).toContain('--no-node-snapshot');
    expect(plain.worker.spawnargs).not.toContain('--sync');
    await pool.close();
    const sync = await heldPool({ syncCalls: true });
    pool = sync.pool;
    expect(sync.worker.spawnargs).toContain('--sync');
  });

  /** Runs `script` (TypeScript's syntax stripped; `SandboxPool` in scope) in a fresh node process; resolves with its stdout, or 'still running' after `ms`. */
  function host(script: string, ms: number): Promise<string> {
    const root = join(__dirname, '..', '..');
    const register = `const ts = require('typescript'); const fs = require('fs');
      require.extensions['.ts'] = (m, f) => m._compile(ts.transpileModule(fs.readFileSync(f, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText, f);
      const { SandboxPool } = require(${JSON.stringify(join(root, 'src', 'sandbox', 'pool.ts'))});`;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['-e', `${register}\n${script}`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const timer = setTimeout(() => (child.kill('SIGKILL'), resolve(`${out}still running`)), ms);
      child.on('exit', () => (clearTimeout(timer), resolve(out)));
    });
  }

  test('does not keep the host alive while idle, and does while a run is out', async () => {
    const out = await host(
      `(async () => {
        const pool = new SandboxPool({ concurrency: 1 });
        const first = await pool.hold();
        await pool.call(first.slot, 'no.such.op', {}, 30000).catch((e) => console.log('first:', e.message));
        first.release(); // idle: the worker no longer holds the host
        const second = await pool.hold();
        // nothing but the worker's answer keeps this process alive now
        await pool.call(second.slot, 'no.such.op', {}, 30000).catch((e) => console.log('second:', e.message));
        second.release();
        console.log('idle, not closed');
      })();`,
      20_000,
    );
    expect(out).toBe('first: unknown op "no.such.op"\nsecond: unknown op "no.such.op"\nidle, not closed\n');
  }, 30_000);
});
