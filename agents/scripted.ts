import type { Agent, AgentContext, AgentFactory } from '../src/core/agent';

/** A policy function: observation + legal actions -> action (synchronous: the runner's fast path). */
export type Policy<O, A> = (obs: O, legal: readonly A[] | null, ctx: AgentContext) => A;

/**
 * The small interface for scripted agents: a name and a policy function.
 * @example scriptedAgent('always-rock', () => 0)
 */
export function scriptedAgent<O = any, A = any>(name: string, policy: Policy<O, A>): Agent<O, A> {
  return { name, act: policy };
}

/**
 * A factory for a stateless scripted agent, ready to register: `--agents NAME` creates it.
 */
export function scriptedFactory<O = any, A = any>(
  spec: Omit<AgentFactory, 'create'> & { policy: Policy<O, A> },
): AgentFactory {
  const { policy, ...rest } = spec;
  return { ...rest, create: () => scriptedAgent(spec.name, policy) };
}
