import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { ensureBuilt } from '../fixtures/built';

export const ROOT = resolve(__dirname, '..', '..');

// The bin runs dist/: build it first when any source is newer (npx jest alone must not test stale code).
ensureBuilt();

/** Runs the real `arena` bin (compiled dist/, rebuilt when stale: see test/fixtures/built.ts). */
export function arena(args: string[], options: { timeout?: number; env?: NodeJS.ProcessEnv } = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: options.timeout ?? 60_000,
    env: { ...process.env, FORCE_COLOR: '0', ...options.env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Parses JSON lines. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** {@link arena} without blocking this process's event loop (for tests that serve the child: a mock LLM server, a remote seat). */
export function arenaAsync(args: string[], options: { timeout?: number; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), ...args], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A running `arena` process: its output so far, a wait for output, and its exit. */
export interface RunningArena {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout + stderr match `re` (rejects after `ms`, a generous ceiling). */
  waitFor(re: RegExp, ms?: number): Promise<void>;
  /** Resolves with the exit code (or the signal name) when the process ends. */
  exited: Promise<number | string>;
}

/** Starts the real `arena` bin without waiting for it (for signals and long runs). */
export function startArena(args: string[], env: NodeJS.ProcessEnv = {}): RunningArena {
  const child = spawn(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), ...args], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0', ...env } });
  let out = '';
  let err = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) if (w.re.test(out + err)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
  };
  child.stdout!.on('data', (d: Buffer) => ((out += d.toString()), check()));
  child.stderr!.on('data', (d: Buffer) => ((err += d.toString()), check()));
  const exited = new Promise<number | string>((r) => child.on('exit', (code, signal) => r(code ?? signal ?? -1)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(re, ms = 45_000) {
      if (re.test(out + err)) return Promise.resolve();
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no output matching ${re} within ${ms} ms; stdout: ${out.slice(-500)} stderr: ${err.slice(-500)}`)), ms);
        waiters.push({ re, resolve: () => (clearTimeout(timer), ok()) });
        void exited.then(() => setImmediate(() => {
          if (waiters.some((w) => w.re === re)) (clearTimeout(timer), fail(new Error(`exited before output matching ${re}; stdout: ${out.slice(-500)} stderr: ${err.slice(-500)}`)));
        }));
      });
    },
  };
}
