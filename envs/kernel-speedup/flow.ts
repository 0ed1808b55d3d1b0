/**
 * The episode of kernel-speedup-v1: init, step (seat actions and effect results), returns, outcome.
 *
 *   { submit → (predict) → measure } × up to K   ("stop" ends the revisions early)
 *   → (attack → run-attack) → done
 *
 * The defender sees each revision's measurement before the next; the evaluator predicts each
 * revision's outcome class before it is measured; the attacker attacks the final revision. With
 * timing "table" the measure step is a lookup in the recorded table (no effect).
 */
import { EFFECT_SEAT, type EnvEvent, type StepResult, type StepReward } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { Rng, type Seed } from '../../src/core/rng';
import { readAttack, readPrediction, readSubmission } from './actions';
import { resolveConfig } from './config';
import { attackProblem } from './measure/attack';
import type { KernelEffectResult } from './measure/handler';
import type { Measurement } from './measure/types';
import { attackScore, defenderReward, mean, outcomeClass, predictionScore } from './rewards';
import { tableMeasurement } from './table-measure';
import { kernelTask, kernelTasks } from './tasks';
import { candidateView } from './views';
import type { AttackRecord, KernelState, Revision, Role } from './types';

/** The seat that holds `role` (-1 when none). */
export function seatOf(s: KernelState, role: Role): number {
  return s.cfg.seats.indexOf(role);
}

/** A fresh episode: the task and shape from the params, or drawn by the seed. */
export function initState(params: Params, seed: Seed): KernelState {
  const cfg = resolveConfig(params);
  const rng = Rng.fromSeed(seed);
  const task = typeof params.task === 'string' ? kernelTask(params.task) : rng.pick(kernelTasks);
  const pool = cfg.shapes === 'held-out' ? task.heldOutShapes : task.timingShapes;
  const shapeIndex = typeof params.shape === 'number' ? params.shape : rng.int(pool.length);
  return { cfg, task: task.id, shapeIndex, shape: { ...pool[shapeIndex] }, phase: 'submit', revisions: [], attack: null, steps: 0 };
}

/** Seats to act now (none in effect phases and at the end). */
export function actingSeats(s: KernelState): number[] {
  switch (s.phase) {
    case 'submit':
      return [seatOf(s, 'defender')];
    case 'predict':
      return [seatOf(s, 'evaluator')];
    case 'attack':
      return [seatOf(s, 'attacker')];
    default:
      return [];
  }
}

/** After the revisions: the attack, or the end. */
function afterRevisions(s: KernelState): KernelState['phase'] {
  return seatOf(s, 'attacker') >= 0 ? 'attack' : 'done';
}

/** Applies a measurement to the last revision: rewards, evaluator score, next phase. */
function applyMeasurement(s: KernelState, m: Measurement, events: EnvEvent[]): StepResult<KernelState> {
  const k = s.revisions.length - 1;
  const rev = s.revisions[k];
  const reward = defenderReward(m, s.cfg.reward, s.cfg.slowPenalty);
  const truth = outcomeClass(m);
  const scored: Revision = { ...rev, measurement: m, reward, ...(rev.prediction ? { predictionScore: predictionScore(rev.prediction, truth) } : {}) };
  const revisions = [...s.revisions.slice(0, k), scored];
  const rewards: StepReward[] = [{ seat: seatOf(s, 'defender'), value: reward, credits: rev.step, endsTry: true }];
  if (scored.predictionScore !== undefined) rewards.push({ seat: seatOf(s, 'evaluator'), value: scored.predictionScore, credits: rev.predictionStep, endsTry: true });
  events.push({ type: 'measured', visibility: 'public', data: { revision: k, measurement: m as unknown as JsonValue, reward, outcome: truth, ...(scored.predictionScore !== undefined ? { predictionScore: scored.predictionScore } : {}) } });
  const phase = revisions.length >= s.cfg.revisions ? afterRevisions(s) : 'submit';
  const next: KernelState = { ...s, revisions, phase };
  if (phase === 'done') events.push(endEvent(next));
  return { state: next, events, rewards };
}

/** After a submission (and the prediction, if any): measure, or look up the table. */
function toMeasure(s: KernelState, events: EnvEvent[]): StepResult<KernelState> {
  if (s.cfg.timing === 'table') return applyMeasurement(s, tableMeasurement(s), events);
  return { state: { ...s, phase: 'measure' }, events };
}

function endEvent(s: KernelState): EnvEvent {
  return { type: 'episode-end', visibility: 'public', data: { returns: episodeReturns(s), outcome: episodeOutcome(s) } };
}

function stepAttack(s: KernelState, action: unknown, step: number, events: EnvEvent[]): StepResult<KernelState> {
  const r = readAttack(action);
  if (!r.ok) throw new Error(`kernel-speedup-v1 step: ${r.reason}`);
  const problem = attackProblem(kernelTask(s.task), r.value);
  const record: AttackRecord = { input: r.value, step, valid: problem === null, ...(problem ? { reason: problem } : {}) };
  events.push({ type: 'attack', visibility: 'public', data: { input: r.value as unknown as JsonValue, valid: record.valid, ...(problem ? { reason: problem } : {}) } });
  if (problem) {
    const scored = { ...record, score: attackScore(false, null) };
    const next: KernelState = { ...s, attack: scored, phase: 'done' };
    events.push(endEvent(next));
    return { state: next, events, rewards: [{ seat: seatOf(s, 'attacker'), value: scored.score }] };
  }
  return { state: { ...s, attack: record, phase: 'run-attack' }, events };
}

function stepAttackResult(s: KernelState, result: KernelEffectResult, events: EnvEvent[]): StepResult<KernelState> {
  if (result.op !== 'attack') throw new Error('kernel-speedup-v1 step: expected an attack result');
  const score = attackScore(true, result.attack);
  const attack: AttackRecord = { ...s.attack!, result: result.attack, score };
  events.push({ type: 'attack-result', visibility: 'public', data: { result: result.attack as unknown as JsonValue, score } });
  const next: KernelState = { ...s, attack, phase: 'done' };
  events.push(endEvent(next));
  return { state: next, events, rewards: [{ seat: seatOf(s, 'attacker'), value: score, credits: s.attack!.step }] };
}

/** The env's step; the state counts steps (rewards credit decisions by their step). */
export function stepState(s: KernelState, actions: Record<number, unknown>): StepResult<KernelState> {
  const r = stepPhase(s, actions, s.steps);
  return { ...r, state: { ...r.state, steps: s.steps + 1 } };
}

function stepPhase(s: KernelState, actions: Record<number, unknown>, step: number): StepResult<KernelState> {
  const events: EnvEvent[] = [];
  const task = kernelTask(s.task);
  switch (s.phase) {
    case 'submit': {
      const r = readSubmission(task, s.cfg.candidates, s.revisions.length, actions[seatOf(s, 'defender')]);
      if (!r.ok) throw new Error(`kernel-speedup-v1 step: ${r.reason}`);
      if (r.value === 'stop') {
        events.push({ type: 'stopped', visibility: 'public', data: { revisions: s.revisions.length } });
        const next: KernelState = { ...s, phase: afterRevisions(s) };
        if (next.phase === 'done') events.push(endEvent(next));
        return { state: next, events };
      }
      const revisions = [...s.revisions, { candidate: r.value, step }];
      events.push({ type: 'submitted', visibility: 'public', data: { revision: revisions.length - 1, candidate: candidateView(task, r.value) as unknown as JsonValue } });
      const next: KernelState = { ...s, revisions };
      if (seatOf(s, 'evaluator') >= 0) return { state: { ...next, phase: 'predict' }, events };
      return toMeasure(next, events);
    }
    case 'predict': {
      const r = readPrediction(actions[seatOf(s, 'evaluator')]);
      if (!r.ok) throw new Error(`kernel-speedup-v1 step: ${r.reason}`);
      const k = s.revisions.length - 1;
      const revisions = [...s.revisions.slice(0, k), { ...s.revisions[k], prediction: r.value, predictionStep: step }];
      events.push({ type: 'predicted', visibility: 'public', data: { revision: k, prediction: r.value } });
      return toMeasure({ ...s, revisions }, events);
    }
    case 'measure': {
      const result = actions[EFFECT_SEAT] as KernelEffectResult;
      if (result?.op !== 'measure') throw new Error('kernel-speedup-v1 step: expected a measurement');
      return applyMeasurement(s, result.measurement, events);
    }
    case 'attack':
      return stepAttack(s, actions[seatOf(s, 'attacker')], step, events);
    case 'run-attack':
      return stepAttackResult(s, actions[EFFECT_SEAT] as KernelEffectResult, events);
    case 'done':
      throw new Error('kernel-speedup-v1 step: the episode is over');
  }
}

/** Returns per seat (README: formulas); values so far before the end. */
export function episodeReturns(s: KernelState): number[] {
  return s.cfg.seats.map((role) => {
    if (role === 'attacker') return s.attack?.score ?? 0;
    if (role === 'evaluator') return mean(s.revisions.filter((r) => r.predictionScore !== undefined).map((r) => r.predictionScore!));
    const last = s.revisions[s.revisions.length - 1];
    if (!last || last.reward === undefined) return 0;
    return s.attack?.score === 1 ? -1 : last.reward;
  });
}

/** "faster" (the final kernel's lower bound clears 1×), "correct", "incorrect", "broken" (by the attacker), or "". */
export function episodeOutcome(s: KernelState): string {
  if (s.phase !== 'done') return '';
  const last = s.revisions[s.revisions.length - 1]?.measurement;
  if (s.attack?.score === 1) return 'broken';
  if (!last || !last.correct) return 'incorrect';
  return outcomeClass(last) >= 2 ? 'faster' : 'correct';
}
