/**
 * Plays a planned match (league/planned/match-plan.ts): the one code path of both the league's
 * own process (a league with a pairing window) and `arena worker` processes, so a match is the
 * same wherever it is played.
 */
import type { EventBus } from '../../src/bus/event-bus';
import type { Agent } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { MatchEvent } from '../../src/core/events';
import { heartbeat } from '../../src/core/heartbeat';
import { Rng, deriveSeed } from '../../src/core/rng';
import type { Registry } from '../../src/core/registry';
import { parseFaultPolicy } from '../../src/match/fault-policy';
import { MatchFailureError } from '../../src/match/match-failure';
import { pacedAgent } from '../../src/match/paced-agent';
import { loadCheckpoint } from '../../src/train/checkpoint';
import { policyAgent } from '../../src/train/policy-agents';
import { checkLayoutFor, PolicyModel } from '../../src/train/policy-model';
import { playCollected, type PlayedMatch } from '../recorded-match';
import { respecPath, type FileRef, type MatchPlan } from './match-plan';

/** Where a plan is played. */
export interface PlanPlayerOptions {
  registry: Registry;
  /** The match's events go here (collected for the record; spectators may listen). Without one, no event log is kept. */
  bus?: EventBus;
  /** Stops the match (the result is then null). */
  signal?: AbortSignal;
  /** The local path of a file by reference: the same path in the league's process, a verified cached copy on a worker. */
  localFile(ref: FileRef): Promise<string>;
}

/** An env whose id is not the one the plan was made for (a worker with other code). */
export class PlanMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanMismatchError';
  }
}

const policies = new Map<string, PolicyModel>();

/** A learner's policy from its file, sampling with the seat's agent seed (as the league's in-memory learner plays). */
function learnerAgent(player: string, file: string, ref: FileRef, env: Env, seed: number): Agent {
  const key = `${ref.sha256}:${env.meta.id}`;
  let model = policies.get(key);
  if (!model) {
    const ckpt = loadCheckpoint(file);
    model = new PolicyModel(ckpt.layout, checkLayoutFor(ckpt.layout, env), ckpt.weights);
    if (policies.size > 64) policies.delete(policies.keys().next().value!);
    policies.set(key, model);
  }
  return policyAgent(player, model, Rng.fromSeed(seed));
}

/** The agents of a plan's seats, created with the seat's agent seed (`deriveSeed(seed, 'agent', seat)`). */
async function planAgents(plan: MatchPlan, env: Env, o: PlanPlayerOptions): Promise<Agent[]> {
  const agents: Agent[] = [];
  for (const [seat, s] of plan.seats.entries()) {
    const agentSeed = deriveSeed(plan.seed, 'agent', seat);
    let agent: Agent;
    if (s.policy) agent = learnerAgent(s.player, await o.localFile(s.policy), s.policy, env, agentSeed);
    else {
      const spec = s.checkpoint ? respecPath(s.agent, s.checkpoint.path, await o.localFile(s.checkpoint)) : s.agent;
      agent = (await o.registry.createAgent(spec, { env, params: plan.params, seed: agentSeed })).agent;
    }
    agents.push(pacedAgent(agent, plan.paceMs));
  }
  return agents;
}

/**
 * Plays a plan and returns what it produced with its event log (numbered from 0, as the runner
 * published it on `bus`); null when the match was aborted (the signal, or an effect that failed).
 * An env that throws is a MatchFailureError naming the league and players.
 */
export async function playPlan(plan: MatchPlan, o: PlanPlayerOptions): Promise<{ played: PlayedMatch; events: MatchEvent[] } | null> {
  const env = await o.registry.resolveEnv(plan.env);
  if (env.meta.id !== plan.envId) throw new PlanMismatchError(`env "${plan.env}" is ${env.meta.id} here, but the league planned ${plan.envId}; run the same code everywhere`);
  const agents = await planAgents(plan, env, o);
  const players = plan.seats.map((s) => s.player);
  heartbeat()?.context({ league: plan.league, players });
  try {
    return await playCollected({
      env,
      params: plan.params,
      seed: plan.seed,
      agents,
      names: players, // seats named by player id, as the classic league does
      matchId: plan.matchId,
      bus: o.bus,
      deadlineMs: plan.deadlineMs === 'none' ? Infinity : (plan.deadlineMs ?? undefined),
      faultPolicy: parseFaultPolicy(plan.faults),
      signal: o.signal,
      effects: o.registry.effects(),
    });
  } catch (e) {
    if (e instanceof MatchFailureError) e.message += ` (league ${plan.league}, players ${players.join(', ')}; nothing of this match was recorded)`;
    throw e;
  }
}
