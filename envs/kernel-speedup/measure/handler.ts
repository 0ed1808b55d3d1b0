/**
 * The `kernel-measure` effect: what kernel-speedup-v1 asks the runner to do, and the handler that
 * does it with a {@link KernelLab} (the catalog binds it to the shared sandbox's lab). Results are
 * plain JSON and are recorded as the effect seat's action, so replays never re-time.
 *
 * Every measurement draws a fresh secret here (inputs.ts): its inputs never depend on the match
 * seed or the step, so no kernel can predict them. `arena replay --rerun` therefore measures on
 * other inputs than the recorded run, and compares verdicts, not figures (rerun.ts).
 */
import type { EffectHandler } from '../../../src/core/effects';
import type { JsonValue } from '../../../src/core/json';
import type { KernelLab } from '../../../src/core/sandbox';
import { kernelTask } from '../tasks';
import type { Dims } from '../tasks/task';
import { attackProblem, runAttack, type AttackInput } from './attack';
import { candidateProblem, candidateSource, type Candidate } from './candidate';
import { freshSecret } from './inputs';
import { MEASURE_DEFAULTS, measureKernel } from './measure';
import { compareKernelResults } from './rerun';
import { reviewThreshold } from './review';
import type { KernelEffectResult, Measurement } from './types';

/** The effect kind. */
export const KERNEL_MEASURE_EFFECT = 'kernel-measure';

/** Limits of the lab calls. */
export interface LabLimits {
  timeMs: number;
  memoryMb: number;
}

/** Measure a candidate on a timing shape (correctness, warm-up, timing). */
export interface MeasureRequest extends LabLimits {
  op: 'measure';
  task: string;
  candidate: Candidate;
  shape: Dims;
  seededTrials: number;
  warmup: number;
  trials: number;
  cvThreshold: number;
  /** The task's recorded expert speedup (the review threshold: review.ts), or null. */
  expertCeiling: number | null;
}

/** Run a candidate and the reference on the attacker's input. */
export interface AttackRequest extends LabLimits {
  op: 'attack';
  task: string;
  candidate: Candidate;
  input: AttackInput;
}

export type KernelEffectRequest = MeasureRequest | AttackRequest;

export type { KernelEffectResult } from './types';

const compileFailure = (code: Measurement['code'], message: string): Measurement => ({ code, message, correct: false, trials: [], checkedCalls: 0, timing: null, flags: [] });

/**
 * Performs one request. The protocol's floors hold whatever the request says: ≥ 5 seeded
 * trials, ≥ 5 warm-up calls, ≥ 30 timed trials, a fresh secret per measurement, and the review
 * of a speedup above the task's threshold. A malformed request (the env's bug) throws.
 */
export async function performKernelRequest(lab: KernelLab, req: KernelEffectRequest, signal?: AbortSignal): Promise<KernelEffectResult> {
  const task = kernelTask(req.task);
  const problem = candidateProblem(task, req.candidate);
  if (problem) throw new Error(`kernel-measure: ${problem}`);
  const limits = { timeMs: req.timeMs, memoryMb: req.memoryMb };
  const src = await candidateSource(lab, task, req.candidate, signal);
  if (req.op === 'attack') {
    const bad = attackProblem(task, req.input);
    if (bad) throw new Error(`kernel-measure: the attack input is outside the contract (${bad}); the env must not ask for it`);
    if (!src.ok) return { op: 'attack', attack: { code: src.code, message: src.message, referenceFinite: false, referenceCode: 'ok', check: null } };
    return { op: 'attack', attack: await runAttack(lab, task, src.source, req.input, { ...limits, signal }) };
  }
  if (req.op !== 'measure') throw new Error(`kernel-measure: unknown op ${JSON.stringify((req as { op?: unknown }).op)}`);
  if (!src.ok) return { op: 'measure', measurement: compileFailure(src.code, src.message) };
  const measurement = await measureKernel(lab, task, src.source, {
    secret: freshSecret(),
    shape: req.shape,
    seededTrials: Math.max(MEASURE_DEFAULTS.seededTrials, req.seededTrials),
    warmup: Math.max(MEASURE_DEFAULTS.warmup, req.warmup),
    trials: Math.max(MEASURE_DEFAULTS.trials, req.trials),
    cvThreshold: req.cvThreshold,
    reviewAbove: reviewThreshold(req.expertCeiling),
    ...limits,
    signal,
  });
  return { op: 'measure', measurement };
}

/**
 * The handler of `kernel-measure` over `lab` (it never reads the context's seed: measurement
 * inputs come from a fresh secret), with the comparison `arena replay --rerun` uses.
 */
export function kernelMeasureHandler(lab: KernelLab): EffectHandler {
  const handler = async (request: JsonValue, ctx: { signal: AbortSignal }) => (await performKernelRequest(lab, request as unknown as KernelEffectRequest, ctx.signal)) as unknown as JsonValue;
  return Object.assign(handler, { compare: compareKernelResults });
}
