/**
 * Steps of a long experiment, each recorded when done (the ledger), run in dependency order,
 * `jobs` at a time: in this process, or in child processes (the same bench script with
 * `--step=KEY`, one core each; exit code 3 means the step was stopped, not failed).
 */
import { spawn } from 'node:child_process';

/** A step: its key and the steps it waits for. */
export interface Step {
  key: string;
  after: string[];
}

/**
 * Runs the steps `done` does not report done, at most `jobs` at once, each after the steps it
 * waits for; resolves true when all are done, false when one was stopped (the others that were
 * running are awaited first).
 */
export async function runSteps(steps: readonly Step[], done: (key: string) => boolean, jobs: number, runOne: (key: string) => Promise<boolean>): Promise<boolean> {
  const finished = new Set(steps.filter((s) => done(s.key)).map((s) => s.key));
  const running = new Map<string, Promise<{ key: string; ok: boolean }>>();
  let stopped = false;
  while (finished.size < steps.length && !stopped) {
    for (const s of steps) {
      if (running.size >= jobs) break;
      if (finished.has(s.key) || running.has(s.key) || !s.after.every((k) => finished.has(k))) continue;
      running.set(s.key, runOne(s.key).then((ok) => ({ key: s.key, ok })));
    }
    if (!running.size) throw new Error(`steps: none can run (waiting: ${steps.filter((s) => !finished.has(s.key)).map((s) => s.key).join(', ')})`);
    const { key, ok } = await Promise.race(running.values());
    running.delete(key);
    if (ok) finished.add(key);
    else stopped = true;
  }
  await Promise.all(running.values());
  return !stopped;
}

/** Runs one step in a child process: this script again with `--step=KEY` (without --jobs); resolves whether it finished. */
export function childStep(key: string): Promise<boolean> {
  const args = process.argv.slice(1).filter((a) => !a.startsWith('--jobs=') && !a.startsWith('--step='));
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...args, `--step=${key}`], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(true) : code === 3 ? done(false) : fail(new Error(`step ${key} failed (exit ${code})`))));
  });
}
