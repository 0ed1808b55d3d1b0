/**
 * The schedule action space of a task's template: fixed indices, legality, decoding.
 *
 * A schedule's index is the mixed-radix number of its option indices, the first knob most
 * significant: with knobs of n₀, n₁, …, n_{k−1} options and chosen option indices o₀ … o_{k−1},
 * index = ((o₀·n₁ + o₁)·n₂ + o₂)… . Indices never change for a task (its knobs and their option
 * order are fixed), so a trained policy's outputs keep their meaning. Illegal combinations keep
 * their index and are masked out (see {@link legalScheduleIndices}).
 */
import type { KernelTask, Schedule } from './task';

/** Number of schedule indices of the task (legal or not): the product of the knobs' option counts. */
export function scheduleCount(task: KernelTask): number {
  return task.template.knobs.reduce((n, k) => n * k.options.length, 1);
}

/** The schedule with this index; throws a RangeError naming the task when out of range. */
export function scheduleAt(task: KernelTask, index: number): Schedule {
  const count = scheduleCount(task);
  if (!Number.isInteger(index) || index < 0 || index >= count) throw new RangeError(`${task.id}: schedule index ${index} is not in 0..${count - 1}`);
  const out: Schedule = {};
  let rest = index;
  const knobs = task.template.knobs;
  for (let k = knobs.length - 1; k >= 0; k--) {
    const n = knobs[k].options.length;
    out[knobs[k].name] = knobs[k].options[rest % n];
    rest = Math.floor(rest / n);
  }
  // keep the knobs' declared order in the object
  return Object.fromEntries(knobs.map((k) => [k.name, out[k.name]]));
}

/** The index of a schedule, or -1 when it names an unknown knob, misses one or uses an unlisted option. */
export function scheduleIndex(task: KernelTask, schedule: Schedule): number {
  const knobs = task.template.knobs;
  if (Object.keys(schedule).length !== knobs.length) return -1;
  let index = 0;
  for (const knob of knobs) {
    const o = knob.options.indexOf(schedule[knob.name]);
    if (o < 0) return -1;
    index = index * knob.options.length + o;
  }
  return index;
}

/** Whether the schedule at `index` is legal for the template (in range and passing its rule). */
export function isLegalSchedule(task: KernelTask, index: number): boolean {
  if (!Number.isInteger(index) || index < 0 || index >= scheduleCount(task)) return false;
  const rule = task.template.legal;
  return !rule || rule(scheduleAt(task, index));
}

const legalCache = new WeakMap<KernelTask, readonly number[]>();

/** The legal schedule indices of the task, ascending (computed once per task). */
export function legalScheduleIndices(task: KernelTask): readonly number[] {
  let list = legalCache.get(task);
  if (!list) {
    list = Object.freeze(Array.from({ length: scheduleCount(task) }, (_, i) => i).filter((i) => isLegalSchedule(task, i)));
    legalCache.set(task, list);
  }
  return list;
}

/** Short text of a schedule: `order=bt rows=4 unroll=2 tileK=0`. */
export function scheduleText(schedule: Schedule): string {
  return Object.entries(schedule)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}
