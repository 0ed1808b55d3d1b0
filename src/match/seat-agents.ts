/**
 * The agents of a match's seats: the one place where seats are filled from agent references
 * (src/core/agent-ref.ts) — the CLI's `--agents`, league and tournament plans, lobby play, the
 * env server's sessions and the trainer's fixed opponents all build them here.
 */
import type { Agent, AgentOptions } from '../core/agent';
import { toAgentRef, type AgentRef, type AgentRefLike } from '../core/agent-ref';
import type { Env } from '../core/env';
import type { Params } from '../core/params';
import type { Registry } from '../core/registry';
import { deriveSeed } from '../core/rng';
import { pacedAgent } from './paced-agent';

/** What fills a seat: an agent reference, or an agent built elsewhere (a served human seat, a learner's policy). */
export type SeatSpec = AgentRefLike | Agent;

/** How seats are filled. */
export interface SeatAgentsOptions {
  registry: Registry;
  env: Env;
  params: Params;
  /** One entry per seat; `null` leaves a seat empty (the env server's own seat). */
  seats: readonly (SeatSpec | null)[];
  /** The agent seed of a seat (default `deriveSeed(seed, 'agent', seat)` with `seed`). */
  seedOf?: (seat: number) => number;
  /** The match seed the default agent seeds derive from. */
  seed?: number;
  /** Minimum milliseconds per decision (league and tournament `paceMs`); 0 or absent = full speed. */
  paceMs?: number;
  /** Passed to every agent factory (`AgentOptions.services`). */
  services?: AgentOptions['services'];
}

/** An agent that could not be built; `seat` says which, the message names the reference and why, `cause` is the error itself. */
export class SeatAgentError extends Error {
  constructor(
    readonly seat: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'SeatAgentError';
  }
}

const isAgent = (s: SeatSpec): s is Agent => typeof s === 'object' && s !== null && typeof (s as Agent).act === 'function';

/**
 * `specs` for `seats` seats: one spec fills every seat, otherwise there must be one per seat;
 * null when the count fits neither (callers word the error in their own terms).
 */
export function perSeat<T>(specs: readonly T[], seats: number): T[] | null {
  if (specs.length === 1) return Array.from({ length: seats }, () => specs[0]);
  return specs.length === seats ? [...specs] : null;
}

function seedFor(o: SeatAgentsOptions, seat: number): number {
  if (o.seedOf) return o.seedOf(seat);
  if (o.seed === undefined) throw new Error('seatAgents: give seed or seedOf');
  return deriveSeed(o.seed, 'agent', seat);
}

function build(o: SeatAgentsOptions, refs: (AgentRef | Agent | null)[]): (Agent | null)[] {
  return refs.map((r, seat) => {
    if (r === null) return r;
    let agent: Agent;
    if (isAgent(r)) agent = r;
    else {
      try {
        agent = o.registry.createLoadedAgent(r, { env: o.env, params: o.params, seed: seedFor(o, seat), ...(o.services ? { services: o.services } : {}) }).agent;
      } catch (e) {
        throw new SeatAgentError(seat, e);
      }
    }
    return pacedAgent(agent, o.paceMs ?? 0);
  });
}

function refsOf(seats: readonly (SeatSpec | null)[]): (AgentRef | Agent | null)[] {
  return seats.map((s, seat) => {
    if (s === null || isAgent(s)) return s;
    try {
      return toAgentRef(s);
    } catch (e) {
      throw new SeatAgentError(seat, e);
    }
  });
}

/**
 * Builds the agents of a match's seats, each with its own seed (see {@link SeatAgentsOptions}),
 * loading agent modules first; agents given ready are used as they are (paced like the others).
 * Throws {@link SeatAgentError} naming the seat for a malformed reference, an unknown agent, a
 * module that does not load or bad options.
 */
export async function seatAgents(o: SeatAgentsOptions & { seats: readonly SeatSpec[] }): Promise<Agent[]>;
export async function seatAgents(o: SeatAgentsOptions): Promise<(Agent | null)[]>;
export async function seatAgents(o: SeatAgentsOptions): Promise<(Agent | null)[]> {
  const refs = refsOf(o.seats);
  for (const [seat, r] of refs.entries()) {
    if (r === null || isAgent(r) || r.kind !== 'module') continue;
    try {
      await o.registry.loadModuleOnce(r.path!);
    } catch (e) {
      throw new SeatAgentError(seat, e);
    }
  }
  return build(o, refs);
}

/**
 * {@link seatAgents} in synchronous code, for references that load nothing (registered names,
 * modules already loaded); a module not loaded yet is a SeatAgentError.
 */
export function seatAgentsNow(o: SeatAgentsOptions & { seats: readonly SeatSpec[] }): Agent[];
export function seatAgentsNow(o: SeatAgentsOptions): (Agent | null)[];
export function seatAgentsNow(o: SeatAgentsOptions): (Agent | null)[] {
  return build(o, refsOf(o.seats));
}
