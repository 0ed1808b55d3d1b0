import type { AgentFactory } from '../../../src/core/agent';
import { legalIds, OFFERS, valueOf } from '../offers';
import { ENV_ID } from '../config';
import { negotiatorAgent, type Strategy } from './negotiator';

/** Half of a player's total value (10). */
const HALF = 5;

/**
 * Fair-split's proposal: the share worth at least half its total value (5) to it with the
 * smallest such value, then the fewest items (leaving the partner as much as possible), then the
 * smallest offer id.
 */
export function fairKeep(pool: readonly number[], values: readonly number[]): number {
  let best = -1;
  let bestValue = Infinity;
  let bestItems = Infinity;
  for (const id of legalIds(pool, false)) {
    const keep = OFFERS[id];
    const value = valueOf(values, keep);
    if (value < HALF) continue;
    const items = keep[0] + keep[1] + keep[2];
    if (value < bestValue || (value === bestValue && items < bestItems)) {
      best = id;
      bestValue = value;
      bestItems = items;
    }
  }
  return best;
}

/** The fair-split strategy. */
export const fairSplitStrategy: Strategy = {
  propose: (v) => fairKeep(v.pool, v.values),
  accept: (v, share) => valueOf(v.values, share) >= HALF,
};

/**
 * `fair-split`: proposes to keep (about) half of its own total value and give the partner the
 * rest; accepts any offer worth at least half (5) to it. Plays both protocols.
 */
export const fairSplitAgent: AgentFactory = {
  name: 'fair-split',
  description: 'proposes the share worth half its total value (5), leaving the rest; accepts offers worth >= 5 to it',
  envs: [ENV_ID],
  options: {},
  create: () => negotiatorAgent('fair-split', fairSplitStrategy),
};
