import type { AgentFactory } from './agent';
import type { EnvDefinition } from './env';

/**
 * Declares an environment: returns `definition` unchanged, typed, so that an editor checks every
 * member against the contract (src/core/env.ts) and infers the state, action and observation
 * types from `init`, `legalActions` and `observe`. The registry normalizes and validates it when
 * the module is loaded (`arena check`, `arena play ./my-env.js`).
 *
 * @example
 * const { defineEnv, Rng } = require('selfplay-arena');
 * exports.env = defineEnv({ meta: {...}, init(params, seed) {...}, ... });
 */
export function defineEnv<S, A, O>(definition: EnvDefinition<S, A, O>): EnvDefinition<S, A, O> {
  return definition;
}

/**
 * Declares an agent kind (what a module exports as `agents: [...]`): returns `factory`
 * unchanged, typed against {@link AgentFactory}.
 */
export function defineAgent(factory: AgentFactory): AgentFactory {
  return factory;
}
