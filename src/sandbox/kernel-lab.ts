/**
 * The kernel lab on the sandbox pool: a session takes one slot (its worker process) for its
 * lifetime, loads each kernel into an isolate of its own there, and times calls on that worker
 * with the host's monotonic clock (see worker/isolate-runner.cjs). Copies go in and out; nothing
 * the kernels return is more than plain typed arrays.
 */
import { randomUUID } from 'node:crypto';
import type { KernelArray, KernelCallResult, KernelLab, KernelLabSession, KernelOutputSpec, RunCode } from '../core/sandbox';
import { compileAssemblyScript } from './asc';
import { SandboxCancelledError, WorkerLostError, type SandboxPool } from './pool';

const DEFAULTS = { memoryMb: 256, timeMs: 5000 };

/** A KernelLab over `pool` (AssemblyScript compiles on a slot of its own: see asc.ts). */
export function kernelLab(pool: SandboxPool): KernelLab {
  return {
    compileAssemblyScript: (source, signal) => compileAssemblyScript(pool, source, signal),
    async open(kernels, options = {}, signal): Promise<KernelLabSession> {
      const memoryMb = options.memoryMb ?? DEFAULTS.memoryMb;
      const timeMs = options.timeMs ?? DEFAULTS.timeMs;
      const { slot, release } = await pool.hold(signal);
      const id = randomUUID();
      const lost = (e: unknown): KernelCallResult => {
        if (e instanceof SandboxCancelledError) throw e;
        const code: RunCode = e instanceof WorkerLostError && e.why === 'timeout' ? 'timeout' : 'sandbox-error';
        return { code, message: (e as Error).message };
      };
      let status: Record<string, { code: RunCode; message?: string }>;
      try {
        const res = (await pool.call(slot, 'lab.open', { id, kernels, memoryMb, timeMs }, timeMs * (Object.keys(kernels).length + 1) + 5000, signal)) as { status: typeof status };
        status = res.status;
      } catch (e) {
        release();
        if (e instanceof SandboxCancelledError) throw e;
        status = Object.fromEntries(Object.keys(kernels).map((k) => [k, { code: 'sandbox-error' as RunCode, message: (e as Error).message }]));
        return { status, call: async () => ({ code: 'sandbox-error', message: 'the lab did not open' }), close: async () => undefined };
      }
      let closed = false;
      return {
        status,
        async call(name: string, inputs: Record<string, KernelArray>, dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
          if (closed) return { code: 'sandbox-error', message: 'the lab is closed' };
          try {
            return (await pool.call(slot, 'lab.call', { id, name, inputs, dims, outputs, timeMs }, timeMs * 3 + 5000, signal)) as KernelCallResult;
          } catch (e) {
            return lost(e);
          }
        },
        async close(): Promise<void> {
          if (closed) return;
          closed = true;
          try {
            await pool.call(slot, 'lab.close', { id }, 10_000);
          } catch {
            // the worker is gone or stuck: it was killed; the slot is free either way
          } finally {
            release();
          }
        },
      };
    },
  };
}
