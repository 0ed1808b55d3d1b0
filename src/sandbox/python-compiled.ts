/**
 * The harness compiled once per Python (and harness text), instead of in every fresh sandbox:
 * compiling the harness's source is most of what it adds to an interpreter's start (measured on
 * the 2-vCPU build machine: +444 page faults and +19 ms of CPU per run with the source on the
 * command line, +125 and +1.5 ms with the compiled code loaded; a page fault costs ~30-50 µs on
 * that VM). The first run for a Python compiles the harness in a sandbox of its own (the same
 * command line and uid drop as a run, so no Python ever runs outside a sandbox) and the host keeps
 * the code object's marshal bytes; every run then gets a short loader on its command line and
 * the bytes on stdin ahead of its request. Only the host's own harness text is ever compiled here:
 * no program is involved, and the bytes never come from a sandbox that ran one. A loader run by
 * another Python than the one that compiled (an upgrade under a running arena) exits before the
 * harness says "ready" (a sandbox-error), and the caller forgets the bytes so the next run
 * compiles again.
 */
import type { SpawnOptions } from 'node:child_process';
import { spawnFiltered } from './seccomp';

/** Python that compiles the source on stdin: its `sys.hexversion` on a line, then the code object's marshal bytes. */
export const PYTHON_COMPILE = String.raw`import marshal, sys
code = marshal.dumps(compile(sys.stdin.read(), "<harness>", "exec"))
sys.stdout.buffer.write(b"%d\n" % sys.hexversion + code)
sys.stdout.buffer.flush()
`;

/** Compiled code: its marshal bytes and the `sys.hexversion` of the Python that made them. */
export interface CompiledCode {
  bytes: Buffer;
  hexversion: number;
}

/**
 * The `-c` code that reads `code.bytes.length` bytes of marshal from stdin (posix.read: nothing
 * past them is taken) and runs them in `__main__`, as `-c` would run the source; refuses to run
 * under another Python than the one that compiled them.
 */
export function pythonLoader(code: CompiledCode): string {
  return String.raw`import sys, marshal, posix
if sys.hexversion != ${code.hexversion}:
    raise SystemExit("the harness was compiled by another Python")
code = b""
while len(code) < ${code.bytes.length}:
    chunk = posix.read(0, ${code.bytes.length} - len(code))
    if not chunk:
        raise SystemExit("the harness's code was cut short")
    code += chunk
exec(marshal.loads(code))
`;
}

/** Reads a compile run's output: the version line, then the bytes; null when it is not that. */
export function parseCompiled(out: Buffer): CompiledCode | null {
  const nl = out.indexOf(10);
  if (nl <= 0 || nl > 20) return null;
  const line = out.subarray(0, nl).toString('latin1');
  if (!/^\d+$/.test(line)) return null;
  const bytes = out.subarray(nl + 1);
  return bytes.length ? { bytes, hexversion: Number(line) } : null;
}

const cache = new Map<string, Promise<CompiledCode | null>>();

/**
 * `source` compiled by the sandboxed Python that `command` starts (a sandbox command line whose
 * last argument is the `-c` code, replaced here by PYTHON_COMPILE), spawned with `options`; made
 * once per `key` and shared by every run that asks meanwhile. Resolves null when the compile run
 * failed (the caller then runs the source as it is; a broken sandbox fails that run, which names why).
 */
export function compiledPython(key: string, source: string, command: string[], options: SpawnOptions): Promise<CompiledCode | null> {
  let made = cache.get(key);
  if (!made) {
    made = compileOnce(source, command, options);
    cache.set(key, made);
    // a failed compile is not kept: the next run tries again
    void made.then((c) => {
      if (!c && cache.get(key) === made) cache.delete(key);
    });
  }
  return made;
}

/** Forgets the compiled code of `key` (it did not run: the next run compiles again). */
export function forgetCompiled(key: string): void {
  cache.delete(key);
}

function compileOnce(source: string, command: string[], options: SpawnOptions): Promise<CompiledCode | null> {
  const args = [...command];
  args[args.length - 1] = PYTHON_COMPILE;
  return new Promise((resolve) => {
    const child = spawnFiltered(args, { ...options, stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => chunks.push(d));
    child.stdin!.on('error', () => undefined);
    child.on('error', () => resolve(null));
    child.on('close', (status) => resolve(status === 0 ? parseCompiled(Buffer.concat(chunks)) : null));
    child.stdin!.end(source);
  });
}
