/**
 * `greedy` for countdown-v1 (solver): each step merges the two numbers whose result is
 * closest to the target. Under uk rules it stops when no merge gets closer than the best
 * number it already has; under tinyzero / reasoning-gym it merges until one number is left
 * (every number must be used). It answers with the expression of that play, or plays the
 * steps themselves with option `answer: "steps"`.
 *
 * Option `epsilon` (default 0): each step is a uniformly random merge with that probability
 * (seeded by the match), which makes the K attempts differ — the challenger's reward needs a
 * solver that sometimes succeeds and sometimes fails: `greedy:{"epsilon":0.3}`.
 */
import type { Agent, AgentFactory } from '../../../src/core/agent';
import { STOP } from '../actions';
import type { CountdownAction, CountdownObservation } from '../types';
import { ANSWER_OPTION, COUNTDOWN, formOption, greedyExpression, greedyMoves, poolOf, wrapAnswer } from './common';

export const greedyAgent: AgentFactory = {
  name: 'greedy',
  description: 'countdown solver: merge the pair whose result is closest to the target, each step (options: epsilon, answer text|steps)',
  envs: [COUNTDOWN],
  roles: ['solver'],
  options: { epsilon: { type: 'number', min: 0, max: 1, default: 0, description: 'probability of a random merge' }, answer: ANSWER_OPTION },
  create({ options }): Agent<CountdownObservation, CountdownAction> {
    const epsilon = typeof options?.epsilon === 'number' ? Math.min(1, Math.max(0, options.epsilon)) : 0;
    const form = formOption('greedy', options);
    return {
      name: 'greedy',
      act(o, _legal, ctx) {
        if (o.role !== 'solver') throw new Error(`greedy plays the solver role only (asked to play ${o.role})`);
        const explore = epsilon > 0 ? { rng: ctx.rng, epsilon } : undefined;
        if (form === 'steps') return greedyMoves(o.rules, poolOf(o), o.target ?? 0, explore)[0] ?? STOP;
        return wrapAnswer(o, greedyExpression(o, explore));
      },
    };
  },
};
