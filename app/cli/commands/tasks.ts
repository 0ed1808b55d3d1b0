import { checkTask, fileTasks, type TaskFileFormat, type TaskVerdict } from '../../../envs/code-repair';
import type { Registry } from '../../../src/core/registry';
import { createProgress } from '../progress';
import { UsageError } from '../options';

export interface TasksCheckArgs {
  format?: string;
  concurrency?: number;
}

/**
 * `arena tasks check FILE.jsonl [--format humaneval]`: runs every task's reference against its
 * own tests in the sandbox (and checks that each buggy variant fails a hidden test); one JSON
 * line per task, then `{"summary": ...}`; exit 1 when any task fails.
 */
export async function tasksCheckCommand(registry: Registry, file: string, args: TasksCheckArgs): Promise<number> {
  const format = (args.format ?? 'arena') as TaskFileFormat;
  if (format !== 'arena' && format !== 'humaneval') throw new UsageError(`--format: expected "arena" or "humaneval", got "${args.format}"`);
  const runner = registry.services.code;
  if (!runner) throw new UsageError('tasks check needs the sandbox (no code runner in this registry)');
  let tasks;
  try {
    tasks = fileTasks(file, format);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const progress = createProgress('tasks', tasks.length, { quiet: !process.stderr.isTTY });
  const verdicts: TaskVerdict[] = new Array(tasks.length);
  let next = 0;
  const concurrency = Math.max(1, args.concurrency ?? 4);
  let printed = 0;
  const flush = () => {
    while (printed < tasks.length && verdicts[printed]) process.stdout.write(JSON.stringify(verdicts[printed++]) + '\n');
  };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        verdicts[i] = await checkTask(tasks[i], runner);
        progress.tick();
        flush();
      }
    }),
  );
  progress.stop();
  const failed = verdicts.filter((v) => v.status !== 'ok');
  const buggy = verdicts.filter((v) => v.buggy);
  const summary = {
    tasks: verdicts.length,
    ok: verdicts.length - failed.length,
    failed: failed.map((v) => v.id),
    tests: verdicts.reduce((s, v) => s + v.total, 0),
    ...(buggy.length ? { buggy: { total: buggy.reduce((s, v) => s + v.buggy!.total, 0), failingHidden: buggy.reduce((s, v) => s + v.buggy!.failingHidden, 0) } } : {}),
  };
  process.stdout.write(JSON.stringify({ summary }) + '\n');
  return failed.length ? 1 : 0;
}
