/**
 * The sandbox's CodeRunner: validates a request, runs it on a pool slot (JavaScript in an
 * isolated-vm worker, Python in a bubblewrap batch) and compares outputs on the host. Every
 * request ends with a CodeRunResult; only cancellation rejects.
 */
import type { CodeRunRequest, CodeRunResult, CodeRunner, RunCode } from '../core/sandbox';
import { assemble } from './assemble';
import { resolveLimits, type ResolvedLimits } from './limits';
import { SandboxCancelledError, WorkerLostError, type SandboxPool } from './pool';
import { runPythonBatch, type PythonSandboxPaths } from './python-runner';
import type { RawRun } from './raw-run';

const MAX_PROGRAM_CHARS = 1_000_000;
const MAX_TESTS = 10_000;

/** Why a request is malformed (naming the field), or null. */
export function requestProblem(req: unknown): string | null {
  if (!req || typeof req !== 'object') return 'the request is not an object';
  const r = req as Partial<CodeRunRequest>;
  if (r.language !== 'js' && r.language !== 'python') return `language must be "js" or "python", got ${JSON.stringify(r.language)}`;
  if (typeof r.program !== 'string') return 'program must be a string';
  if (r.program.length > MAX_PROGRAM_CHARS) return `program is longer than ${MAX_PROGRAM_CHARS} characters`;
  if (typeof r.entry !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(r.entry)) return `entry must be a function name, got ${JSON.stringify(r.entry)?.slice(0, 60)}`;
  if (!Array.isArray(r.tests) || r.tests.length > MAX_TESTS) return `tests must be an array of at most ${MAX_TESTS}`;
  for (let i = 0; i < r.tests.length; i++) {
    const t = r.tests[i];
    if (!t || !Array.isArray(t.input)) return `tests[${i}].input must be an array of arguments`;
    if (t.property !== undefined && typeof t.property !== 'string') return `tests[${i}].property must be a function's source`;
    if (t.property !== undefined && r.language !== 'js') return `tests[${i}].property: properties are JavaScript and run only with language "js"`;
  }
  if (r.check !== undefined && (typeof r.check !== 'string' || r.language !== 'python')) return 'check must be Python source (language "python")';
  return null;
}

function failed(code: RunCode, message: string, req: CodeRunRequest, started: number): CodeRunResult {
  return assemble(req, { code, message, outputs: [] }, Date.now() - started);
}

/** A CodeRunner over a pool. */
export class SandboxCodeRunner implements CodeRunner {
  constructor(
    private readonly pool: SandboxPool,
    private readonly pythonPaths?: PythonSandboxPaths,
  ) {}

  async run(req: CodeRunRequest, signal?: AbortSignal): Promise<CodeRunResult> {
    const started = Date.now();
    const problem = requestProblem(req);
    if (problem) return { code: 'sandbox-error', message: `bad request: ${problem}`, tests: [], passed: 0, total: 0, ms: 0 };
    let limits: ResolvedLimits;
    try {
      limits = resolveLimits(req.limits);
    } catch (e) {
      return failed('sandbox-error', `bad request: ${(e as Error).message}`, req, started);
    }
    const raw = await this.pool.withSlot((slot) => {
      if (req.language === 'python') {
        return runPythonBatch({ program: req.program, entry: req.entry, inputs: req.tests.map((t) => t.input), check: req.check, limits, paths: this.pythonPaths, signal });
      }
      const wallMs = limits.timeMs * (req.tests.length * 2 + 2) + 5000;
      const body = { program: req.program, entry: req.entry, tests: req.tests.map((t) => ({ input: t.input, ...(t.property ? { property: t.property } : {}) })), limits, stopOnTimeout: req.stopOnTimeout === true };
      return this.pool.call(slot, 'tests', body, wallMs, signal).then(
        (res) => res as RawRun,
        (e: unknown): RawRun => {
          if (e instanceof SandboxCancelledError) throw e;
          if (e instanceof WorkerLostError) return { code: e.why === 'timeout' ? 'timeout' : 'sandbox-error', message: e.message, outputs: [] };
          return { code: 'sandbox-error', message: (e as Error).message, outputs: [] };
        },
      );
    }, signal);
    if (signal?.aborted) throw new SandboxCancelledError();
    return assemble(req, raw, Date.now() - started);
  }
}
