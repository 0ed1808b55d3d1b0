/**
 * Defender baselines of kernel-speedup-v1:
 * - autotuner: random search then hill-climbing over the task's schedules. In live episodes it
 *   measures in the kernel lab the arena lends (budget option) and submits the best, then stops;
 *   without a lab (or with timing "table") it searches through its own revisions, each measured
 *   by the env, and resubmits the best on its last one;
 * - expert-defender: submits the task's hand-optimized expert kernel, then stops (where only
 *   schedules are allowed: the schedule recorded fastest for the shape in the table);
 * - reference-defender: submits the reference itself (a speedup of 1: the floor).
 * Where the episode takes code only, schedules are submitted as their rendered JavaScript.
 */
import type { AgentFactory, AgentServices } from '../../../src/core/agent';
import type { Rng } from '../../../src/core/rng';
import { STOP } from '../actions';
import { tableShape } from '../table';
import { kernelTask } from '../tasks';
import { legalScheduleIndices, scheduleAt } from '../tasks/schedule';
import type { KernelObservation } from '../types';
import { autotune, neighbours } from './autotune';

const ENVS = ['kernel-speedup-v1'];

/** A schedule as this episode takes it: the index, or its JavaScript where only code is allowed. */
function submitSchedule(o: KernelObservation, index: number): unknown {
  if (o.candidates !== 'code') return index;
  const task = kernelTask(o.task.id);
  return { js: task.template.render(scheduleAt(task, index)) };
}

/** The best measured schedule so far and every schedule tried, from the observation. */
function measuredSchedules(o: KernelObservation): { tried: Set<number>; best: { index: number; speedup: number } | null } {
  const tried = new Set<number>();
  let best: { index: number; speedup: number } | null = null;
  for (const r of o.revisions) {
    const i = r.candidate.index;
    if (i === undefined) continue;
    tried.add(i);
    const t = r.measurement?.correct ? r.measurement.timing : null;
    if (t && (!best || t.speedup > best.speedup)) best = { index: i, speedup: t.speedup };
  }
  return { tried, best };
}

/** The next schedule of a search through the episode's own revisions. */
export function revisionSearchStep(o: KernelObservation, rng: Rng): number {
  const task = kernelTask(o.task.id);
  const legal = legalScheduleIndices(task);
  const { tried, best } = measuredSchedules(o);
  const total = o.revisions.length + o.revisionsLeft;
  const last = o.revisionsLeft === 1 && total >= 3;
  if (last && best) return best.index;
  const randomPhase = o.revisions.length < Math.max(1, Math.ceil(total * 0.4));
  if (!randomPhase && best) {
    const next = neighbours(task, best.index).filter((n) => !tried.has(n));
    if (next.length) return rng.pick(next);
  }
  const untried = legal.filter((i) => !tried.has(i));
  return rng.pick(untried.length ? untried : legal);
}

/** The schedule with the best recorded speedup on the observation's shape, or null. */
export function bestRecorded(o: KernelObservation): number | null {
  if (o.shapes !== 'timing') return null;
  const row = tableShape(o.task.id, o.shapeIndex);
  if (!row || !row.schedules.length) return null;
  return row.schedules.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

function lab(services: AgentServices | undefined) {
  return services?.kernels;
}

export const autotunerDefender: AgentFactory = {
  name: 'autotuner',
  description: 'random search then hill-climbing over the schedule template (TVM-style); measures in the kernel lab the arena lends (option budget, default 12) or through its own revisions',
  envs: ENVS,
  roles: ['defender'],
  create: ({ options, services, seed }) => {
    const budget = typeof options?.budget === 'number' && options.budget > 0 ? Math.floor(options.budget) : 12;
    return {
      name: 'autotuner',
      async act(o: KernelObservation, _legal, ctx) {
        const kernels = lab(services);
        if (o.timing === 'live' && kernels) {
          if (o.revisions.length) return STOP;
          const task = kernelTask(o.task.id);
          const { best } = await autotune(kernels, task, o.shape, { budget, seed: seed + ctx.step, signal: ctx.signal });
          return submitSchedule(o, best.index);
        }
        return submitSchedule(o, revisionSearchStep(o, ctx.rng));
      },
    };
  },
};

export const expertDefender: AgentFactory = {
  name: 'expert-defender',
  description: "submits the task's hand-optimized expert kernel (the ceiling), then stops",
  envs: ENVS,
  roles: ['defender'],
  create: () => ({
    name: 'expert-defender',
    act: (o: KernelObservation) => {
      if (o.revisions.length) return STOP;
      const task = kernelTask(o.task.id);
      if (o.candidates !== 'schedule') return { js: task.expert };
      // schedules only: the template's best recorded schedule for this shape (else the first)
      return bestRecorded(o) ?? legalScheduleIndices(task)[0];
    },
  }),
};

export const referenceDefender: AgentFactory = {
  name: 'reference-defender',
  description: 'submits the reference kernel itself (speedup 1: the floor), then stops',
  envs: ENVS,
  roles: ['defender'],
  create: () => ({
    name: 'reference-defender',
    act: (o: KernelObservation) => (o.revisions.length ? STOP : o.candidates === 'schedule' ? legalScheduleIndices(kernelTask(o.task.id))[0] : { js: o.task.reference }),
  }),
};
