/**
 * The kernel lab's host side on a fake pool (issue 20): the requests it sends (limits, wall
 * time), how lost workers and failed opens become results, and closing (once, freeing the slot).
 */
import { kernelLab } from '../../src/sandbox/kernel-lab';
import { SandboxCancelledError, Slot, WorkerLostError, type SandboxPool } from '../../src/sandbox/pool';

interface Call {
  op: string;
  req: Record<string, unknown>;
  wallMs: number;
  signal?: AbortSignal;
}

/** A pool whose `call` answers with `answer(op)` (a value, or an Error to throw). */
function fakePool(answer: (op: string, req: Record<string, unknown>) => unknown) {
  const calls: Call[] = [];
  let releases = 0;
  let holds = 0;
  const slot = new Slot(0);
  const pool = {
    hold: async (signal?: AbortSignal) => {
      holds++;
      calls.push({ op: 'hold', req: {}, wallMs: 0, signal });
      return { slot, release: () => releases++ };
    },
    withSlot: async <T>(f: (s: Slot) => Promise<T>, signal?: AbortSignal): Promise<T> => {
      calls.push({ op: 'withSlot', req: {}, wallMs: 0, signal });
      return f(slot);
    },
    call: async (s: Slot, op: string, req: Record<string, unknown>, wallMs: number, signal?: AbortSignal) => {
      expect(s).toBe(slot);
      calls.push({ op, req, wallMs, signal });
      const a = answer(op, req);
      if (a instanceof Error) throw a;
      return a;
    },
  } as unknown as SandboxPool;
  return { pool, calls, releases: () => releases, holds: () => holds };
}

const spec = [{ name: 'y', dtype: 'f32' as const, length: 1 }];

describe('kernel lab (host side)', () => {
  test('open sends the kernels with default limits and a wall time per kernel; calls carry the session id', async () => {
    const f = fakePool((op) => (op === 'lab.open' ? { status: { a: { code: 'ok' }, b: { code: 'ok' } } } : op === 'lab.call' ? { code: 'ok', ns: 5 } : undefined));
    const signal = new AbortController().signal;
    const lab = await kernelLab(f.pool).open({ a: 'k1', b: 'k2' }, undefined, signal);
    expect(lab.status).toEqual({ a: { code: 'ok' }, b: { code: 'ok' } });
    const open = f.calls[1];
    expect(open).toMatchObject({ op: 'lab.open', req: { kernels: { a: 'k1', b: 'k2' }, memoryMb: 256, timeMs: 5000 }, wallMs: 5000 * 3 + 5000, signal });
    expect(typeof open.req.id).toBe('string');
    expect(f.calls[0].signal).toBe(signal);
    const x = new Float32Array([1]);
    await expect(lab.call('a', { x }, { n: 1 }, spec)).resolves.toEqual({ code: 'ok', ns: 5 });
    expect(f.calls[2]).toMatchObject({ op: 'lab.call', req: { id: open.req.id, name: 'a', inputs: { x }, dims: { n: 1 }, outputs: spec, timeMs: 5000 }, wallMs: 5000 * 3 + 5000, signal });
    expect(f.releases()).toBe(0);
    await lab.close();
    expect(f.calls[3]).toMatchObject({ op: 'lab.close', req: { id: open.req.id }, wallMs: 10_000 });
    expect(f.releases()).toBe(1);
    await lab.close();
    expect(f.calls).toHaveLength(4);
    expect(f.releases()).toBe(1);
    await expect(lab.call('a', { x }, { n: 1 }, spec)).resolves.toEqual({ code: 'sandbox-error', message: 'the lab is closed' });
    expect(f.calls).toHaveLength(4);
  });

  test('given limits are passed on and scale the wall times', async () => {
    const f = fakePool((op) => (op === 'lab.open' ? { status: { a: { code: 'ok' } } } : { code: 'ok' }));
    const lab = await kernelLab(f.pool).open({ a: 'k' }, { memoryMb: 64, timeMs: 100 });
    expect(f.calls[1]).toMatchObject({ req: { memoryMb: 64, timeMs: 100 }, wallMs: 100 * 2 + 5000 });
    await lab.call('a', {}, {}, spec);
    expect(f.calls[2]).toMatchObject({ req: { timeMs: 100 }, wallMs: 100 * 3 + 5000 });
  });

  test('a lost worker during a call: timeout or sandbox-error with its message; a cancel is thrown', async () => {
    let next: Error = new WorkerLostError('timeout', 'took too long');
    const f = fakePool((op) => (op === 'lab.open' ? { status: { a: { code: 'ok' } } } : next));
    const lab = await kernelLab(f.pool).open({ a: 'k' });
    await expect(lab.call('a', {}, {}, spec)).resolves.toEqual({ code: 'timeout', message: next.message });
    next = new WorkerLostError('crash', 'died');
    await expect(lab.call('a', {}, {}, spec)).resolves.toEqual({ code: 'sandbox-error', message: next.message });
    next = new Error('ipc broke');
    await expect(lab.call('a', {}, {}, spec)).resolves.toEqual({ code: 'sandbox-error', message: 'ipc broke' });
    next = new SandboxCancelledError();
    await expect(lab.call('a', {}, {}, spec)).rejects.toBeInstanceOf(SandboxCancelledError);
  });

  test('closing when the worker is gone still frees the slot', async () => {
    const f = fakePool((op) => (op === 'lab.open' ? { status: {} } : new Error('gone')));
    const lab = await kernelLab(f.pool).open({});
    await expect(lab.close()).resolves.toBeUndefined();
    expect(f.releases()).toBe(1);
  });

  test('a failed open frees the slot and reports every kernel as sandbox-error; its session answers nothing', async () => {
    const f = fakePool(() => new Error('no worker'));
    const lab = await kernelLab(f.pool).open({ a: 'k', b: 'k' });
    expect(f.releases()).toBe(1);
    expect(lab.status).toEqual({ a: { code: 'sandbox-error', message: 'no worker' }, b: { code: 'sandbox-error', message: 'no worker' } });
    await expect(lab.call('a', {}, {}, spec)).resolves.toEqual({ code: 'sandbox-error', message: 'the lab did not open' });
    await expect(lab.close()).resolves.toBeUndefined();
    expect(f.calls.map((c) => c.op)).toEqual(['hold', 'lab.open']);
  });

  test('a cancelled open frees the slot and throws', async () => {
    const f = fakePool(() => new SandboxCancelledError());
    await expect(kernelLab(f.pool).open({ a: 'k' })).rejects.toBeInstanceOf(SandboxCancelledError);
    expect(f.releases()).toBe(1);
  });

  test("its AssemblyScript compiles go to the lab's pool with the source and the signal", async () => {
    const f = fakePool((op) => (op === 'asc.compile' ? { code: 'ok', wasm: [0, 97, 115, 109] } : new Error(op)));
    const stop = new AbortController();
    const r = await kernelLab(f.pool).compileAssemblyScript!('export function f(): i32 { return 1 }', stop.signal);
    expect(r).toEqual({ code: 'ok', wasm: new Uint8Array([0, 97, 115, 109]) });
    expect(f.calls.map((c) => [c.op, c.req, c.signal])).toEqual([
      ['withSlot', {}, stop.signal],
      ['asc.compile', { source: 'export function f(): i32 { return 1 }' }, stop.signal],
    ]);
  });
});
