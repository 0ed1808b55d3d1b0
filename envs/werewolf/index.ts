/**
 * werewolf-v1's public index: the definition (env.ts), what tools, tests and the CLI may use of the
 * env, and its one registration object, which envs/index.ts registers by one line. The env's
 * own agents (agents/) import its modules, never this file (it imports them).
 */
import type { BuiltinEnv } from '../../src/core/builtin-env';
import { werewolfAgents } from './agents';
import { werewolfEnv } from './env';

export { werewolfEnv } from './env';
export { werewolfPrompt, werewolfLabel } from './prompt';

export type { WerewolfAction } from './actions';
export type { WerewolfObservation } from './observe';
export type { WerewolfState } from './state';

// The public API of the env: what tools, tests and the CLI build on (its agents import its modules, not this file).
export { ACCUSE, AGREE, ANTIDOTE, BID, NONE, POISON, REVEAL_WOLF, SILENT, TARGET } from './actions';

/** werewolf-v1 as it ships: the definition and its baselines, registered by envs/index.ts (one line). */
export const werewolf: BuiltinEnv = { env: werewolfEnv, agents: werewolfAgents };
