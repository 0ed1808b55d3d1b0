import { builtinAgents } from '../agents/index';
import { builtinEnvs } from '../envs/index';
import { Registry, type EnvHandle } from './core/registry';
import { neuralAgent } from './train/neural-agent';

/** A registry holding every built-in env and agent kind. */
export function createRegistry(): Registry {
  const registry = new Registry();
  for (const def of builtinEnvs) registry.registerEnv(def);
  for (const agent of builtinAgents) registry.registerAgent(agent);
  registry.registerAgent(neuralAgent); // plays checkpoints; it belongs to src/train
  return registry;
}

/** The process-wide registry used by `make` and the CLI. */
export const defaultRegistry = createRegistry();

/** `make(id, params)`: a built-in (or registered) env with params resolved. */
export function make(id: string, params?: unknown): EnvHandle {
  return defaultRegistry.make(id, params);
}
