/**
 * What probes need from the league (league/probes.ts runs play probes, league/exploit/probe.ts
 * exploit probes): in a file of its own so that neither probe file imports the other back.
 */
import type { Agent } from '../src/core/agent';
import type { Env } from '../src/core/env';
import type { Params } from '../src/core/params';
import type { Registry } from '../src/core/registry';
import type { ProbeSpec } from './config';

/** What probes need from the league. */
export interface ProbeSetup {
  probes: readonly ProbeSpec[];
  env: Env;
  params: Params;
  seed: number;
  /** The agent of a player or learner (by id) for one seat of a probe, created with `seed`. */
  agentFor(playerId: string, seed: number): Promise<Agent>;
  /** What exploit probes need besides: the registry, the training backend, the roles a player or learner plays. */
  exploit?: { registry: Registry; backend?: string; rolesOf(playerId: string): readonly string[] | null };
}
