/**
 * The bundled task sets and user task files, read once and cached. Bundled: the project's 46
 * JavaScript tasks (tasks/js-tasks.jsonl) and HumanEval's 164 Python problems
 * (data/humaneval/, MIT, OpenAI). The files ship beside the package (see package.json "files").
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { CodeTask } from './task-format';
import { TaskFormatError, parseTaskLines, type TaskFileFormat } from './task-parse';

/** Named task sets. */
export type TaskSet = 'js' | 'humaneval';

/** The folder of this env's data (envs/code-repair), from src or from dist (exported for the exploit fixtures' task file). */
export function envFolder(): string {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'envs', 'code-repair');
    if (existsSync(join(candidate, 'tasks', 'js-tasks.jsonl'))) return candidate;
    if (existsSync(join(dir, 'tasks', 'js-tasks.jsonl'))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`code-repair: the bundled task files are missing (looked above ${__dirname})`);
}

const cache = new Map<string, CodeTask[]>();

/** The bundled tasks of a set. */
export function bundledTasks(set: TaskSet): CodeTask[] {
  let tasks = cache.get(set);
  if (!tasks) {
    const folder = envFolder();
    tasks =
      set === 'js'
        ? parseTaskLines(readFileSync(join(folder, 'tasks', 'js-tasks.jsonl'), 'utf8'), 'tasks/js-tasks.jsonl')
        : parseTaskLines(gunzipSync(readFileSync(join(folder, 'data', 'humaneval', 'HumanEval.jsonl.gz'))).toString('utf8'), 'HumanEval.jsonl.gz', 'humaneval');
    cache.set(set, tasks);
  }
  return tasks;
}

/** Tasks of a user's JSONL file (path resolved against the current directory), cached by path. */
export function fileTasks(path: string, format: TaskFileFormat = 'arena'): CodeTask[] {
  const abs = resolve(path);
  const key = `${format}:${abs}`;
  let tasks = cache.get(key);
  if (!tasks) {
    let content: string;
    try {
      content = path.endsWith('.gz') ? gunzipSync(readFileSync(abs)).toString('utf8') : readFileSync(abs, 'utf8');
    } catch (e) {
      throw new TaskFormatError(path, `cannot read the task file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    tasks = parseTaskLines(content, path, format);
    cache.set(key, tasks);
  }
  return tasks;
}
