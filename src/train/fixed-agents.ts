/**
 * Fixed (non-learning) agents for training and evaluation episodes, created once per agent
 * spec and seat through the registry (`random`, `greedy`, `neural:{"checkpoint":...}`, ...),
 * so each seat has its own instance and per-episode state never leaks between seats; and per
 * rollout lane (episodes in lockstep) for agents with a `start` hook, so per-episode state
 * never meets another episode either.
 */
import type { Agent, AgentFactory } from '../core/agent';
import type { Env } from '../core/env';
import type { Params } from '../core/params';
import { deriveSeed } from '../core/rng';
import type { Registry } from '../core/registry';
import { parseAgentRef } from '../core/agent-ref';
import { SeatAgentError, seatAgents, type SeatSpec } from '../match/seat-agents';

/** Agents by spec and seat. */
export class FixedAgents {
  private constructor(private readonly table: Map<string, { factory: AgentFactory; agents: Agent[] }>) {}

  /**
   * Creates `seats` instances of every spec (errors name the spec). With `shareFrom` (another
   * rollout lane's agents), instances without a `start` hook are shared instead of created
   * again: an agent keeps per-episode state only if it resets it at the start of an episode,
   * so one without that hook can serve episodes that run at the same time (a `neural` agent's
   * weights are then held once, not once per lane).
   */
  static async create(registry: Registry, env: Env, params: Params, specs: readonly string[], seats: number, seed: number, shareFrom?: FixedAgents): Promise<FixedAgents> {
    const table = new Map<string, { factory: AgentFactory; agents: Agent[] }>();
    for (const spec of new Set(specs)) {
      const shared = shareFrom?.table.get(spec);
      const fill = Array.from({ length: seats }, (_, seat): SeatSpec => {
        const other = shared?.agents[seat];
        return other && !other.start ? other : spec;
      });
      let agents: Agent[];
      try {
        agents = await seatAgents({ registry, env, params, seats: fill, seedOf: (seat) => deriveSeed(seed, 'fixed-agent', spec, seat) });
      } catch (e) {
        throw e instanceof SeatAgentError ? e.cause : e;
      }
      table.set(spec, { factory: registry.factoryOf(parseAgentRef(spec), env.meta.id), agents });
    }
    return new FixedAgents(table);
  }

  /** The agent of `spec` for `seat`, or null when its factory does not play `role`. */
  get(spec: string, seat: number, role: string): Agent | null {
    const entry = this.table.get(spec);
    if (!entry) throw new Error(`agent "${spec}" was not prepared for this run`);
    if (entry.factory.roles && !entry.factory.roles.includes(role)) return null;
    const agent = entry.agents[seat];
    if (!agent) throw new Error(`agent "${spec}" was prepared for ${entry.agents.length} seats, not seat ${seat}`);
    return agent;
  }

  /** Specs held. */
  specs(): string[] {
    return [...this.table.keys()];
  }
}
