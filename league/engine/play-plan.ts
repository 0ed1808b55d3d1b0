/**
 * Plays a match plan (league/engine/match-plan.ts): the one way a scheduled match is played, in
 * the scheduling process (league, tournament, SPRT) and in `arena worker` processes alike, so a
 * match is the same wherever it is played.
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
import { SeatAgentError, seatAgents, type SeatSpec } from '../../src/match/seat-agents';
import { loadCheckpoint } from '../../src/train/checkpoint';
import { policyAgent } from '../../src/train/policy-agents';
import { checkLayoutFor, PolicyModel } from '../../src/train/policy-model';
import { playCollected, type PlayedMatch } from './record-match';
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

/** The agents of a plan's seats, each with the seat's agent seed (`deriveSeed(seed, 'agent', seat)`), paced as planned. */
async function planAgents(plan: MatchPlan, env: Env, o: PlanPlayerOptions): Promise<Agent[]> {
  const seats: SeatSpec[] = [];
  for (const [seat, s] of plan.seats.entries()) {
    if (s.policy) seats.push(learnerAgent(s.player, await o.localFile(s.policy), s.policy, env, deriveSeed(plan.seed, 'agent', seat)));
    else seats.push(s.checkpoint ? respecPath(s.agent, s.checkpoint.path, await o.localFile(s.checkpoint)) : s.agent);
  }
  try {
    return await seatAgents({ registry: o.registry, env, params: plan.params, seats, seed: plan.seed, paceMs: plan.paceMs });
  } catch (e) {
    throw e instanceof SeatAgentError ? e.cause : e;
  }
}

/**
 * Plays a plan and returns what it produced with its event log (numbered from 0, as the runner
 * published it on `bus`); null when the match was aborted (the signal, or an effect that failed).
 * An env that throws is a MatchFailureError naming the league (or tournament) and players.
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
      ...(plan.schedule === 'tournament' ? {} : { names: players }), // leagues name seats by player id
      matchId: plan.matchId,
      bus: o.bus,
      deadlineMs: plan.deadlineMs === 'none' ? Infinity : (plan.deadlineMs ?? undefined),
      faultPolicy: parseFaultPolicy(plan.faults),
      signal: o.signal,
      effects: o.registry.effects(),
    });
  } catch (e) {
    if (e instanceof MatchFailureError) e.message += ` (${plan.schedule ?? 'league'} ${plan.league}, players ${players.join(', ')}; nothing of this match was recorded)`;
    throw e;
  }
}
