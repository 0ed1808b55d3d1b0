/**
 * `greedy` for countdown-v1 (solver): each step merges the two numbers whose result is
 * closest to the target. Under uk rules it stops when no merge gets closer than the best
 * number it already has; under tinyzero / reasoning-gym it merges until one number is left
 * (every number must be used). In text mode it answers with the expression of that play.
 */
import type { Agent, AgentFactory } from '../../src/core/agent';
import { STOP } from '../../envs/countdown/actions';
import type { CountdownAction, CountdownObservation } from '../../envs/countdown/types';
import { COUNTDOWN, greedyExpression, greedyMoves, poolOf, wrapAnswer } from './common';

export const greedyAgent: AgentFactory = {
  name: 'greedy',
  description: 'countdown solver: merge the pair whose result is closest to the target, each step',
  envs: [COUNTDOWN],
  roles: ['solver'],
  create(): Agent<CountdownObservation, CountdownAction> {
    return {
      name: 'greedy',
      act(o) {
        if (o.role !== 'solver') throw new Error(`greedy plays the solver role only (asked to play ${o.role})`);
        if (o.answer === 'steps') return greedyMoves(o.rules, poolOf(o), o.target ?? 0)[0] ?? STOP;
        return wrapAnswer(o, greedyExpression(o));
      },
    };
  },
};
