/**
 * countdown-v1: the Countdown numbers game with solver, challenger and evaluator roles, three
 * scoring rule sets (uk, tinyzero, reasoning-gym), text or step-index answers and an exact
 * verifier. See README.md in this folder for the rules, the reward formulas and the sources.
 */
import type { EnvDefinition } from '../../src/core/env';
import { keepReturnsSoFar } from '../../src/core/forfeit';
import { ENV_ID, PARAMS, maxLength, seatOf } from './config';
import { countdownEncoder } from './encoder';
import { observeState } from './observe';
import { episodeOutcome, episodeReturns, initState, stepState } from './flow';
import { privateVariants } from './privacy';
import { countdownPrompt } from './prompt';
import { renderObservation } from './render';
import { defaultAction, sampleAction } from './sample';
import { aggregateSummaries, episodeSummary } from './summary';
import type { CountdownAction, CountdownObservation, CountdownState } from './types';
import { actingSeats, validate } from './validate';

/** The environment definition (register it; `make('countdown-v1', params)`). */
export const countdownEnv: EnvDefinition<CountdownState, CountdownAction, CountdownObservation> = {
  meta: {
    id: ENV_ID,
    description:
      'Countdown numbers game: reach the target with + - * / on the given numbers. Solver, challenger (proposes puzzles, rewarded for ~50% solve rate) and evaluator (predicts correctness) roles; uk / tinyzero / reasoning-gym scoring; exact verifier.',
    roles: [
      { name: 'challenger', count: 0, description: 'proposes a puzzle inside the contract (roles challenger-solver[-evaluator])' },
      { name: 'solver', count: 1, description: 'makes K independent attempts at the puzzle' },
      { name: 'evaluator', count: 0, description: 'predicts whether each attempt is correct before the verdict' },
    ],
    dynamics: 'sequential',
    chance: true,
    information: 'imperfect',
    utility: 'general-sum',
    maxLength,
    params: PARAMS,
    // Each of the solver's K attempts is a try, scored by a per-decision reward when it ends.
    capabilities: { rewards: 'per-decision', tries: true, actions: 'open' },
  },
  init: initState,
  seats: (s) => s.cfg.seats.map((role) => ({ role, team: role })),
  toAct: actingSeats,
  validateAction: validate,
  step: stepState,
  isTerminal: (s) => s.phase === 'done',
  returns: episodeReturns,
  forfeitReturns: keepReturnsSoFar(episodeReturns),
  outcome: episodeOutcome,
  observe: observeState,
  render: renderObservation,
  sampleAction,
  summary: episodeSummary,
  aggregate: aggregateSummaries,
  actionVisibility: (s, seat) => (seat === seatOf(s.cfg, 'challenger') ? 'public' : { seat }),
  defaultAction,
  privateVariants,
  encoder: countdownEncoder,
  prompt: countdownPrompt,
};
