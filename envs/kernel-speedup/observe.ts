/**
 * The one projection of kernel-speedup-v1. Everything is public (perfect information): the task
 * and its reference, the shape, every revision with its measurement, the predictions and the
 * attack. The expert's source is never shown (only its recorded speedup, the ceiling).
 */
import type { Viewer } from '../../src/core/visibility';
import { STOP } from './actions';
import { ENV_ID } from './config';
import { STOP_INDEX } from './encoder';
import { actingSeats, episodeOutcome, episodeReturns } from './flow';
import { OUTCOMES, TIERS } from './rewards';
import { kernelTask } from './tasks';
import { legalScheduleIndices } from './tasks/schedule';
import { candidateView, publicTask } from './views';
import type { KernelObservation, KernelState, Role } from './types';

function ask(s: KernelState): string {
  const task = kernelTask(s.task);
  switch (s.phase) {
    case 'submit': {
      const forms: string[] = [];
      if (s.cfg.candidates !== 'code') forms.push('a schedule index of the template (one of "legal") or {"schedule": {knob: option}}');
      if (s.cfg.candidates !== 'schedule') forms.push('a JavaScript kernel (one function expression `function kernel(inputs, dims) { ... return { ... }; }`)', `an AssemblyScript module (\`\`\`assemblyscript fence) exporting ${publicTask(task, s).assemblyScript}`);
      const stop = s.revisions.length ? ` Or "${STOP}" to keep the last revision.` : '';
      return `Revision ${s.revisions.length + 1} of at most ${s.cfg.revisions}: answer with ${forms.join(', or ')}. It must match the reference (allclose) on every input of the contract and should be faster.${stop}`;
    }
    case 'predict':
      return `Predict the last revision's outcome: a probability per class ${JSON.stringify(OUTCOMES)} (a list or an object), summing to 1. Classes: incorrect; not-faster (the speedup's 95% lower bound is below 1); then the tier its lower bound clears (${TIERS.map(([t]) => `${t}x`).reverse().join(', ')}).`;
    case 'attack':
      return 'Answer with one input inside the contract on which the final kernel is wrong: {"dims": {...}, "inputs": {"<name>": [values] | {"fill": v} | {"cycle": [v, ...]} | {"uniform": [lo, hi], "seed": s}}}. +1 if the kernel is wrong there (and the reference finite), 0 if not, -1 if the input is outside the contract.';
    default:
      return '';
  }
}

/** What `viewer` sees: everything but the expert's source; `legal` and `ask` for the seat to act. */
export function observeState(s: KernelState, viewer: Viewer): KernelObservation {
  const task = kernelTask(s.task);
  const role: Role | null = typeof viewer === 'number' ? (s.cfg.seats[viewer] ?? null) : null;
  const toAct = typeof viewer === 'number' && actingSeats(s).includes(viewer);
  const legal = toAct && role === 'defender' && s.cfg.candidates !== 'code' ? [...legalScheduleIndices(task), ...(s.revisions.length ? [STOP_INDEX] : [])] : null;
  const done = s.phase === 'done';
  return {
    env: ENV_ID,
    view: viewer,
    role,
    phase: s.phase,
    candidates: s.cfg.candidates,
    reward: s.cfg.reward,
    timing: s.cfg.timing,
    task: publicTask(task, s),
    shapes: s.cfg.shapes,
    shapeIndex: s.shapeIndex,
    shape: { ...s.shape },
    revisions: s.revisions.map((r) => ({
      candidate: candidateView(task, r.candidate),
      ...(r.prediction ? { prediction: r.prediction } : {}),
      ...(r.measurement ? { measurement: r.measurement } : {}),
      ...(r.reward !== undefined ? { reward: r.reward } : {}),
      ...(r.predictionScore !== undefined ? { predictionScore: r.predictionScore } : {}),
    })),
    revisionsLeft: s.phase === 'submit' ? s.cfg.revisions - s.revisions.length : 0,
    legal,
    attack: s.attack,
    ask: toAct && role ? ask(s) : null,
    returns: done ? episodeReturns(s) : null,
    outcome: episodeOutcome(s),
  };
}
