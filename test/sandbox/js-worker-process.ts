/**
 * A sandbox JS worker (src/sandbox/worker/js-worker.cjs) started and spoken to directly, as the
 * pool does: forked with --no-node-snapshot and structured-clone IPC, code runs sent as JSON text.
 * For the tests of the worker and its test runner that need no pool.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A fresh worker (`args`: e.g. `--sync`). Its stderr goes to the test's. */
export const startWorker = (args: string[] = []): ChildProcess =>
  fork(join(__dirname, '../../src/sandbox/worker/js-worker.cjs'), args, { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });

/** A code run's fields, with the tests' defaults (entry `f`, one test without input, 10 s, 64 MB, 10,000 characters). */
export type CodeRun = { program: string; entry?: string; tests?: { input: unknown[]; property?: string }[]; timeMs?: number; memoryMb?: number; outputBytes?: number; stopOnTimeout?: boolean };

/** A worker's answer to one request. */
export type WorkerAnswer = {
  id: number;
  ok: boolean;
  res?: { code: string; message?: string; outputs: { code: string; text?: string; message?: string; property?: boolean }[] };
  error?: string;
  cancelled?: boolean;
  retire?: boolean;
};

/** A code run as the pool sends it (JSON text). */
export const codeRunText = (id: number, r: CodeRun): string =>
  JSON.stringify({
    id,
    op: 'tests',
    req: { program: r.program, entry: r.entry ?? 'f', tests: r.tests ?? [{ input: [] }], limits: { timeMs: r.timeMs ?? 10_000, memoryMb: r.memoryMb ?? 64, outputBytes: r.outputBytes ?? 10_000 }, ...(r.stopOnTimeout ? { stopOnTimeout: true } : {}) },
  });

/** The worker's next answer (a JSON text answer parsed); rejects when the worker ends first. */
export function nextAnswer<T = WorkerAnswer>(w: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`the worker ended (${code ?? signal})`));
    w.once('message', (m) => {
      w.off('exit', onExit);
      resolve(typeof m === 'string' ? JSON.parse(m) : m);
    });
    w.once('exit', onExit);
  });
}
