import type { Env, EnvDefinition } from '../../src/core/env';
import { normalizeEnv } from '../../src/core/normalize-env';
import { loadEnv, rps } from '../fixtures/load';

interface CardState {
  cards: number[];
  history: number[];
}

/** The hidden-card fixture with some members replaced (typed for TS tests). */
export function makeHiddenCardTs(members: Partial<EnvDefinition<CardState, number, unknown>>): Env {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { makeHiddenCard } = require('../fixtures/hidden-card.js') as { makeHiddenCard: (o: unknown) => EnvDefinition };
  return normalizeEnv(makeHiddenCard({ id: 'variant-card-v1', members }));
}

export { loadEnv, rps };
