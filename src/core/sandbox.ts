/**
 * What running untrusted programs looks like from the env side: the requests a code env puts in
 * its effects, the results it gets back, and the kernel lab the kernel env measures with. The
 * implementation lives in src/sandbox (isolated-vm for JavaScript, bubblewrap for Python); envs
 * and their measurement code see only these types.
 */
import type { JsonValue } from './json';

/** Languages the sandbox runs. */
export type CodeLanguage = 'js' | 'python';

/**
 * How one run (or one test of it) ended. Every run ends with exactly one of these and never
 * with a crash of the host. Every code but `ok` and `sandbox-error` is the program's doing:
 * - `wrong-answer`: it returned something else; `runtime-error`: it raised (or crashed its own
 *   process: SIGSEGV, SIGABRT); `syntax-error`: it does not parse;
 * - `timeout`, `memory-limit`, `output-limit`: it went past a limit of the run;
 * - `exited`: it ended its process or asked to (Python `sys.exit`, `os._exit`), or ended the
 *   sandbox's process before the results were written;
 * - `killed-by-signal`: a process of the run died by a signal the program sent (`os.kill`);
 * - `sandbox-error`: the sandbox failed (a bad request, a worker lost without cause): never the
 *   program's fault.
 */
export type RunCode = 'ok' | 'wrong-answer' | 'runtime-error' | 'syntax-error' | 'timeout' | 'memory-limit' | 'output-limit' | 'exited' | 'killed-by-signal' | 'sandbox-error';

/** Every run code, in a fixed order (for tables and validation). */
export const RUN_CODES: readonly RunCode[] = ['ok', 'wrong-answer', 'runtime-error', 'syntax-error', 'timeout', 'memory-limit', 'output-limit', 'exited', 'killed-by-signal', 'sandbox-error'];

/** What each run code means, in one line (docs tables, renderers, text observations). */
export const RUN_CODE_MEANING: Readonly<Record<RunCode, string>> = {
  ok: 'passed',
  'wrong-answer': 'returned a different value',
  'runtime-error': 'raised an error (or crashed its own process)',
  'syntax-error': 'the program does not parse',
  timeout: 'ran past the time limit',
  'memory-limit': 'ran out of memory',
  'output-limit': 'printed or returned more than allowed',
  exited: 'the program ended its process early (sys.exit, os._exit)',
  'killed-by-signal': 'a process of the program was killed by a signal it sent',
  'sandbox-error': 'the sandbox failed (not the program\'s fault)',
};

/**
 * One test: the argument list, and either the expected output or a property that must hold
 * (`property` is the source of a JS function `(output, ...args) => boolean`, run in a fresh
 * sandbox context, never in the host).
 */
export interface CodeTestCase {
  input: JsonValue[];
  expected?: JsonValue;
  property?: string;
}

/** Resource limits of one run (defaults in src/sandbox/limits.ts). */
export interface RunLimits {
  /** Wall time per test (and for loading the program), ms. */
  timeMs?: number;
  /** Memory of the program, MB. */
  memoryMb?: number;
  /** Bytes of output (a result's JSON, printed text). */
  outputBytes?: number;
}

/**
 * Run `program` (defining function `entry`) against `tests`; optionally a HumanEval-style `check(candidate)` source.
 * A field the request, a test or its limits do not have is refused (`sandbox-error`, "unknown field …", with the
 * nearest field): a misspelt limit would otherwise leave its default, silently.
 */
export interface CodeRunRequest {
  language: CodeLanguage;
  program: string;
  entry: string;
  tests: CodeTestCase[];
  /**
   * Python: source defining `check(candidate)` (asserts), run after the tests as one more test.
   * check() runs apart from the program: its namespace holds the builtins, `helpers`, and one
   * name from the program, the entry point (passed as `candidate` and bound to its own name);
   * nothing else the program defines (an `abs`, a helper of the same name) reaches it.
   */
  check?: string;
  /**
   * Python, with `check`: the task's own source run in check()'s namespace before it (helper
   * functions and imports check() uses; for HumanEval, the prompt). Never the program's.
   */
  helpers?: string;
  limits?: RunLimits;
  /**
   * Stop at the first test that times out (the rest are reported as timeouts too): for searches
   * that try many programs, where one endless loop must not cost a timeout per test.
   */
  stopOnTimeout?: boolean;
}

/** One test's outcome. `actual` is the program's output (JSON), when it produced one. */
export interface TestOutcome {
  code: RunCode;
  actual?: JsonValue;
  /** Error text for runtime errors, timeouts, limits (one line, truncated). */
  message?: string;
}

/** The result of a run: one overall code (the first failing test's, else ok) and one outcome per test. */
export interface CodeRunResult {
  code: RunCode;
  message?: string;
  tests: TestOutcome[];
  /** Tests passed (including the check, when there is one). */
  passed: number;
  total: number;
  /** Wall time of the whole run, ms (informational; never used for rewards). */
  ms: number;
}

/**
 * The effect kind "code-runs": request `{runs: CodeRunRequest[]}`, result `{runs: CodeRunResult[]}`
 * in the same order. Envs that run code request it; the catalog binds it to the sandbox.
 */
export const CODE_RUNS_EFFECT = 'code-runs';

/** Runs programs against tests (src/sandbox's pool implements it). */
export interface CodeRunner {
  /**
   * A result for every request, whatever it holds (a malformed one gets `sandbox-error` naming
   * the field); rejects only when `signal` aborts the run, or when the runner refuses more work
   * (a full queue).
   */
  run(request: CodeRunRequest, signal?: AbortSignal): Promise<CodeRunResult>;
}

/** Element types of kernel tensors (4 bytes each). */
export type KernelDType = 'f32' | 'i32' | 'u32';

/** A typed array of a kernel dtype. */
export type KernelArray = Float32Array | Int32Array | Uint32Array;

/** An output a kernel must return: its name, dtype and length for this call. */
export interface KernelOutputSpec {
  name: string;
  dtype: KernelDType;
  length: number;
}

/**
 * One timed kernel call. `ns`: host monotonic time of the kernel plus the materialization of
 * its outputs (fresh typed arrays of the declared dtype and length). `flags`: "returns-input"
 * (an output shares an input's buffer), "reuses-buffer" (an output buffer returned before);
 * `modified`: inputs the kernel wrote to.
 */
export interface KernelCallResult {
  code: RunCode;
  message?: string;
  ns?: number;
  outputs?: Record<string, KernelArray>;
  flags?: string[];
  modified?: string[];
}

/** An open lab: named kernels, each compiled in an isolate of its own, on one exclusive worker. */
export interface KernelLabSession {
  /** Compile/load status per kernel. */
  readonly status: Readonly<Record<string, { code: RunCode; message?: string }>>;
  call(name: string, inputs: Record<string, KernelArray>, dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult>;
  /** Disposes the isolates and frees the worker (always call it). */
  close(): Promise<void>;
}

/** AssemblyScript compiled to WebAssembly: the module's bytes, or why there are none. */
export interface WasmCompileResult {
  code: 'ok' | 'compile-error' | 'timeout' | 'sandbox-error';
  /** The compiler's diagnostics (compile-error) or what failed. */
  message?: string;
  /** The module (ok only). */
  wasm?: Uint8Array;
}

/**
 * Where kernels are measured. A session holds one pool slot for its lifetime, so nothing else
 * runs on that worker while it times (one timing per core).
 */
export interface KernelLab {
  /**
   * Compiles each kernel in an isolate of its own. `memoryMb` bounds each kernel's isolate as a
   * whole: its heap, its array buffers and the maxima of every WebAssembly memory it creates
   * (a kernel over it fails with `memory-limit`); `timeMs` bounds each call.
   */
  open(kernels: Record<string, string>, options?: { memoryMb?: number; timeMs?: number }, signal?: AbortSignal): Promise<KernelLabSession>;
  /**
   * Compiles AssemblyScript source to WebAssembly in a sandbox worker (incremental runtime with
   * its helpers exported, SIMD enabled). Takes a pool slot of its own: call it before `open`, not
   * while a session of a one-slot pool is open. Absent where the lab cannot compile.
   */
  compileAssemblyScript?(source: string, signal?: AbortSignal): Promise<WasmCompileResult>;
}
