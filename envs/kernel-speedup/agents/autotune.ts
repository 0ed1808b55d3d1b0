/**
 * Schedule search as TVM's tuners do it, over a task's template: random search over the legal
 * schedules, then hill-climbing from the best one found (neighbours: one knob moved to the next
 * or previous option), each candidate measured for real in the kernel lab with a quick protocol
 * (the timing shape only, fewer trials: the template's schedules are correct by construction,
 * and only their order matters here). The env measures the chosen schedule with the full protocol.
 */
import { Rng } from '../../../src/core/rng';
import type { KernelLab } from '../../../src/core/sandbox';
import { measureKernel } from '../measure/measure';
import { legalScheduleIndices, scheduleAt, scheduleIndex, isLegalSchedule } from '../tasks/schedule';
import type { Dims, KernelTask } from '../tasks/task';

/** One measured schedule. */
export interface Tried {
  index: number;
  speedup: number;
}

/** Options of a search. */
export interface AutotuneOptions {
  /** Schedules measured in all (default 16). */
  budget?: number;
  /** Share of the budget spent on random search before hill-climbing (default 0.4). */
  randomShare?: number;
  seed?: number;
  /** Timed trials per quick measurement (default 10). */
  trials?: number;
  signal?: AbortSignal;
}

/** The legal neighbours of a schedule: one knob moved by one option. */
export function neighbours(task: KernelTask, index: number): number[] {
  const s = scheduleAt(task, index);
  const out: number[] = [];
  for (const knob of task.template.knobs) {
    const at = knob.options.indexOf(s[knob.name]);
    for (const d of [-1, 1]) {
      const o = at + d;
      if (o < 0 || o >= knob.options.length) continue;
      const j = scheduleIndex(task, { ...s, [knob.name]: knob.options[o] });
      if (isLegalSchedule(task, j)) out.push(j);
    }
  }
  return out;
}

/**
 * The search itself over any objective (a measured speedup, or a table lookup): returns every
 * schedule tried, in order, and the best. `measure` answers a speedup (0 for a failure).
 */
export async function searchSchedules(task: KernelTask, measure: (index: number) => Promise<number>, o: AutotuneOptions = {}): Promise<{ best: Tried; tried: Tried[] }> {
  const legal = legalScheduleIndices(task);
  const budget = Math.max(1, Math.min(legal.length, o.budget ?? 16));
  const rng = Rng.fromSeed(o.seed ?? 1);
  const tried: Tried[] = [];
  const seen = new Set<number>();
  const run = async (index: number) => {
    seen.add(index);
    tried.push({ index, speedup: await measure(index) });
  };
  const randomCount = Math.max(1, Math.round(budget * (o.randomShare ?? 0.4)));
  for (const index of rng.shuffle(legal).slice(0, randomCount)) await run(index);
  const best = () => tried.reduce((a, b) => (b.speedup > a.speedup ? b : a));
  while (tried.length < budget) {
    if (o.signal?.aborted) break;
    // climb from the best schedule that still has an untried neighbour
    const ranked = [...tried].sort((a, b) => b.speedup - a.speedup);
    const from = ranked.find((t) => neighbours(task, t.index).some((n) => !seen.has(n)));
    const next = from ? rng.shuffle(neighbours(task, from.index).filter((n) => !seen.has(n)))[0] : rng.shuffle(legal.filter((n) => !seen.has(n)))[0];
    if (next === undefined) break;
    await run(next);
  }
  return { best: best(), tried };
}

/** Autotunes a task on a shape in the lab; returns the schedules tried and the best (quick protocol). */
export async function autotune(lab: KernelLab, task: KernelTask, shape: Dims, o: AutotuneOptions = {}): Promise<{ best: Tried; tried: Tried[] }> {
  let k = 0;
  return searchSchedules(
    task,
    async (index) => {
      const m = await measureKernel(lab, task, task.template.render(scheduleAt(task, index)), {
        secret: `autotune-${(o.seed ?? 1) * 1000 + k++}`,
        shape,
        check: 'timing-shape',
        warmup: 5,
        trials: o.trials ?? 10,
        cvThreshold: Infinity,
        signal: o.signal,
      });
      return m.correct && m.timing ? m.timing.speedup : 0;
    },
    o,
  );
}
