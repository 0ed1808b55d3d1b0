/** What the code-repair baselines take from their creation: the lent code runner and numeric options. */
import type { AgentServices } from '../../../src/core/agent';
import type { CodeRunner } from '../../../src/core/sandbox';

/** The code runner the host lends; a clear error naming the agent when there is none. */
export function runnerOf(services: AgentServices | undefined, agent: string): CodeRunner {
  if (!services?.code) throw new Error(`${agent} needs a code runner (the arena lends one through the registry)`);
  return services.code;
}

/** A positive integer option (`name:{"budget":100}`), else the default. */
export function countOption(options: Record<string, unknown> | undefined, key: string, fallback: number): number {
  const v = options?.[key];
  return typeof v === 'number' && v > 0 ? Math.floor(v) : fallback;
}
