import type { AgentFactory } from '../src/core/agent';
import { scriptedAgent } from './scripted';

/**
 * `random`: uniform over the legal actions (seeded by the match seed and seat), or the
 * env's `sampleAction` for open action sets. Plays any env.
 */
export const randomAgent: AgentFactory = {
  name: 'random',
  description: 'uniform over legal actions (env sampleAction for open action sets); seeded',
  options: {},
  create: ({ env }) =>
    scriptedAgent('random', (obs, legal, ctx) => {
      if (legal) return legal[ctx.rng.int(legal.length)];
      if (env.sampleAction) return env.sampleAction(obs, ctx.rng);
      throw new Error(`${env.meta.id} has an open action set and no sampleAction, so "random" cannot play it`);
    }),
};
