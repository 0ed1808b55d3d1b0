/**
 * A measurement looked up in the recorded table (timing "table"): the schedule's recorded
 * speedup and interval on the episode's timing shape, as a Measurement flagged "table". Every
 * legal schedule is correct (the task tests check each on the edge shapes and a timing shape).
 */
import type { Measurement } from './measure/types';
import { tableShape, tableSpeedup } from './table';
import type { KernelState } from './types';

/** The last revision's measurement from the table (a sandbox-error code when the schedule is missing). */
export function tableMeasurement(s: KernelState): Measurement {
  const rev = s.revisions[s.revisions.length - 1];
  if (rev.candidate.kind !== 'schedule') throw new Error('kernel-speedup-v1: only schedules are looked up in the table');
  const row = tableShape(s.task, s.shapeIndex);
  const hit = tableSpeedup(s.task, s.shapeIndex, rev.candidate.index);
  if (!row || !hit) {
    return { code: 'sandbox-error', message: `schedule ${rev.candidate.index} of ${s.task} is not in the recorded table`, correct: false, trials: [], checkedCalls: 0, timing: null, flags: ['table'] };
  }
  return {
    code: 'ok',
    correct: true,
    trials: [],
    checkedCalls: 0,
    timing: {
      dims: { ...s.shape },
      warmup: 0,
      trials: 0,
      referenceNs: row.referenceNs,
      candidateNs: row.referenceNs / hit.speedup,
      speedup: hit.speedup,
      lo: hit.lo,
      hi: hit.hi,
      cv: 0,
      remeasured: false,
      noisy: false,
      referenceTrialsNs: [],
      candidateTrialsNs: [],
    },
    flags: ['table'],
  };
}
