/**
 * code-repair-v1: a coder (or fixer) writes a program from a spec or repairs a buggy one, an
 * auditor writes unit tests meant to expose its bugs (FixAudit), or k programs meet k tests
 * (CURE); an optional evaluator predicts pass/fail. Programs run only in the sandbox, as the
 * env's effects; their results are recorded data. See README.md in this folder.
 */
import type { EnvDefinition } from '../../src/core/env';
import { keepReturnsSoFar } from '../../src/core/forfeit';
import { ENV_ID, PARAMS, maxLength } from './config';
import { actingSeats, episodeOutcome, episodeReturns, initState, stepState } from './flow';
import { observeState } from './observe';
import { privateVariants } from './privacy';
import { describeEnvEvent, renderObservation, rulesText } from './render';
import { EFFECT_KIND, pendingEffect } from './runs';
import { sampleAction, sampleEffectResult } from './sample';
import { checkTaskParams } from './tasks-of';
import type { CodeRepairObservation, CodeRepairState } from './types';
import { validate } from './validate';
import { CODE_REPAIR_EXPLOITS } from './exploits';
import { resolveConfig } from './config';

export const codeRepairEnv: EnvDefinition<CodeRepairState, unknown, CodeRepairObservation> = {
  meta: {
    id: ENV_ID,
    description:
      'Code-test-repair: a coder/fixer writes or repairs a program, an auditor writes unit tests to expose its bugs (FixAudit rounds), or k programs meet k tests (CURE); programs run in the sandbox (JS: isolated-vm; Python: bubblewrap).',
    roles: [
      { name: 'coder', count: 1, description: 'writes the program (generate) or repairs the buggy one (repair); the fixer' },
      { name: 'auditor', count: 1, description: 'proposes unit tests (FixAudit) / writes unit tests (CURE tester)' },
      { name: 'evaluator', count: 0, description: 'predicts whether each revision passes the hidden tests (param evaluator)' },
    ],
    dynamics: 'sequential',
    chance: true,
    information: 'imperfect',
    utility: 'general-sum',
    maxLength,
    params: PARAMS,
    checkParams: (p) => {
      resolveConfig(p);
      checkTaskParams(p);
    },
    capabilities: { rewards: 'per-decision', tries: true, actions: 'open', effects: [EFFECT_KIND] },
  },
  init: initState,
  seats: (s) => s.cfg.seats.map((role) => ({ role, team: role })),
  toAct: actingSeats,
  effect: pendingEffect,
  sampleEffectResult,
  validateAction: validate,
  step: stepState,
  isTerminal: (s) => s.phase === 'done',
  returns: episodeReturns,
  forfeitReturns: keepReturnsSoFar(episodeReturns),
  outcome: episodeOutcome,
  observe: observeState,
  render: renderObservation,
  // the env's words for spectators (event captions, the rules); text players keep the defaults
  prompt: { event: (name, data) => describeEnvEvent(name, data), rules: rulesText },
  sampleAction,
  summary: (s) => ({ task: s.task.id, variant: s.variant, revisions: s.revisions.length, rounds: s.round, solved: s.solved, returns: episodeReturns(s) }),
  actionVisibility: (s, seat) => (seat >= 0 && s.cfg.reward === 'cure' ? { seat } : seat >= 0 ? 'public' : 'omniscient'),
  privateVariants,
  // reward hacks that must not pay: played through the sandbox by `arena check` (exploits/)
  exploits: CODE_REPAIR_EXPLOITS,
};
