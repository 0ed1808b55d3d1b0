/**
 * A built-in env as it ships: the one object an env folder's public index exports
 * (`envs/<env>/index.ts`) and envs/index.ts registers with one line. The catalog
 * (app/catalog.ts) registers its definition, its agents and its effect handlers; nothing else
 * of the project lists an env's parts.
 */
import type { AgentFactory, AgentServices } from './agent';
import type { EffectHandler } from './effects';
import type { EnvDefinition } from './env';

/** The services a built-in env's effect handlers are built from: the catalog's lazily started sandbox. */
export type BuiltinServices = Required<AgentServices>;

/** One built-in env: its definition, its baseline agents and the effect handlers only it knows. */
export interface BuiltinEnv {
  /** The definition (envs/<env>/env.ts). */
  readonly env: EnvDefinition;
  /** Its baselines (envs/<env>/agents/): `[]` when the generic agents (random, llm) are all it has. */
  readonly agents: readonly AgentFactory[];
  /**
   * The handlers of effect kinds this env alone asks for, by kind, built from the services (the
   * kernel lab for kernel-speedup's measurements). Absent when the env needs none or only the
   * generic ones the catalog registers for every env (`code-runs`, the sandbox's).
   */
  readonly effects?: (services: BuiltinServices) => Readonly<Record<string, EffectHandler>>;
}
