/**
 * `exact-solver` for countdown-v1. Solver: the exact solver's answer — uk: the expression for
 * the closest reachable value (the target when reachable); tinyzero / reasoning-gym: an
 * expression using every number that equals the target, or the greedy expression when none
 * exists. With option `answer: "steps"` it plays by index: it re-solves from its current pool
 * at every decision and plays the first step of that expression (stop when the best value is
 * already in the pool).
 * Evaluator: judges each revealed answer with the env's own scorer (a perfect judge that uses
 * only what it observes). Challenger: random in-contract puzzles the exact solver can solve
 * (the same as `random-valid`).
 */
import type { Agent, AgentFactory } from '../../../src/core/agent';
import { PREDICT_RIGHT, PREDICT_WRONG, STOP } from '../actions';
import { scoreAnswer } from '../scoring';
import { solveAllNumbers } from '../solver-rational';
import { solveUk } from '../solver-uk';
import type { CountdownAction, CountdownObservation, Proposal } from '../types';
import { ANSWER_OPTION, COUNTDOWN, formOption, greedyExpression, greedyMoves, poolOf, proposalAction, slots, solvablePuzzle, treeMoves, wrapAnswer } from './common';

/** The exact solver's text answer for an observation's puzzle. */
export function exactAnswer(o: CountdownObservation): string {
  const numbers = o.numbers ?? [];
  const target = o.target ?? 0;
  if (o.rules === 'uk') return solveUk(numbers, target).expression;
  return solveAllNumbers(numbers, target).expression ?? greedyExpression(o);
}

/** The exact solver's next step index from a steps-mode solver observation. */
export function exactMove(o: CountdownObservation): number {
  const pool = poolOf(o);
  const here = slots(pool);
  const target = o.target ?? 0;
  if (here.length <= 1) return STOP;
  if (o.rules === 'uk') {
    const s = solveUk(here.map((h) => h.value[0]), target);
    return typeof s.tree === 'number' ? STOP : treeMoves(s.tree, here.map((h) => h.slot))[0];
  }
  const s = solveAllNumbers(here.map((h) => h.value), target);
  if (s.tree !== null && typeof s.tree !== 'number') return treeMoves(s.tree, here.map((h) => h.slot))[0];
  return greedyMoves(o.rules, pool, target)[0] ?? STOP;
}

/** Whether the evaluator's current attempt (the next one without a prediction) is correct. */
export function judgeCurrent(o: CountdownObservation): boolean {
  const answer = o.answers?.[o.predictions?.length ?? 0];
  if (answer === undefined || !o.numbers || o.target === null) return false;
  return scoreAnswer(o.rules, o.numbers, o.target, answer, o.answerTag).correct;
}

export const exactSolverAgent: AgentFactory = {
  name: 'exact-solver',
  description: 'countdown: exact solver as solver (best expression / its steps), exact judge as evaluator, solvable random puzzles as challenger (option answer: text|steps)',
  envs: [COUNTDOWN],
  roles: ['solver', 'evaluator', 'challenger'],
  options: { answer: ANSWER_OPTION },
  create({ options }): Agent<CountdownObservation, CountdownAction> {
    const form = formOption('exact-solver', options);
    let plan: Proposal | null = null;
    return {
      name: 'exact-solver',
      start() {
        plan = null;
      },
      act(o, _legal, ctx) {
        if (o.role === 'evaluator') {
          const right = judgeCurrent(o);
          return form === 'steps' ? (right ? PREDICT_RIGHT : PREDICT_WRONG) : right;
        }
        if (o.role === 'challenger') {
          plan ??= solvablePuzzle(o.rules, o.contract, ctx.rng);
          return proposalAction(o, plan, form);
        }
        return form === 'steps' ? exactMove(o) : wrapAnswer(o, exactAnswer(o));
      },
    };
  },
};
