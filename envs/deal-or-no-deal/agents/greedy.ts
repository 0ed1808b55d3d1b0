import type { AgentFactory } from '../../../src/core/agent';
import { offerId, valueOf } from '../offers';
import { ENV_ID } from '../config';
import { negotiatorAgent, type Strategy } from './negotiator';

/**
 * Greedy's proposal: every unit of each item type whose value to it is at least its average
 * value per item (10 / items in the pool) — its high-value items — leaving the rest.
 */
export function greedyKeep(pool: readonly number[], values: readonly number[]): number {
  const items = pool[0] + pool[1] + pool[2];
  const mean = 10 / items;
  return offerId(pool.map((n, i) => (values[i] > 0 && values[i] >= mean ? n : 0)));
}

/** Greedy strategy with an acceptance threshold (own value of the offered share). */
export function greedyStrategy(threshold: number): Strategy {
  return {
    propose: (v) => greedyKeep(v.pool, v.values),
    accept: (v, share) => valueOf(v.values, share) >= threshold,
  };
}

/**
 * `greedy`: asks for its high-value items (every unit of each type worth at least its average
 * value per item) and never concedes; accepts an offer worth at least `threshold` (option,
 * default 6 of 10) to it. Plays both protocols.
 */
export const greedyAgent: AgentFactory = {
  name: 'greedy',
  description: 'asks for its high-value items, never concedes; accepts offers worth >= threshold (default 6) to it',
  envs: [ENV_ID],
  options: { threshold: { type: 'number', min: 0, max: 10, default: 6, description: 'accept offers worth at least this much to it' } },
  create: ({ options }) => {
    const t = options?.threshold;
    const threshold = typeof t === 'number' && Number.isFinite(t) ? t : 6;
    return negotiatorAgent('greedy', greedyStrategy(threshold));
  },
};
