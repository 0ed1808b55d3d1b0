import type { AgentFactory } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { Params } from '../../src/core/params';
import type { Registry } from '../../src/core/registry';

/**
 * Checks, before anything is stored, that a player's agent reference builds for `env` (a
 * well-formed reference, a known agent or a module that loads, valid options) and may play
 * rated games (it is not an evaluation-only oracle); returns its agent kind. Throws an Error
 * saying what is wrong (callers prefix the config and player): `games` names what it would
 * have played ("rated league matches").
 */
export async function ratedAgentFactory(registry: Registry, ref: string, env: Env, params: Params, games: string): Promise<AgentFactory> {
  const { factory } = await registry.createAgent(ref, { env, params, seed: 0 });
  if (factory.rated === false) throw new Error(`agent "${factory.name}" is evaluation-only (omniscient) and cannot play ${games}`);
  return factory;
}
