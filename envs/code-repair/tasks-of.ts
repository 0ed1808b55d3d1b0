/** Which tasks an episode draws from (params `taskFile` / `tasks`), and the draw itself. */
import { ParamError, type Params } from '../../src/core/params';
import type { Rng } from '../../src/core/rng';
import { ENV_ID } from './config';
import type { CodeTask } from './task-format';
import { bundledTasks, fileTasks, type TaskSet } from './task-store';

/** The task list the params name. */
export function taskList(p: Params): CodeTask[] {
  if (typeof p.taskFile === 'string') {
    try {
      return fileTasks(p.taskFile);
    } catch (e) {
      throw new ParamError(ENV_ID, 'taskFile', `is unusable: ${(e as Error).message}`);
    }
  }
  return bundledTasks(p.tasks as TaskSet);
}

/** Cross-field checks of the task params (run by `resolveParams`). */
export function checkTaskParams(p: Params): void {
  const tasks = taskList(p);
  const repair = p.mode === 'repair';
  const eligible = repair ? tasks.filter((t) => t.buggy?.length) : tasks;
  if (!eligible.length) throw new ParamError(ENV_ID, 'mode', `"repair" needs tasks with buggy variants; this task set has none (use mode "generate")`);
  if (typeof p.task === 'string') {
    const t = tasks.find((x) => x.id === p.task);
    if (!t) throw new ParamError(ENV_ID, 'task', `"${p.task}" is not in the task set (e.g. ${tasks.slice(0, 3).map((x) => x.id).join(', ')})`);
    if (repair && !t.buggy?.length) throw new ParamError(ENV_ID, 'task', `"${p.task}" has no buggy variants for mode "repair"`);
    if (repair && typeof p.variant === 'number' && p.variant >= t.buggy!.length) throw new ParamError(ENV_ID, 'variant', `must be below ${t.buggy!.length} for task "${p.task}"`);
  } else if (typeof p.variant === 'number') {
    throw new ParamError(ENV_ID, 'variant', 'needs a "task" (variants are numbered per task)');
  }
}

/** The episode's task and buggy variant (-1 in generate mode). */
export function drawTask(p: Params, rng: Rng): { task: CodeTask; variant: number } {
  const tasks = taskList(p);
  const repair = p.mode === 'repair';
  const task = typeof p.task === 'string' ? tasks.find((t) => t.id === p.task)! : rng.pick(repair ? tasks.filter((t) => t.buggy?.length) : tasks);
  const variant = repair ? (typeof p.variant === 'number' ? p.variant : rng.int(task.buggy!.length)) : -1;
  return { task, variant };
}
