/**
 * deal-or-no-deal-v1's public index: the definition (env.ts), what tools, tests and the CLI may use
 * of the env, and its one registration object, which envs/index.ts registers by one line. The
 * env's own agents (agents/) import its modules, never this file (it imports them).
 */
import type { BuiltinEnv } from '../../src/core/builtin-env';
import { dealOrNoDealAgents } from './agents';
import { dealOrNoDealEnv } from './env';
export { dealOrNoDealEnv, legalActionIds, mixRewards, sampleAction } from './env';
export { ENV_ID, PARAM_SCHEMA, utilityOf, type Protocol } from './config';
export { AGREE, NUM_OFFERS, OFFERS, offerId, legalIds, restOf, valueOf, describeShare, ITEM_NAMES } from './offers';
export { DEFAULT_INSTANCES, formatLine, generateInstance, parseInstanceLine, instanceProblem, validInstanceCount, type Instance } from './instance';
export { analyze, isParetoOptimal, nashSplit, type InstanceAnalysis } from './analysis';
export { canonicalProposal, parseProposal, isDeal, DEAL_TEXT } from './messages';
export { encoder, actionIndex, actionOf, ACTION_INDEX, ENCODING_SIZE, NUM_ACTIONS } from './encoder';
export type { DondObservation, OpenSpielObservation, DialogueObservation } from './observe';
export type { DondState, OpenSpielState, DialogueState } from './state';
export type { DialogueAction } from './dialogue-protocol';
export { episodeSummary, aggregate, type EpisodeSummary } from './summary';
export { dealOrNoDealPrompt, offerLabel } from './prompt';

/** deal-or-no-deal-v1 as it ships: the definition and its baselines, registered by envs/index.ts (one line). */
export const dealOrNoDeal: BuiltinEnv = { env: dealOrNoDealEnv, agents: dealOrNoDealAgents };
