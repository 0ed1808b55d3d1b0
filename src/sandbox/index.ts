/**
 * The sandbox: untrusted programs run here and only here, never in the arena's own process or
 * with its privileges. `createSandbox()` gives a pool-backed CodeRunner (and the kernel
 * lab for timing kernels); close it when done.
 */
import type { CodeRunner, KernelLab } from '../core/sandbox';
import { kernelLab } from './kernel-lab';
import { SandboxCodeRunner, type PythonMode } from './code-runner';
import { SandboxPool, type PoolOptions } from './pool';
import type { PythonSandboxPaths } from './python-runner';

export { SandboxPool, SandboxBusyError, SandboxCancelledError } from './pool';
export { pythonSandboxProblem } from './python-runner';
export type { PythonMode } from './code-runner';
export { DEFAULT_LIMITS } from './limits';

/** A sandbox: its pool and the runners on it. */
export interface Sandbox {
  readonly pool: SandboxPool;
  readonly code: CodeRunner;
  readonly lab: KernelLab;
  close(): Promise<void>;
}

export interface SandboxOptions extends PoolOptions {
  python?: PythonSandboxPaths;
  /**
   * How Python programs run (code-runner.ts `PythonMode`): a fresh interpreter per program,
   * started by a per-slot launcher (`launcher`, the default) or in a bubblewrap sandbox of its
   * own (`fresh-sandbox`), or a process forked per program from a per-slot fork server
   * (`fork-server`). Every mode runs each program in namespaces of its own.
   */
  pythonMode?: PythonMode;
}

/** A new sandbox with its own pool of worker processes (started lazily). */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const pool = new SandboxPool(options);
  const code = new SandboxCodeRunner(pool, options.python, options.pythonMode);
  return { pool, code, lab: kernelLab(pool), close: () => code.close().then(() => pool.close()) };
}
