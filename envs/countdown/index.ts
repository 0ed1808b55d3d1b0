/**
 * countdown-v1's public index: the definition (env.ts), what tools, tests and the CLI may use of the
 * env, and its one registration object, which envs/index.ts registers by one line. The env's
 * own agents (agents/) import its modules, never this file (it imports them).
 */
import type { BuiltinEnv } from '../../src/core/builtin-env';
import { countdownAgents } from './agents';
import { countdownEnv } from './env';

export { countdownEnv } from './env';

export { countdownPrompt } from './prompt';
// The public API of the env: what tools, tests and the CLI build on (its agents import its modules, not this file).
export { ENV_ID } from './config';
export {
  NUMBER_BASE,
  PAIRS,
  PREDICT_RIGHT,
  PREDICT_WRONG,
  STEP_OPS,
  STOP,
  TARGET_BASE,
  applyMove,
  attemptAnswer,
  initialPool,
  legalMoves,
  slotValue,
  stepIndex,
} from './actions';
export type { Contract } from './contract';
export { generatePuzzle } from './generator';
export type { Tree } from './infix';
export { qValue, type Q } from './rational';
export { maxScore, scoreAnswer, type Rules } from './scoring';
export { solveAllNumbers } from './solver-rational';
export { solveUk } from './solver-uk';
export type { CountdownAction, CountdownObservation, CountdownState, Proposal } from './types';
export { verdictFor } from './verdict';

/** countdown-v1 as it ships: the definition and its baselines, registered by envs/index.ts (one line). */
export const countdown: BuiltinEnv = { env: countdownEnv, agents: countdownAgents };
