/** Parameters of kernel-speedup-v1 and the resolved episode configuration. */
import { ParamError, type ParamSchema, type Params } from '../../src/core/params';
import { MEASURE_DEFAULTS } from './measure/measure';
import { kernelTask, kernelTasks } from './tasks';
import { tableShapes } from './table';
import type { Config, Role } from './types';

/** The env's id. */
export const ENV_ID = 'kernel-speedup-v1';

/** The parameter schema (`arena envs --json` prints it). */
export const PARAMS: ParamSchema = {
  task: { type: 'enum', values: kernelTasks.map((t) => t.id), description: 'kernel task (default: drawn by the seed)' },
  shapes: { type: 'enum', values: ['timing', 'held-out'], default: 'timing', description: "which of the task's shapes the kernel is timed on: its timing shapes or its held-out ones" },
  shape: { type: 'integer', min: 0, description: 'index into that shape list (default: drawn by the seed)' },
  candidates: { type: 'enum', values: ['any', 'schedule', 'code'], default: 'any', description: "the defender's actions: schedules of the task's template (finite), code (JavaScript or AssemblyScript), or any" },
  revisions: { type: 'integer', min: 1, max: 10, default: 3, description: 'K: most revisions the defender submits (each measured; it sees the measurements; "stop" ends early)' },
  attacker: { type: 'boolean', default: true, description: "an attacker seat: one input inside the contract meant to break the final kernel" },
  evaluator: { type: 'boolean', default: true, description: 'an evaluator seat: predicts each revision’s outcome class before it is measured' },
  reward: { type: 'enum', values: ['tiers', 'log-speedup'], default: 'tiers', description: "defender's reward: Dr.Kernel-style tiers on the interval's lower bound, or the log of the speedup (README)" },
  slowPenalty: { type: 'number', min: 0, max: 1, default: 0.1, description: 'tiers: penalty for a correct kernel demonstrably slower than the reference' },
  timing: { type: 'enum', values: ['live', 'table'], default: 'live', description: 'live: every revision is measured in the sandbox; table: schedules are looked up in the recorded table of measured schedule timings (training; README)' },
  seededTrials: { type: 'integer', min: MEASURE_DEFAULTS.seededTrials, max: 50, default: MEASURE_DEFAULTS.seededTrials, description: 'seeded correctness trials per measurement (besides the edge shapes)' },
  warmup: { type: 'integer', min: MEASURE_DEFAULTS.warmup, max: 200, default: MEASURE_DEFAULTS.warmup, description: 'warm-up calls per kernel on the timing shape' },
  trials: { type: 'integer', min: MEASURE_DEFAULTS.trials, max: 1000, default: MEASURE_DEFAULTS.trials, description: 'timed trials (reference/candidate pairs) per batch' },
  cvThreshold: { type: 'number', min: 0.001, max: 10, default: MEASURE_DEFAULTS.cvThreshold, description: 'robust CV of the per-trial ratios above which a batch is re-measured (then reported noisy)' },
  timeMs: { type: 'integer', min: 10, max: 60000, default: 5000, description: 'time limit per kernel call, ms' },
  memoryMb: { type: 'integer', min: 16, max: 2048, default: 256, description: 'memory limit per kernel isolate, MB' },
};

/** Resolved params -> the episode configuration; cross-field problems are ParamErrors. */
export function resolveConfig(p: Params): Config {
  const timing = p.timing as Config['timing'];
  const seats: Role[] = ['defender', ...(p.attacker ? (['attacker'] as Role[]) : []), ...(p.evaluator ? (['evaluator'] as Role[]) : [])];
  if (timing === 'table') {
    if (p.candidates !== 'schedule') throw new ParamError(ENV_ID, 'candidates', 'must be "schedule" with timing "table" (only schedules are in the recorded table)');
    if (p.attacker) throw new ParamError(ENV_ID, 'attacker', 'must be false with timing "table" (an attack runs the kernel: use timing "live")');
    if (p.shapes !== 'timing') throw new ParamError(ENV_ID, 'shapes', 'must be "timing" with timing "table" (held-out shapes are never in the table)');
  }
  if (typeof p.shape === 'number') {
    if (typeof p.task !== 'string') throw new ParamError(ENV_ID, 'shape', 'needs a "task" (shapes are numbered per task)');
    const task = kernelTask(p.task);
    const pool = p.shapes === 'held-out' ? task.heldOutShapes : task.timingShapes;
    if (p.shape >= pool.length) throw new ParamError(ENV_ID, 'shape', `must be below ${pool.length} for task "${p.task}" (${p.shapes} shapes)`);
  }
  if (timing === 'table') {
    const ids = typeof p.task === 'string' ? [p.task] : kernelTasks.map((t) => t.id);
    for (const id of ids) {
      const missing = kernelTask(id).timingShapes.findIndex((_, i) => !tableShapes(id).includes(i));
      if (missing >= 0 && (typeof p.shape !== 'number' || p.shape === missing)) throw new ParamError(ENV_ID, 'timing', `"table" has no recorded timings for ${id} shape ${missing} (run npm run kernels:table)`);
    }
  }
  return {
    seats,
    candidates: p.candidates as Config['candidates'],
    reward: p.reward as Config['reward'],
    timing,
    shapes: p.shapes as Config['shapes'],
    revisions: p.revisions as number,
    slowPenalty: p.slowPenalty as number,
    seededTrials: p.seededTrials as number,
    warmup: p.warmup as number,
    trials: p.trials as number,
    cvThreshold: p.cvThreshold as number,
    timeMs: p.timeMs as number,
    memoryMb: p.memoryMb as number,
  };
}

/** Most env steps: per revision submit + predict + measure, one stop, then attack + its run. */
export function maxLength(p: Params): number {
  return 3 * (p.revisions as number) + 3;
}
