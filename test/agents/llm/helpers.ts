import { EventBus } from '../../../src/bus/event-bus';
import { MemoryRecorder } from '../../../src/bus/recorder';
import { defaultRegistry } from '../../../app/catalog';
import type { Agent } from '../../../src/core/agent';
import type { MatchEvent } from '../../../src/core/events';
import type { FaultPolicy } from '../../../src/match/fault-policy';
import { runMatch, type MatchResult } from '../../../src/match/runner';
import { llmAgent } from '../../../agents/llm';

/** An `llm` agent for `envId` against the mock server at `baseURL`. */
export function llm(envId: string, params: unknown, options: Record<string, unknown>): Agent {
  const env = defaultRegistry.env(envId);
  return llmAgent.create({ env, params: env.resolveParams(params), seed: 0, options: { model: 'mock-model', ...options } });
}

/** A registered agent kind by name (a scripted opponent). */
export function scripted(envId: string, params: unknown, name: string, seed = 0): Agent {
  const env = defaultRegistry.env(envId);
  return defaultRegistry.agentFactory(name, env.meta.id).create({ env, params: env.resolveParams(params), seed });
}

/** Plays one match on a recorded bus; returns the result and every event (all visibilities). */
export async function play(
  envId: string,
  params: unknown,
  agents: Agent[] | ((seats: readonly { role: string }[]) => Agent[]),
  o: { seed?: number; deadlineMs?: number; faultPolicy?: FaultPolicy } = {},
): Promise<{ result: MatchResult; events: MatchEvent[] }> {
  const env = defaultRegistry.env(envId);
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  const matchId = `m-${Math.random().toString(36).slice(2)}`;
  const result = await runMatch({ env, params: env.resolveParams(params), seed: o.seed ?? 1, agents, bus, matchId, deadlineMs: o.deadlineMs, faultPolicy: o.faultPolicy });
  const events = rec.events(matchId);
  rec.stop();
  return { result, events };
}
