import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

/** Runs the real `arena` bin (compiled dist/, built by `npm test` first). */
export function arena(args: string[], options: { timeout?: number } = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [resolve(ROOT, 'bin', 'arena.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: options.timeout ?? 60_000,
    env: { ...process.env, FORCE_COLOR: '0' },
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
