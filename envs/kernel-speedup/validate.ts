/** validateAction of kernel-speedup-v1: seat actions by phase, and the shape of effect results. */
import { EFFECT_SEAT, type ActionCheck } from '../../src/core/env';
import { asCheck, readAttack, readPrediction, readSubmission } from './actions';
import { actingSeats } from './flow';
import { attackResultProblem, measurementProblem } from './measure/result-check';
import { kernelTask } from './tasks';
import type { KernelState } from './types';

/** Whether an effect result fits the pending effect. */
function checkEffectResult(s: KernelState, result: unknown): ActionCheck {
  const r = result as { op?: unknown; measurement?: unknown; attack?: unknown } | null;
  if (s.phase === 'measure') {
    if (r?.op !== 'measure') return { ok: false, reason: 'the result must be {"op": "measure", "measurement": {...}}' };
    const p = measurementProblem(r.measurement);
    return p ? { ok: false, reason: p } : { ok: true };
  }
  if (s.phase === 'run-attack') {
    if (r?.op !== 'attack') return { ok: false, reason: 'the result must be {"op": "attack", "attack": {...}}' };
    const p = attackResultProblem(r.attack);
    return p ? { ok: false, reason: p } : { ok: true };
  }
  return { ok: false, reason: 'no effect is pending' };
}

/** Whether `seat` may play `action` now (the effect seat: a result of the pending effect's shape). */
export function validate(s: KernelState, seat: number, action: unknown): ActionCheck {
  if (seat === EFFECT_SEAT) return checkEffectResult(s, action);
  if (!actingSeats(s).includes(seat)) return { ok: false, reason: `seat ${seat} is not to act now (${s.phase === 'done' ? 'the episode is over' : `phase ${s.phase}`})` };
  switch (s.phase) {
    case 'submit':
      return asCheck(readSubmission(kernelTask(s.task), s.cfg.candidates, s.revisions.length, action));
    case 'predict':
      return asCheck(readPrediction(action));
    case 'attack':
      return asCheck(readAttack(action));
    default:
      return { ok: false, reason: `nobody acts in phase ${s.phase}` };
  }
}
