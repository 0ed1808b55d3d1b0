/**
 * `random-valid` for countdown-v1 (challenger): a random puzzle inside the contract (the
 * env's own generator) that the exact solver can solve, redrawn up to 50 times, proposed as
 * JSON — or, with option `answer: "steps"`, planned at the first decision and then composed
 * index by index (numbers, then the target).
 */
import type { Agent, AgentFactory } from '../../../src/core/agent';
import type { CountdownAction, CountdownObservation, Proposal } from '../types';
import { ANSWER_OPTION, COUNTDOWN, formOption, proposalAction, solvablePuzzle } from './common';

export const randomValidAgent: AgentFactory = {
  name: 'random-valid',
  description: 'countdown challenger: random in-contract puzzles that the exact solver can solve',
  envs: [COUNTDOWN],
  roles: ['challenger'],
  options: { answer: ANSWER_OPTION },
  create({ options }): Agent<CountdownObservation, CountdownAction> {
    const form = formOption('random-valid', options);
    let plan: Proposal | null = null;
    return {
      name: 'random-valid',
      start() {
        plan = null;
      },
      act(o, _legal, ctx) {
        if (o.role !== 'challenger') throw new Error(`random-valid plays the challenger role only (asked to play ${o.role})`);
        plan ??= solvablePuzzle(o.rules, o.contract, ctx.rng);
        return proposalAction(o, plan, form);
      },
    };
  },
};
