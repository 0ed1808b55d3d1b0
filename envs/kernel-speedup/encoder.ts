/**
 * Fixed-size encoding of an observation for neural agents, and the schedule action indices.
 *
 * Actions: index i < SCHEDULE_SLOTS is schedule i of the episode's task (mixed radix over the
 * knobs' option indices, tasks/schedule.ts); STOP_INDEX is "stop". Code, attacks and predictions
 * have no index (-1). The legal indices are in the defender's observation (`legal`).
 *
 * Features (ENCODING_SIZE = 68), all finite and within [-10, 10]:
 *  0-3   role one-hot (defender, attacker, evaluator, none)
 *  4-9   phase one-hot (submit, predict, measure, attack, run-attack, done)
 *  10-25 task one-hot (the catalogue's order; 16 slots)
 *  26-31 the shape: log2(size) / 12 per dimension in the task's order (6 slots)
 *  32    log2(product of the dimensions) / 40
 *  33-34 revisions done / 10, revisions left / 10
 *  35-39 the last measurement: measured, correct, ln speedup, ln lo, ln hi (clipped to ±3)
 *  40    best ln lo so far among correct revisions (clipped to ±3)
 *  41-60 the last schedule: per knob (4 slots) the one-hot of its option index (5 slots)
 *  61-63 candidates mode one-hot (any, schedule, code)
 *  64-65 reward one-hot (tiers, log-speedup)
 *  66-67 timing one-hot (live, table)
 */
import type { Encoder } from '../../src/core/env';
import { STOP } from './actions';
import { kernelTasks } from './tasks';
import type { KernelObservation } from './types';

/** Schedule indices reserved for every task (each task's template has at most this many). */
export const SCHEDULE_SLOTS = 200;
/** The index of "stop". */
export const STOP_INDEX = SCHEDULE_SLOTS;
/** Number of action indices. */
export const NUM_ACTIONS = SCHEDULE_SLOTS + 1;
/** Length of every encoded observation. */
export const ENCODING_SIZE = 68;

const ROLES = ['defender', 'attacker', 'evaluator'];
const PHASES = ['submit', 'predict', 'measure', 'attack', 'run-attack', 'done'];
const TASK_IDS = kernelTasks.map((t) => t.id);
const MODES = ['any', 'schedule', 'code'];
const clip3 = (x: number) => (x > 3 ? 3 : x < -3 ? -3 : x);

function encode(o: KernelObservation, out: Float32Array = new Float32Array(ENCODING_SIZE)): Float32Array {
  const r = o.role ? ROLES.indexOf(o.role) : 3;
  out[r < 0 ? 3 : r] = 1;
  out[4 + PHASES.indexOf(o.phase)] = 1;
  const t = TASK_IDS.indexOf(o.task.id);
  if (t >= 0 && t < 16) out[10 + t] = 1;
  const dims = Object.keys(o.task.dims);
  let total = 0;
  for (let i = 0; i < dims.length && i < 6; i++) {
    const v = Math.log2(Math.max(1, o.shape[dims[i]] ?? 1));
    out[26 + i] = v / 12;
    total += v;
  }
  out[32] = total / 40;
  out[33] = o.revisions.length / 10;
  out[34] = o.revisionsLeft / 10;
  const last = o.revisions[o.revisions.length - 1];
  const m = last?.measurement;
  if (m) {
    out[35] = 1;
    out[36] = m.correct ? 1 : 0;
    if (m.timing) {
      out[37] = clip3(Math.log(m.timing.speedup));
      out[38] = clip3(Math.log(m.timing.lo));
      out[39] = clip3(Math.log(m.timing.hi));
    }
  }
  let best = -3;
  for (const rev of o.revisions) if (rev.measurement?.correct && rev.measurement.timing) best = Math.max(best, clip3(Math.log(rev.measurement.timing.lo)));
  out[40] = o.revisions.length ? best : 0;
  if (last?.candidate.schedule) {
    o.task.knobs.forEach((k, i) => {
      const opt = k.options.indexOf(last.candidate.schedule![k.name]);
      if (i < 4 && opt >= 0 && opt < 5) out[41 + 5 * i + opt] = 1;
    });
  }
  out[61 + Math.max(0, MODES.indexOf(o.candidates))] = 1;
  out[64 + (o.reward === 'tiers' ? 0 : 1)] = 1;
  out[66 + (o.timing === 'live' ? 0 : 1)] = 1;
  return out;
}

/** The env's encoder. */
export const kernelEncoder: Encoder<KernelObservation, unknown> = {
  size: ENCODING_SIZE,
  numActions: NUM_ACTIONS,
  encode,
  actionIndex: (a) => {
    if (a === STOP) return STOP_INDEX;
    return typeof a === 'number' && Number.isInteger(a) && a >= 0 && a <= STOP_INDEX ? a : -1;
  },
  action: (i) => (i === STOP_INDEX ? STOP : i),
  legal: (o) => o.legal,
};
