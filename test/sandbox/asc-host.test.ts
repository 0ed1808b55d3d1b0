/**
 * AssemblyScript compiles on a fake pool (asc.ts, issue 23): what is refused before any worker is
 * asked, what the compile request is, and how each answer or failure of the worker becomes a
 * result (only cancellation rejects).
 */
import { ASC_WALL_MS, MAX_ASC_SOURCE, compileAssemblyScript } from '../../src/sandbox/asc';
import { SandboxCancelledError, Slot, WorkerLostError, type SandboxPool } from '../../src/sandbox/pool';

/** A pool whose one slot's `call` answers `answer` (thrown when an Error), recording what it was asked. */
function fakePool(answer: unknown) {
  const slot = new Slot(0);
  const asked: unknown[][] = [];
  const pool = {
    withSlot: async <T>(f: (s: Slot) => Promise<T>, signal?: AbortSignal): Promise<T> => {
      asked.push(['withSlot', signal]);
      return f(slot);
    },
    call: async (s: Slot, op: string, req: unknown, wallMs: number, signal?: AbortSignal) => {
      asked.push([s === slot, op, req, wallMs, signal]);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as SandboxPool;
  return { pool, asked };
}

describe('compileAssemblyScript', () => {
  test('an empty or blank source, or one that is not text, is a compile error; no worker is asked', async () => {
    for (const source of ['', ' \n\t', 42 as unknown as string]) {
      const { pool, asked } = fakePool({ code: 'ok', wasm: [0] });
      expect(await compileAssemblyScript(pool, source)).toEqual({ code: 'compile-error', message: 'the AssemblyScript source is empty' });
      expect(asked).toEqual([]);
    }
  });

  test(`a source of more than ${MAX_ASC_SOURCE} characters is a compile error; exactly that many is compiled`, async () => {
    const long = fakePool({ code: 'ok', wasm: [0] });
    expect(await compileAssemblyScript(long.pool, 'x'.repeat(MAX_ASC_SOURCE + 1))).toEqual({ code: 'compile-error', message: `the AssemblyScript source is longer than ${MAX_ASC_SOURCE} characters` });
    expect(long.asked).toEqual([]);
    const max = fakePool({ code: 'ok', wasm: [0] });
    expect((await compileAssemblyScript(max.pool, 'x'.repeat(MAX_ASC_SOURCE))).code).toBe('ok');
  });

  test('one asc.compile call on a slot held with the signal, with the source and the wall time; the module as bytes', async () => {
    const { pool, asked } = fakePool({ code: 'ok', wasm: [0, 97, 115, 109], extra: 1 });
    const stop = new AbortController();
    const r = await compileAssemblyScript(pool, 'export function f(): i32 { return 1 }', stop.signal);
    expect(r).toEqual({ code: 'ok', wasm: new Uint8Array([0, 97, 115, 109]) });
    expect(r.code === 'ok' && r.wasm).toBeInstanceOf(Uint8Array);
    expect(asked).toEqual([
      ['withSlot', stop.signal],
      [true, 'asc.compile', { source: 'export function f(): i32 { return 1 }' }, ASC_WALL_MS, stop.signal],
    ]);
  });

  test("the compiler's errors pass through with their code and message only", async () => {
    const { pool } = fakePool({ code: 'compile-error', message: 'ERROR TS2304: Cannot find name', wasm: [1] });
    expect(await compileAssemblyScript(pool, 'x')).toEqual({ code: 'compile-error', message: 'ERROR TS2304: Cannot find name' });
  });

  test('a lost worker: timeout when it ran past its wall time, sandbox-error otherwise; any other failure a sandbox-error', async () => {
    expect(await compileAssemblyScript(fakePool(new WorkerLostError('timeout', 'worker ran past 60000 ms')).pool, 'x')).toEqual({ code: 'timeout', message: 'worker ran past 60000 ms' });
    expect(await compileAssemblyScript(fakePool(new WorkerLostError('crash', 'worker exited')).pool, 'x')).toEqual({ code: 'sandbox-error', message: 'worker exited' });
    expect(await compileAssemblyScript(fakePool(new WorkerLostError('out-of-memory', 'worker out of memory')).pool, 'x')).toEqual({ code: 'sandbox-error', message: 'worker out of memory' });
    expect(await compileAssemblyScript(fakePool(new Error('no such op')).pool, 'x')).toEqual({ code: 'sandbox-error', message: 'no such op' });
  });

  test('cancellation rejects', async () => {
    await expect(compileAssemblyScript(fakePool(new SandboxCancelledError()).pool, 'x')).rejects.toBeInstanceOf(SandboxCancelledError);
  });
});
