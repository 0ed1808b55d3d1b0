/**
 * The sandbox's CodeRunner: validates a request, runs it on a pool slot (JavaScript in an
 * isolated-vm worker, Python in a bubblewrap batch) and compares outputs on the host. Every
 * request ends with a CodeRunResult, whatever it holds; only cancellation (SandboxCancelledError)
 * and a full queue (SandboxBusyError) reject.
 */
import { bigIntsAsNumbers } from '../core/exact-json';
import type { CodeRunRequest, CodeRunResult, CodeRunner, RunCode } from '../core/sandbox';
import { assemble } from './assemble';
import { resolveLimits, type ResolvedLimits } from './limits';
import { SandboxBusyError, SandboxCancelledError, WorkerLostError, type SandboxPool, type Slot } from './pool';
import { PythonForkServer } from './python-fork-server';
import { PythonLauncher } from './python-launcher';
import { runPythonBatch, type PythonBatch, type PythonSandboxPaths } from './python-runner';
import type { PythonSlotServer } from './python-slot-server';
import { validRaw, type RawRun } from './raw-run';
import { requestProblem } from './request';

export { requestProblem } from './request';

/**
 * How Python programs run: `launcher`, a fresh interpreter per program started by a per-slot
 * launcher (python-launcher.ts); `fresh-sandbox`, a bubblewrap sandbox spawned per program
 * (python-runner.ts `runPythonBatch`); `fork-server`, a process forked per program from a
 * per-slot server that loaded the harness (python-fork-server.ts).
 */
export type PythonMode = 'launcher' | 'fresh-sandbox' | 'fork-server';

function failed(code: RunCode, message: string, req: CodeRunRequest, started: number): CodeRunResult {
  return assemble(req, { code, message, outputs: [] }, Date.now() - started);
}

/**
 * The pool's wall clock for a JavaScript run (ms): past it, the worker running the run alone is
 * killed and the run ends with `timeout`. Normally a backstop: the worker's own watchdog stops a
 * test at its limit (isolate-runner.cjs, `watched`). With `sync` (the pool's `syncCalls`) a run of
 * one test makes its isolate calls synchronously — at most three (the program's load, its entry's
 * lookup when the lookup could not be joined to the program, the call) and its property check,
 * each under the per-test limit — where nothing in the worker can stop a builtin the isolate's
 * timeout cannot interrupt, so this clock is that run's watchdog: each call's limit plus the
 * margin the worker's watchdog gives an asynchronous call, and 5 s, as the clock always gave, for
 * starting a worker, compiling, a fresh context and the hop on a loaded machine.
 */
export function jsWallMs(timeMs: number, tests: readonly { property?: string }[], sync: boolean): number {
  if (!sync || tests.length !== 1) return timeMs * (tests.length * 2 + 2) + 5000;
  const calls = 3 + (tests[0].property !== undefined ? 1 : 0);
  return calls * (timeMs + Math.max(250, Math.ceil(timeMs / 2))) + 5000;
}

/** The JS worker's raw run, or the code of how the worker was lost. */
export function lostWorker(e: unknown): RawRun {
  // a cancel, or a full queue (the caller must slow down), is not a result
  if (e instanceof SandboxCancelledError || e instanceof SandboxBusyError) throw e;
  if (e instanceof WorkerLostError) {
    // the program's doing: it ran past the run's wall clock, or V8 ran out of memory for it
    if (e.why === 'timeout') return { code: 'timeout', message: e.message, outputs: [] };
    if (e.why === 'out-of-memory') return { code: 'memory-limit', message: `the program ran out of memory (${e.message})`, outputs: [] };
  }
  return { code: 'sandbox-error', message: (e as Error)?.message ?? String(e), outputs: [] };
}

/** A CodeRunner over a pool. */
export class SandboxCodeRunner implements CodeRunner {
  /** Each slot's Python launcher or fork server (by `pythonMode`), started on its first run. */
  private readonly servers = new Map<Slot, PythonSlotServer>();

  constructor(
    private readonly pool: SandboxPool,
    private readonly pythonPaths?: PythonSandboxPaths,
    private readonly pythonMode: PythonMode = 'launcher',
  ) {}

  /** Stops the slots' servers (the pool's own close stops the JS workers). */
  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.close()));
    this.servers.clear();
  }

  private runPython(slot: Slot, batch: PythonBatch): Promise<RawRun> {
    if (this.pythonMode === 'fresh-sandbox') return runPythonBatch(batch);
    let server = this.servers.get(slot);
    if (!server) this.servers.set(slot, (server = this.pythonMode === 'fork-server' ? new PythonForkServer(this.pythonPaths) : new PythonLauncher(this.pythonPaths)));
    return server.run(batch);
  }

  async run(req: CodeRunRequest, signal?: AbortSignal): Promise<CodeRunResult> {
    const started = Date.now();
    try {
      return await this.runChecked(req, started, signal);
    } catch (e) {
      // cancellation, and back-pressure (a full queue: the caller must slow down), are not results
      if (e instanceof SandboxCancelledError || e instanceof SandboxBusyError) throw e;
      if (signal?.aborted) throw new SandboxCancelledError();
      // the contract: a result for every request; whatever failed here is the sandbox's fault
      return { code: 'sandbox-error', message: `the sandbox failed: ${String((e as Error)?.message ?? e).slice(0, 300)}`, tests: [], passed: 0, total: 0, ms: Date.now() - started };
    }
  }

  private async runChecked(req: CodeRunRequest, started: number, signal?: AbortSignal): Promise<CodeRunResult> {
    const problem = requestProblem(req);
    if (problem) return { code: 'sandbox-error', message: `bad request: ${problem}`, tests: [], passed: 0, total: 0, ms: 0 };
    let limits: ResolvedLimits;
    try {
      limits = resolveLimits(req.limits);
    } catch (e) {
      return failed('sandbox-error', `bad request: ${(e as Error).message}`, req, started);
    }
    let raw: RawRun;
    if (req.language === 'python') {
      raw = await this.pool.withSlot((slot) => this.runPython(slot, { program: req.program, entry: req.entry, inputs: req.tests.map((t) => t.input), check: req.check, helpers: req.helpers, limits, paths: this.pythonPaths, signal }), signal);
    } else {
      const sync = this.pool.syncCalls && req.tests.length === 1;
      const wallMs = jsWallMs(limits.timeMs, req.tests, sync);
      const body = { program: req.program, entry: req.entry, tests: req.tests.map((t) => ({ input: t.input.map(bigIntsAsNumbers), ...(t.property ? { property: t.property } : {}) })), limits, stopOnTimeout: req.stopOnTimeout === true };
      // pipelined: the worker may already hold the next run while this one runs (pool.ts, `run`)
      raw = await this.pool.run('tests', body, wallMs, signal).then((res): RawRun => validRaw(res, req.tests.length) ?? { code: 'sandbox-error', message: "the sandbox worker's answer is malformed", outputs: [] }, lostWorker);
    }
    if (signal?.aborted) throw new SandboxCancelledError();
    return assemble(req, raw, Date.now() - started);
  }
}
