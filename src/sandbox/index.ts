/**
 * The sandbox: untrusted programs run here and only here, never in the arena's own process or
 * with its privileges. `createSandbox()` gives a pool-backed CodeRunner (and the kernel
 * lab for timing kernels); close it when done.
 */
import type { CodeRunner, KernelLab } from '../core/sandbox';
import { kernelLab } from './kernel-lab';
import { SandboxCodeRunner } from './code-runner';
import { SandboxPool, type PoolOptions } from './pool';
import type { PythonSandboxPaths } from './python-runner';

export { SandboxPool, SandboxBusyError, SandboxCancelledError } from './pool';
export { pythonSandboxProblem } from './python-runner';
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
   * Run Python programs through a pre-started fork server per slot (python-fork-server.ts: a
   * forked process per program in namespaces of its own) instead of a fresh sandbox per program.
   * Default false.
   */
  pythonForkServer?: boolean;
}

/** A new sandbox with its own pool of worker processes (started lazily). */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const pool = new SandboxPool(options);
  const code = new SandboxCodeRunner(pool, options.python, options.pythonForkServer === true);
  return { pool, code, lab: kernelLab(pool), close: () => code.close().then(() => pool.close()) };
}
