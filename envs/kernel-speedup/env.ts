/**
 * kernel-speedup-v1: a defender makes a numeric kernel faster without changing what it computes
 * (a schedule of the task's template, free-form JavaScript, or AssemblyScript compiled to
 * WebAssembly), an attacker looks for an input inside the task's contract that breaks the final
 * kernel, an evaluator predicts each revision's outcome before it is measured. Kernels run only
 * in the sandbox, as the env's "kernel-measure" effects (or are looked up in the recorded table);
 * measurements are recorded data. See README.md in this folder.
 */
import type { EnvDefinition } from '../../src/core/env';
import { keepReturnsSoFar } from '../../src/core/forfeit';
import { ENV_ID, PARAMS, maxLength, resolveConfig } from './config';
import { kernelEncoder } from './encoder';
import { kernelExploits } from './exploits';
import { actingSeats, episodeOutcome, episodeReturns, initState, stepState } from './flow';
import { observeState } from './observe';
import { renderObservation } from './render';
import { EFFECT_KIND, pendingEffect } from './runs';
import { sampleAction, sampleEffectResult } from './sample';
import { legalActions } from './legal';
import { summarize, aggregate } from './summary';
import type { KernelObservation, KernelState } from './types';
import { validate } from './validate';

/** The env definition (registered by envs/index.ts). */
export const kernelSpeedupEnv: EnvDefinition<KernelState, unknown, KernelObservation> = {
  meta: {
    id: ENV_ID,
    description:
      'Kernel speedup: a defender makes a numeric kernel (matmul, softmax, rmsnorm, conv2d, transpose, sum, prefix sum, histogram, sort, attention) faster without changing what it computes — a schedule of the task template, JavaScript, or AssemblyScript/WebAssembly; an attacker searches the contract for an input that breaks it; an evaluator predicts each revision’s outcome. Measured in the sandbox with host-side timing and anti-hacking checks.',
    roles: [
      { name: 'defender', count: 1, description: 'submits up to K revisions of the kernel, seeing each measurement' },
      { name: 'attacker', count: 1, description: 'one input inside the contract meant to break the final kernel (param attacker)' },
      { name: 'evaluator', count: 1, description: "predicts each revision's outcome class before it is measured (param evaluator)" },
    ],
    dynamics: 'sequential',
    chance: true,
    information: 'perfect',
    utility: 'general-sum',
    maxLength,
    params: PARAMS,
    checkParams: (p) => {
      resolveConfig(p);
    },
    capabilities: { rewards: 'per-decision', tries: true, actions: 'mixed', effects: [EFFECT_KIND], encoder: true },
  },
  init: initState,
  seats: (s) => s.cfg.seats.map((role) => ({ role, team: role })),
  toAct: actingSeats,
  effect: pendingEffect,
  sampleEffectResult,
  legalActions,
  validateAction: validate,
  step: stepState,
  isTerminal: (s) => s.phase === 'done',
  returns: episodeReturns,
  // a forfeit costs the forfeiting seat only: the others keep their returns so far
  forfeitReturns: keepReturnsSoFar(episodeReturns),
  outcome: episodeOutcome,
  observe: observeState,
  render: renderObservation,
  sampleAction,
  summary: summarize,
  aggregate,
  actionVisibility: (_s, seat) => (seat >= 0 ? 'public' : 'omniscient'),
  encoder: kernelEncoder,
  exploits: kernelExploits,
};
