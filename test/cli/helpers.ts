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
