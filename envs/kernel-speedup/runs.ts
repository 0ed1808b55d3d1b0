/**
 * The effects of kernel-speedup-v1: the env never runs a kernel; it asks for a measurement of the
 * last revision (`measure`) or for the attack on the final one (`run-attack`), kind
 * "kernel-measure", and reads the recorded results back in `step`.
 */
import type { EffectRequest } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import { KERNEL_MEASURE_EFFECT, type AttackRequest, type KernelEffectRequest, type MeasureRequest } from './measure/handler';
import { expertCeiling } from './table';
import type { KernelState } from './types';

/** The effect kind this env requests. */
export const EFFECT_KIND = KERNEL_MEASURE_EFFECT;

/** The request of a pending effect, or null. */
export function effectRequest(s: KernelState): KernelEffectRequest | null {
  const last = s.revisions[s.revisions.length - 1];
  const limits = { timeMs: s.cfg.timeMs, memoryMb: s.cfg.memoryMb };
  if (s.phase === 'measure') {
    const req: MeasureRequest = {
      op: 'measure',
      task: s.task,
      candidate: last.candidate,
      shape: s.shape,
      seededTrials: s.cfg.seededTrials,
      warmup: s.cfg.warmup,
      trials: s.cfg.trials,
      cvThreshold: s.cfg.cvThreshold,
      expertCeiling: expertCeiling(s.task),
      ...limits,
    };
    return req;
  }
  if (s.phase === 'run-attack') {
    const req: AttackRequest = { op: 'attack', task: s.task, candidate: last.candidate, input: s.attack!.input, ...limits };
    return req;
  }
  return null;
}

/** The effect a state waits for, or null. */
export function pendingEffect(s: KernelState): EffectRequest | null {
  const req = effectRequest(s);
  return req ? { kind: EFFECT_KIND, request: req as unknown as JsonValue } : null;
}
