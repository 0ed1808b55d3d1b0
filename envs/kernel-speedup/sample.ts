/**
 * Random play without running anything: a random (plausible) action from a seat's observation,
 * and a random effect result (a sampled measurement or attack outcome) for the conformance kit and
 * quick rollouts.
 */
import type { EffectRequest } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Rng } from '../../src/core/rng';
import { STOP } from './actions';
import { MEASURE_CODES, type MeasureCode } from './measure/codes';
import type { KernelEffectRequest, KernelEffectResult } from './measure/handler';
import type { Measurement } from './measure/types';
import { OUTCOMES } from './rewards';
import type { KernelObservation, KernelState } from './types';

function randomAttack(o: KernelObservation, rng: Rng): unknown {
  const dims: Record<string, number> = {};
  for (const [k, r] of Object.entries(o.task.dims)) dims[k] = rng.range(r.min, Math.min(r.max, r.min + 3));
  // conv2d-like rules are not known here: about half of these attacks are valid
  const inputs: Record<string, unknown> = {};
  for (const i of o.task.inputs) inputs[i.name] = rng.next() < 0.8 ? { fill: i.range[rng.int(2)] } : { fill: i.range[1] + 1 };
  return { dims, inputs };
}

/** The kit's random agent for every seat. */
export function sampleAction(o: KernelObservation, rng: Rng): unknown {
  switch (o.phase) {
    case 'submit': {
      if (o.legal && (o.candidates === 'schedule' || rng.next() < 0.6)) return rng.pick(o.legal.map((i) => (i >= o.task.schedules ? STOP : i)));
      if (o.revisions.length && rng.next() < 0.2) return STOP;
      return rng.next() < 0.5 ? o.task.reference : { js: o.task.reference };
    }
    case 'predict': {
      const w = OUTCOMES.map(() => rng.next());
      const sum = w.reduce((a, b) => a + b, 0);
      return w.map((x) => x / sum);
    }
    case 'attack':
      return randomAttack(o, rng);
    default:
      return '';
  }
}

const SAMPLED: MeasureCode[] = ['ok', 'ok', 'ok', 'ok', 'wrong-answer', 'runtime-error', 'result-reuse', 'timeout'];

function sampledMeasurement(req: KernelEffectRequest & { op: 'measure' }, rng: Rng): Measurement {
  const code = SAMPLED[rng.int(SAMPLED.length)];
  const trials = [{ kind: 'edge' as const, dims: req.shape, code, mismatches: code === 'ok' ? 0 : 1, total: 4, maxAbsError: 0 }];
  if (code !== 'ok') return { code, message: 'sampled', correct: false, trials, checkedCalls: 0, timing: null, flags: [] };
  const speedup = Math.exp((rng.next() - 0.3) * 2);
  const lo = speedup * (0.8 + 0.2 * rng.next());
  const hi = speedup * (1 + 0.2 * rng.next());
  const ref = 1e6 * (1 + rng.next());
  return {
    code,
    correct: true,
    trials,
    checkedCalls: 35,
    timing: { dims: req.shape, warmup: 5, trials: 30, referenceNs: ref, candidateNs: ref / speedup, speedup, lo, hi, cv: 0.05, remeasured: false, noisy: false, referenceTrialsNs: [ref], candidateTrialsNs: [ref / speedup] },
    flags: [],
  };
}

/** A random result with the right shape for the pending effect. */
export function sampleEffectResult(_s: KernelState, effect: EffectRequest, rng: Rng): JsonValue {
  const req = effect.request as unknown as KernelEffectRequest;
  let out: KernelEffectResult;
  if (req.op === 'measure') out = { op: 'measure', measurement: sampledMeasurement(req, rng) };
  else {
    const code = rng.next() < 0.6 ? 'ok' : MEASURE_CODES[1 + rng.int(MEASURE_CODES.length - 1)];
    out = { op: 'attack', attack: { code, referenceFinite: rng.next() < 0.9, referenceCode: 'ok', check: null } };
  }
  return out as unknown as JsonValue;
}
