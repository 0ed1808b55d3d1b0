import type { Agent } from '../core/agent';

/**
 * Wraps an agent so that each decision takes at least `ms` milliseconds (the answer is
 * unchanged). Used to slow demo leagues down to a watchable pace; the pause counts against
 * the decision's deadline like any other thinking time.
 */
export function pacedAgent<O, A>(agent: Agent<O, A>, ms: number): Agent<O, A> {
  if (!(ms > 0)) return agent;
  return {
    name: agent.name,
    omniscient: agent.omniscient,
    start: agent.start?.bind(agent),
    end: agent.end?.bind(agent),
    act(obs, legal, ctx) {
      const started = Date.now();
      const answer = agent.act(obs, legal, ctx);
      return Promise.resolve(answer).then(
        (a) => new Promise<A>((resolve) => setTimeout(() => resolve(a), Math.max(0, ms - (Date.now() - started)))),
      );
    },
  };
}
