/** The kernel-speedup task catalogue: every task, and a lookup by id. */
import { attentionTask } from './attention';
import { conv2dTask } from './conv2d';
import { histogramTask } from './histogram';
import { matmulTask } from './matmul';
import { prefixSumTask } from './prefix-sum';
import { rmsnormTask } from './rmsnorm';
import { softmaxTask } from './softmax';
import { sortTask } from './sort';
import { sumTask } from './sum';
import type { KernelTask } from './task';
import { transposeTask } from './transpose';

export type { KernelTask } from './task';

/** Every kernel task, in a fixed order. */
export const kernelTasks: KernelTask[] = [
  matmulTask,
  softmaxTask,
  rmsnormTask,
  conv2dTask,
  transposeTask,
  sumTask,
  prefixSumTask,
  histogramTask,
  sortTask,
  attentionTask,
];

/** The task with this id; throws an Error naming the unknown id and the known ones. */
export function kernelTask(id: string): KernelTask {
  const task = kernelTasks.find((t) => t.id === id);
  if (!task) throw new Error(`unknown kernel task "${id}"; known: ${kernelTasks.map((t) => t.id).join(', ')}`);
  return task;
}
