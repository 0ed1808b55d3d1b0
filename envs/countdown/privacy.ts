/**
 * Private information, for the conformance kit's leak check.
 *
 * Countdown with several seats is an imperfect-information game because attempts are sealed:
 * - while the solver works, its finished attempts and its attempt in progress are private to
 *   the solver seat (the challenger, the evaluator and spectators see only how many attempts
 *   are done — which the public turn events reveal anyway);
 * - while the evaluator judges, its predictions so far are private to it.
 * Everything else (contract, puzzle, draft, the revealed answers, the final results) is public.
 * Variants keep the public facts (attempt count, moves made in the current attempt, number of
 * predictions) and change only the private ones.
 */
import type { Rng } from '../../src/core/rng';
import { STOP, applyMove, attemptAnswer, initialPool, legalMoves, poolSize } from './actions';
import { seatOf } from './config';
import { scoreAnswer } from './scoring';
import type { AttemptResult, CountdownState } from './types';

/** `count` random legal moves from the puzzle's start that leave at least two numbers, or null. */
function randomMoves(state: CountdownState, count: number, rng: Rng): { moves: number[]; pool: number[] } | null {
  const rules = state.cfg.rules;
  let pool = initialPool(state.numbers!);
  const moves: number[] = [];
  for (let k = 0; k < count; k++) {
    const options = legalMoves(rules, pool).filter((m) => m !== STOP);
    if (!options.length) return null;
    const m = rng.pick(options);
    pool = applyMove(rules, pool, m)!;
    moves.push(m);
  }
  return poolSize(pool) >= 2 || count === 0 ? { moves, pool } : null;
}

function otherAttempt(state: CountdownState, old: AttemptResult, rng: Rng): AttemptResult {
  const { rules, answerTag } = state.cfg;
  let text: string;
  let moves: number[] | null = null;
  if (old.moves) {
    const m = randomMoves(state, rng.int(Math.max(1, state.numbers!.length - 1)), rng);
    moves = [...(m?.moves ?? []), STOP];
    text = attemptAnswer(rules, state.numbers!, state.target!, moves);
  } else {
    text = old.answer === state.numbers!.join(' + ') ? String(state.numbers![0]) : state.numbers!.join(' + ');
  }
  const c = scoreAnswer(rules, state.numbers!, state.target!, text, !moves && answerTag);
  return { answer: text, moves, status: c.status, reason: c.reason, value: c.value, score: c.score, correct: c.correct };
}

/** The env's privateVariants. */
export function privateVariants(state: CountdownState, seat: number, rng: Rng): CountdownState[] {
  const out: CountdownState[] = [];
  if (state.phase === 'solve' && seat === seatOf(state.cfg, 'solver')) {
    if (state.results.length) {
      const results = state.results.slice();
      results[0] = otherAttempt(state, results[0], rng);
      out.push({ ...state, results });
    }
    if (state.moves.length) {
      const m = randomMoves(state, state.moves.length, rng);
      if (m) out.push({ ...state, moves: m.moves, pool: m.pool });
    }
  }
  if (state.phase === 'evaluate' && seat === seatOf(state.cfg, 'evaluator') && state.predictions.length) {
    const predictions = state.predictions.slice();
    predictions[0] = !predictions[0];
    out.push({ ...state, predictions });
  }
  return out;
}
