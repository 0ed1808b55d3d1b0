/**
 * AssemblyScript to WebAssembly on the sandbox pool: the compiler runs in a worker process
 * (worker/asc-compile.cjs), never in the arena's own process. Compile errors are results.
 */
import type { WasmCompileResult } from '../core/sandbox';
import { SandboxCancelledError, WorkerLostError, type SandboxPool } from './pool';

/** Longest source accepted, in characters. */
export const MAX_ASC_SOURCE = 200_000;

/** Wall time for one compile (the first in a worker also loads the compiler), ms. */
export const ASC_WALL_MS = 60_000;

/** Compiles `source` on a free slot of `pool`; only cancellation rejects. */
export async function compileAssemblyScript(pool: SandboxPool, source: string, signal?: AbortSignal): Promise<WasmCompileResult> {
  if (typeof source !== 'string' || !source.trim()) return { code: 'compile-error', message: 'the AssemblyScript source is empty' };
  if (source.length > MAX_ASC_SOURCE) return { code: 'compile-error', message: `the AssemblyScript source is longer than ${MAX_ASC_SOURCE} characters` };
  return pool.withSlot(async (slot) => {
    try {
      const res = (await pool.call(slot, 'asc.compile', { source }, ASC_WALL_MS, signal)) as WasmCompileResult;
      return res.code === 'ok' ? { code: 'ok', wasm: new Uint8Array(res.wasm!) } : { code: res.code, message: res.message };
    } catch (e) {
      if (e instanceof SandboxCancelledError) throw e;
      if (e instanceof WorkerLostError) return { code: e.why === 'timeout' ? 'timeout' : 'sandbox-error', message: e.message };
      return { code: 'sandbox-error', message: (e as Error).message };
    }
  }, signal);
}
