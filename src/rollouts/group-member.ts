import type { Agent, AgentContext } from '../core/agent';
import { Rng, deriveSeed } from '../core/rng';

/**
 * The agent as member `member` of a group of episodes that share a start state (one seed): the
 * same agent with its per-decision generator reseeded, so seeded agents (random, epsilon-greedy)
 * play differently in each member while the env starts identically. Member 0 is the agent
 * itself. Everything else about the context (deadline, signal, validate, note) is the runner's.
 */
export function groupMember(agent: Agent, member: number): Agent {
  if (member === 0) return agent;
  const rngs = new Map<number, Rng>();
  const wrap = (ctx: AgentContext): AgentContext => {
    let rng = rngs.get(ctx.seat);
    if (!rng) rngs.set(ctx.seat, (rng = Rng.fromSeed(deriveSeed(deriveSeed(member, 'group-member', ctx.seat), ctx.matchId))));
    const r = rng;
    return new Proxy(ctx, {
      get: (target, key) => {
        if (key === 'rng') return r;
        const v: unknown = Reflect.get(target, key, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
  return {
    name: agent.name,
    omniscient: agent.omniscient,
    act: (obs, legal, ctx) => agent.act(obs, legal, wrap(ctx)),
    start: (ctx) => {
      rngs.clear();
      agent.start?.(wrap(ctx));
    },
    end: agent.end ? (returns, ctx, info) => agent.end!(returns, wrap(ctx), info) : undefined,
    report: agent.report ? () => agent.report!() : undefined,
  };
}
