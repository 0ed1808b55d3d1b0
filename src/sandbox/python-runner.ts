/**
 * Runs one Python batch (a program against all its tests) in a fresh bubblewrap sandbox:
 * dropped to an unprivileged uid of its own (as root RLIMIT_NPROC would not apply) by the spawn
 * itself, so bwrap is the only program launched before Python; rlimits on CPU, address space,
 * processes, file size and open files, set by the harness before any program code runs (lowering
 * a limit needs no privilege); every namespace unshared (no network), read-only /usr, nothing
 * writable, no environment, killed with its parent; the memory of all the run's processes
 * together watched by the host (run-memory.ts) against the same bound as RLIMIT_AS. Spawned
 * asynchronously: the event loop never waits on it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { JsonValue } from '../core/json';
import type { ResolvedLimits } from './limits';
import { compiledPython, forgetCompiled, pythonLoader } from './python-compiled';
import { PYTHON_CHILD, PYTHON_HARNESS } from './python-harness';
import { SECCOMP_FD, seccompProblem, spawnFiltered } from './seccomp';
import { validRaw, type RawRun } from './raw-run';
import { watchRunMemory } from './run-memory';

/** Where the Python sandbox's programs live (Debian packages bubblewrap and python3). */
export interface PythonSandboxPaths {
  bwrap: string;
  python: string;
}

export const DEFAULT_PYTHON_PATHS: PythonSandboxPaths = { bwrap: '/usr/bin/bwrap', python: '/usr/bin/python3' };

/** Why the Python sandbox cannot run here (a missing program, an architecture without a seccomp filter), or null when it can. */
export function pythonSandboxProblem(paths: PythonSandboxPaths = DEFAULT_PYTHON_PATHS, arch: NodeJS.Architecture = process.arch): string | null {
  const missing = (Object.entries(paths) as [string, string][]).filter(([, p]) => !existsSync(p));
  if (!missing.length) return seccompProblem(arch);
  return `the Python sandbox needs ${missing.map(([k, p]) => `${k} (${p})`).join(', ')}: install Debian's bubblewrap and python3`;
}

/** Unprivileged uids the sandboxes run as, one after another (see {@link pythonSpawnIds}). */
const UID_BASE = 61000;
const UID_COUNT = 1024;
// a random start, so two arena processes on one machine rarely share a uid at the same time
let nextUid = Math.floor(Math.random() * UID_COUNT);

/**
 * The uid and gid the next sandbox is spawned as (Node's spawn sets them in the child, with
 * supplementary groups cleared, before bwrap starts), or {} when the arena does not run as root
 * (the sandbox then runs as the arena's own unprivileged user). Each run gets the next uid of a
 * range of 1,024: RLIMIT_NPROC counts per uid, and the kernel releases a finished pid namespace's
 * count only seconds later (measured: 31 quick runs in a row under one uid exhaust a limit of
 * 32), so reusing one uid would starve the next sandbox; concurrent runs never share one either.
 * bwrap's own `--uid` is no substitute: as root it maps the uid inside to root outside, whom
 * RLIMIT_NPROC does not bind.
 */
export function pythonSpawnIds(): { uid?: number; gid?: number } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const uid = UID_BASE + (nextUid++ % UID_COUNT);
  return { uid, gid: uid };
}

/** The rlimits the harness sets on itself before the program runs (see python-harness.ts). */
export interface PythonRlimits {
  /** RLIMIT_CPU, seconds (soft = hard: SIGXCPU, then SIGKILL). */
  cpu: number;
  /** RLIMIT_AS, bytes. */
  as: number;
  /** RLIMIT_NPROC: processes of the sandbox's uid. */
  nproc: number;
  /** RLIMIT_FSIZE, bytes. */
  fsize: number;
  /** RLIMIT_NOFILE. */
  nofile: number;
}

/**
 * A run's memory, in bytes: `memoryMb` and 64 MB for the interpreter (its code and libraries,
 * mapped into its address space). Both the address space one process may map (RLIMIT_AS) and
 * the memory all the run's processes may hold together (run-memory.ts, watched by the host).
 */
export function pythonMemoryBytes(limits: ResolvedLimits): number {
  return (limits.memoryMb + 64) * 1024 * 1024;
}

/** The rlimits of a run with these limits and wall clock. */
export function pythonRlimits(limits: ResolvedLimits, wallSeconds: number): PythonRlimits {
  return { cpu: Math.max(1, Math.ceil(wallSeconds)), as: pythonMemoryBytes(limits), nproc: 64, fsize: Math.max(1_048_576, limits.outputBytes), nofile: 64 };
}

/** How a sandbox's command line differs by who runs in it. */
export interface PythonCommandOptions {
  /**
   * The sandbox may make user namespaces of its own: true only for the per-slot servers, which
   * make one per run (python-slot-server.ts; a run's own has no uid mapping, so it can make none).
   * Otherwise bwrap's `--disable-userns`: a program that could make one would map its uid there,
   * mount a tmpfs and store in RAM without limit (measured: 300 MB under `memoryMb: 128`).
   */
  nestedUserNamespaces?: boolean;
}

/** The bubblewrap command line of one sandboxed Python run: Python running `code` (by default the harness). */
export function pythonCommand(paths: PythonSandboxPaths, code: string = PYTHON_HARNESS, options: PythonCommandOptions = {}): string[] {
  const lib64 = existsSync('/usr/lib64') ? ['--symlink', 'usr/lib64', '/lib64'] : [];
  return [
    paths.bwrap,
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/lib', '/lib',
    ...lib64,
    '--symlink', 'usr/bin', '/bin',
    '--proc', '/proc',
    '--dev', '/dev',
    // nothing writable: a tmpfs would be an unbounded store in RAM (bwrap 0.8 has no --size)
    '--remount-ro', '/dev',
    '--remount-ro', '/',
    '--unshare-all',
    ...(options.nestedUserNamespaces ? [] : ['--unshare-user', '--disable-userns']),
    // refuses the syscalls whose kernel memory no limit binds (seccomp.ts); the spawn feeds it (spawnFiltered)
    '--seccomp', String(SECCOMP_FD),
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--setenv', 'PYTHONDONTWRITEBYTECODE', '1',
    '--chdir', '/',
    '--',
    ...pythonArgv(paths, code),
  ];
}

/** The sandbox's Python command line running `code`: isolated mode (no environment variables, no user site), no `site`. */
export function pythonArgv(paths: PythonSandboxPaths, code: string): string[] {
  return [paths.python, '-I', '-S', '-c', code];
}

/** The harness as a run starts it (see {@link runPythonBatch}). */
export interface PreparedHarness {
  /** The `-c` code: the loader of the compiled harness, or the harness's source when the compile failed. */
  code: string;
  /** The bytes written on stdin ahead of the request: the compiled code's, or none. */
  prefix: Buffer;
  /** Forgets the compiled code (a run with it never said "ready": the next one compiles again). */
  forget: () => void;
}

/** The harness compiled once per Python (python-compiled.ts), ready to run with `paths`. */
export async function preparedHarness(paths: PythonSandboxPaths): Promise<PreparedHarness> {
  const key = `${paths.bwrap}\0${paths.python}`;
  const compiled = await compiledPython(key, PYTHON_HARNESS, pythonCommand(paths), { env: {}, ...pythonSpawnIds() });
  if (!compiled) return { code: PYTHON_HARNESS, prefix: Buffer.alloc(0), forget: () => undefined };
  return { code: pythonLoader(compiled), prefix: compiled.bytes, forget: () => forgetCompiled(key) };
}

/** What one Python batch needs. */
export interface PythonBatch {
  program: string;
  entry: string;
  inputs: JsonValue[][];
  check?: string;
  /** The task's helpers, run in check()'s namespace before it (with `check` only). */
  helpers?: string;
  limits: ResolvedLimits;
  paths?: PythonSandboxPaths;
  signal?: AbortSignal;
}

/** A batch as the harness reads it (two lines on stdin), with what the host needs to judge the run. */
export interface PythonRequest {
  /** The request line and the nonce line. */
  text: string;
  nonce: string;
  /** The run's wall clock. */
  wallMs: number;
  /** Characters of stdout (and of stderr) beyond which the run is an output-limit. */
  outputCap: number;
}

/** The harness's request for a batch, with a fresh nonce. */
export function pythonRequest(b: PythonBatch): PythonRequest {
  const nonce = `@@arena-${randomBytes(8).toString('hex')}@@`;
  const wallMs = b.limits.timeMs * (b.inputs.length + (b.check ? 3 : 2)) + 3000;
  const request = { program: b.program, entry: b.entry, inputs: b.inputs.map((i) => JSON.stringify(i)), check: b.check ?? null, helpers: b.check ? (b.helpers ?? null) : null, timeMs: b.limits.timeMs, outputBytes: b.limits.outputBytes, rlimits: pythonRlimits(b.limits, wallMs / 1000), ...(b.check ? { child: PYTHON_CHILD } : {}) };
  return { text: `${JSON.stringify(request)}\n${nonce}\n`, nonce, wallMs, outputCap: b.limits.outputBytes * 2 + 1_000_000 };
}

/**
 * Runs a batch; resolves with the raw outcome (never rejects for anything the program does). The
 * harness runs as code compiled once per Python (python-compiled.ts: a loader on the command line,
 * the marshal bytes on stdin ahead of the request), or as its source when that compile failed.
 */
export async function runPythonBatch(b: PythonBatch): Promise<RawRun> {
  const paths = b.paths ?? DEFAULT_PYTHON_PATHS;
  const problem = pythonSandboxProblem(paths);
  if (problem) return { code: 'sandbox-error', message: problem, outputs: [] };
  const harness = await preparedHarness(paths);
  if (b.signal?.aborted) return { code: 'sandbox-error', message: 'cancelled', outputs: [] };
  const { text, nonce, wallMs, outputCap: stdoutCap } = pythonRequest(b);
  return new Promise((resolve) => {
    // no environment: bwrap's own process keeps what it was given, and the program can read it in /proc
    const child = spawnFiltered(pythonCommand(paths, harness.code), { stdio: ['pipe', 'pipe', 'pipe'], env: {}, ...pythonSpawnIds() });
    let out = '';
    let err = '';
    let why: 'timeout' | 'output-limit' | 'memory-limit' | 'aborted' | null = null;
    let held: number | undefined;
    // bwrap's outer process, killed before its sandbox's init had asked to die with it (the first
    // milliseconds), leaves that init and the harness running, out of every limit's reach; from the
    // harness's "ready" on, it has. So a stop before "ready" waits for it, except the wall clock's.
    let ready = false;
    const kill = (reason: typeof why) => {
      why ??= reason;
      if (ready || reason === 'timeout') child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), wallMs);
    // the spawned bwrap's child is the sandbox's pid 1: the run's processes are the rest of its namespace
    const memory = child.pid === undefined ? null : watchRunMemory({ parent: child.pid, limitBytes: pythonMemoryBytes(b.limits), onOver: (used) => ((held = used), kill('memory-limit')) });
    const onAbort = () => kill('aborted');
    b.signal?.addEventListener('abort', onAbort);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!ready && out.includes(`${nonce}ready`)) {
        ready = true;
        if (why) kill(why);
      }
      if (out.length > stdoutCap) kill('output-limit');
    });
    let errBytes = 0;
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      errBytes += d.length;
      err = tail(err + d); // its last line says why a program ended early
      if (errBytes > stdoutCap) kill('output-limit');
    });
    child.stdin!.on('error', () => undefined); // a program that dies early closes its stdin: not our error
    const end = (r: RawRun) => {
      clearTimeout(timer);
      memory?.stop();
      b.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    child.on('error', (e) => end({ code: 'sandbox-error', message: `cannot start the Python sandbox: ${e.message}`, outputs: [] }));
    child.on('close', (status, sig) => {
      // compiled code that never reached "ready" (another Python now?) is compiled again next time
      if (!ready) harness.forget();
      end(parseRun(out, err, nonce, status, sig, why, b.limits, b.inputs.length, held));
    });
    child.stdin!.end(Buffer.concat([harness.prefix, Buffer.from(text)]));
  });
}

/** What is kept of a sandbox's stderr: its last 64 KiB (the end explains an early exit). */
export function tail(text: string): string {
  return text.length > 65_536 ? text.slice(-65_536) : text;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n').filter(Boolean).pop() ?? '';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

const SIGNALS: Record<number, NodeJS.Signals> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 6: 'SIGABRT', 7: 'SIGBUS', 9: 'SIGKILL', 10: 'SIGUSR1', 11: 'SIGSEGV', 12: 'SIGUSR2', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM', 24: 'SIGXCPU', 25: 'SIGXFSZ' };

/**
 * How a process that ran the program ended without a result line: the program's doing in
 * every case (the harness was running), so never sandbox-error.
 */
export function endedEarly(status: number | null, sig: NodeJS.Signals | null, err: string, limits: ResolvedLimits): RawRun {
  if (sig === 'SIGXCPU') return { code: 'timeout', message: `the program ran past its time budget (${limits.timeMs} ms per test)`, outputs: [] };
  if (sig === 'SIGXFSZ') return { code: 'output-limit', message: 'the program wrote more output than allowed', outputs: [] };
  if (sig === 'SIGSEGV' || sig === 'SIGBUS' || sig === 'SIGABRT') return { code: 'runtime-error', message: `the program crashed (${sig})`, outputs: [] };
  if (sig) return { code: 'killed-by-signal', message: `the program's process was killed by ${sig}`, outputs: [] };
  const detail = firstLine(err);
  if (/MemoryError/.test(detail)) return { code: 'memory-limit', message: detail, outputs: [] };
  return { code: 'exited', message: `the program ended the sandbox's process (exit status ${status}) before its results were written${detail ? `: ${detail}` : ''}`, outputs: [] };
}

/** Whether a raw run claims `code` anywhere (its own code, a test's, the check's). */
function claims(raw: RawRun, code: RawRun['code']): boolean {
  return raw.code === code || raw.check?.code === code || raw.outputs.some((o) => o.code === code);
}

/**
 * Turns the process's output and exit into a raw run. The result line must answer each of the
 * `tests`, and may not claim `sandbox-error` (the harness never writes it: only a forged line
 * could, to pass the program's fault off as ours). `why`: why the host stopped the run, if it
 * did; `held`: for a `memory-limit` stop, the bytes the run's processes held together.
 */
export function parseRun(out: string, err: string, nonce: string, status: number | null, signal: NodeJS.Signals | null, why: string | null, limits: ResolvedLimits, tests: number, held = 0): RawRun {
  if (why === 'aborted') return { code: 'sandbox-error', message: 'cancelled', outputs: [] };
  const at = out.lastIndexOf(`${nonce}{`);
  if (at >= 0 && why === null) {
    const end = out.indexOf('\n', at);
    let parsed: unknown;
    try {
      parsed = JSON.parse(out.slice(at + nonce.length, end < 0 ? undefined : end));
    } catch {
      parsed = undefined; // a result line cut short
    }
    const valid = parsed === undefined ? null : validRaw(parsed, tests);
    if (valid && !claims(valid, 'sandbox-error')) return valid;
    if (parsed !== undefined) return { code: 'runtime-error', message: 'the program wrote a malformed result line', outputs: [] };
  }
  // bwrap reports its child's death by signal as exit status 128 + n
  const sig = signal ?? (status !== null && status > 128 ? (SIGNALS[status - 128] ?? (`signal ${status - 128}` as NodeJS.Signals)) : null);
  // before the harness said "ready" no program code had run: the sandbox itself failed
  if (!out.includes(`${nonce}ready`)) return { code: 'sandbox-error', message: `the Python sandbox did not start: ${firstLine(err) || `exit status ${status}${sig ? `, ${sig}` : ''}`}`, outputs: [] };
  if (why === 'timeout') return { code: 'timeout', message: `the program ran past its time budget (${limits.timeMs} ms per test)`, outputs: [] };
  if (why === 'output-limit') return { code: 'output-limit', message: 'the program wrote more output than allowed', outputs: [] };
  if (why === 'memory-limit') return { code: 'memory-limit', message: `the run's processes together held ${(held / (1024 * 1024)).toFixed(1)} MB, over its limit of ${pythonMemoryBytes(limits) / (1024 * 1024)} MB (memoryMb ${limits.memoryMb} and 64 MB for the interpreter)`, outputs: [] };
  return endedEarly(status, sig, err, limits);
}
