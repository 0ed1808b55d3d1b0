/**
 * Random actions (`sampleAction`, used by the generic `random` agent and the conformance
 * kit's playouts) and the fault policy's default actions.
 */
import type { Rng } from '../../src/core/rng';
import { PREDICT_WRONG, STOP, applyMove, attemptAnswer, initialPool, legalMoves } from './actions';
import type { Role } from './config';
import { drawNumbers } from './generator';
import { legalIndices } from './observe';
import type { CountdownAction, CountdownObservation, CountdownState } from './types';

/**
 * A random valid expression over the puzzle: random legal merges (uk: 0 to n−1 of them;
 * tinyzero / reasoning-gym: until one number is left), answered like a step attempt.
 */
export function randomExpression(o: CountdownObservation, rng: Rng): string {
  const numbers = o.numbers ?? [];
  if (!numbers.length || o.target === null) return '';
  let pool = initialPool(numbers);
  const moves: number[] = [];
  const merges = o.rules === 'uk' ? rng.range(0, numbers.length - 1) : numbers.length - 1;
  for (let k = 0; k < merges; k++) {
    const options = legalMoves(o.rules, pool).filter((m) => m !== STOP);
    if (!options.length) break;
    const m = rng.pick(options);
    moves.push(m);
    pool = applyMove(o.rules, pool, m) ?? pool;
  }
  return attemptAnswer(o.rules, numbers, o.target, [...moves, STOP]);
}

/**
 * The env's sampleAction: steps mode — a uniformly random legal index; text mode — a random
 * in-contract proposal (not checked for solvability), a random valid expression, a coin-flip
 * prediction.
 */
export function sampleAction(o: CountdownObservation, rng: Rng): CountdownAction {
  if (o.answer === 'steps') return o.legal && o.legal.length ? rng.pick(o.legal) : STOP;
  if (o.phase === 'propose') {
    const c = o.contract;
    return { numbers: drawNumbers(c, rng), target: rng.range(c.target[0], c.target[1]) };
  }
  if (o.phase === 'evaluate') return rng.next() < 0.5;
  const e = randomExpression(o, rng);
  return o.answerTag ? `<answer>${e}</answer>` : e;
}

/**
 * The fault policy's default action: stop / an empty answer for the solver, "wrong" for the
 * evaluator, the smallest in-contract puzzle (or the first legal index) for the challenger.
 */
export function defaultAction(state: CountdownState, seat: number): CountdownAction {
  if (state.cfg.answer === 'steps') return state.phase === 'solve' ? STOP : state.phase === 'evaluate' ? PREDICT_WRONG : legalIndices(state)[0];
  const role: Role | undefined = state.cfg.seats[seat];
  if (role === 'evaluator') return false;
  if (role === 'solver') return '';
  const c = state.cfg.contract;
  const numbers = c.tiles ? [...c.tiles].sort((a, b) => a - b).slice(0, c.count[0]) : new Array<number>(c.count[0]).fill(c.values[0]);
  return { numbers, target: c.target[0] };
}
