/**
 * The episode: init, the step function of each phase, returns and outcome.
 *
 *   propose (challenger) → solve (K attempts by the one solver seat) → evaluate (K predictions) → done
 *
 * Attempts are sealed: the solver's observation shows only the attempt in progress, never its
 * other attempts or any score, and nobody else sees an answer before the evaluation phase
 * reveals all of them together (or the episode ends). Scores and the exact verdict are shown
 * to everybody at the end.
 */
import type { EnvEvent, StepResult } from '../../src/core/env';
import type { Params } from '../../src/core/params';
import { Rng, type Seed } from '../../src/core/rng';
import { NUMBER_BASE, PREDICT_RIGHT, STOP, TARGET_BASE, applyMove, attemptAnswer, initialPool, moveText, poolSize } from './actions';
import { resolveConfig, seatOf } from './config';
import { generatePuzzle } from './generator';
import { scoreAnswer } from './scoring';
import type { AttemptResult, CountdownAction, CountdownState } from './types';
import { readProposal } from './validate';
import { verdictFor } from './verdict';

/** A fresh episode: with a challenger it waits for the proposal, otherwise the puzzle is drawn (or given) now. */
export function initState(params: Params, seed: Seed): CountdownState {
  const cfg = resolveConfig(params);
  const base: CountdownState = { cfg, phase: 'propose', numbers: null, target: null, draft: [], verdict: null, pool: [], moves: [], results: [], predictions: [] };
  if (cfg.seats[0] === 'challenger') return base;
  const req = { ...(cfg.numbers ? { numbers: cfg.numbers } : {}), ...(cfg.target !== null ? { target: cfg.target } : {}), ...(cfg.large !== null ? { large: cfg.large } : {}) };
  const { numbers, target } = generatePuzzle(cfg.rules, cfg.contract, Rng.fromSeed(seed), req);
  return { ...base, phase: 'solve', numbers, target, verdict: verdictFor(cfg.rules, numbers, target), pool: initialPool(numbers) };
}

/** Fraction of the K attempts that are correct. */
export function solvedFraction(state: CountdownState): number {
  return state.results.filter((r) => r.correct).length / state.cfg.attempts;
}

/** Whether the challenger's puzzle was rejected as unsolvable. */
export function isUnsolvable(state: CountdownState): boolean {
  return state.phase === 'done' && state.verdict !== null && !state.verdict.reachable && state.cfg.seats[0] === 'challenger';
}

/**
 * One number per seat. Solver: mean attempt score. Challenger: −1 for an unsolvable puzzle,
 * else 1 − |2p − 1| with p the fraction of attempts solved. Evaluator: fraction of its
 * predictions that agree with the verifier. Non-final states give the values so far (0 for
 * challenger and evaluator).
 */
export function episodeReturns(state: CountdownState): number[] {
  const { cfg } = state;
  const done = state.phase === 'done';
  const unsolvable = isUnsolvable(state);
  return cfg.seats.map((role) => {
    if (role === 'solver') return state.results.reduce((s, r) => s + r.score, 0) / cfg.attempts;
    if (!done) return 0;
    if (role === 'challenger') return unsolvable ? -1 : 1 - Math.abs(2 * solvedFraction(state) - 1);
    if (unsolvable) return 0;
    return state.predictions.filter((p, i) => p === state.results[i]?.correct).length / cfg.attempts;
  });
}

/** "unsolvable", "solved" (every attempt), "unsolved" (none), "partly-solved"; "" while running. */
export function episodeOutcome(state: CountdownState): string {
  if (state.phase !== 'done') return '';
  if (isUnsolvable(state)) return 'unsolvable';
  const k = state.results.filter((r) => r.correct).length;
  return k === state.cfg.attempts ? 'solved' : k === 0 ? 'unsolved' : 'partly-solved';
}

function resultEvent(state: CountdownState): EnvEvent {
  return {
    type: 'result',
    visibility: 'public',
    data: {
      numbers: state.numbers,
      target: state.target,
      verdict: state.verdict ? { ...state.verdict } : null,
      attempts: state.results.map((r) => ({ answer: r.answer, score: r.score, correct: r.correct, reason: r.reason })),
      predictions: state.predictions,
      returns: episodeReturns(state),
      outcome: episodeOutcome(state),
    },
  };
}

function finish(state: CountdownState, events: EnvEvent[]): StepResult<CountdownState> {
  const done: CountdownState = { ...state, phase: 'done', pool: [], moves: [] };
  events.push(resultEvent(done));
  return { state: done, events };
}

function propose(state: CountdownState, numbers: number[], target: number, events: EnvEvent[]): StepResult<CountdownState> {
  const verdict = verdictFor(state.cfg.rules, numbers, target);
  const next: CountdownState = { ...state, numbers, target, draft: [], verdict };
  events.push({ type: 'puzzle', visibility: 'public', data: { numbers, target, solvable: verdict.reachable } });
  events.push({ type: 'verdict', visibility: 'omniscient', data: { ...verdict } });
  if (!verdict.reachable) return finish(next, events);
  return { state: { ...next, phase: 'solve', pool: initialPool(numbers) }, events };
}

function endAttempt(state: CountdownState, result: AttemptResult, events: EnvEvent[]): StepResult<CountdownState> {
  const seat = seatOf(state.cfg, 'solver');
  const attempt = state.results.length;
  events.push({ type: 'answer', visibility: { seat }, data: { attempt, answer: result.answer } });
  events.push({ type: 'attempt', visibility: 'public', data: { attempt, of: state.cfg.attempts } });
  const results = [...state.results, result];
  const next: CountdownState = { ...state, results, pool: initialPool(state.numbers!), moves: [] };
  // Each attempt is a try of its own: its score is the solver's reward for the decisions of that attempt.
  const rewards = [{ seat, value: result.score, endsTry: true }];
  if (results.length < state.cfg.attempts) return { state: next, events, rewards };
  if (seatOf(state.cfg, 'evaluator') < 0) return { ...finish(next, events), rewards };
  events.push({ type: 'answers', visibility: 'public', data: { answers: results.map((r) => r.answer) } });
  return { state: { ...next, phase: 'evaluate', pool: [] }, events, rewards };
}

function judged(state: CountdownState, answer: string, moves: number[] | null, answerTag: boolean): AttemptResult {
  const c = scoreAnswer(state.cfg.rules, state.numbers!, state.target!, answer, answerTag);
  return { answer, moves, status: c.status, reason: c.reason, value: c.value, score: c.score, correct: c.correct };
}

/** The env's step: applies the one acting seat's (validated) action, index or text form. */
export function stepState(state: CountdownState, actions: Record<number, CountdownAction>): StepResult<CountdownState> {
  const { cfg } = state;
  const events: EnvEvent[] = [];
  if (state.phase === 'propose') {
    const a = actions[seatOf(cfg, 'challenger')];
    if (typeof a === 'number') {
      if (a < TARGET_BASE) return { state: { ...state, draft: [...state.draft, a - NUMBER_BASE + 1] }, events };
      return propose(state, state.draft, a - TARGET_BASE + 1, events);
    }
    const p = readProposal(a);
    if (typeof p === 'string') throw new Error(`countdown: step given an invalid proposal (${p})`);
    return propose(state, [...p.numbers], p.target, events);
  }
  if (state.phase === 'solve') {
    const seat = seatOf(cfg, 'solver');
    const a = actions[seat];
    if (typeof a !== 'number') return endAttempt(state, judged(state, String(a), null, cfg.answerTag), events);
    const moves = [...state.moves, a];
    if (a === STOP) return endAttempt(state, judged(state, attemptAnswer(cfg.rules, state.numbers!, state.target!, moves), moves, false), events);
    const pool = applyMove(cfg.rules, state.pool, a);
    if (!pool) throw new Error(`countdown: step given an illegal move ${a}`);
    events.push({ type: 'move', visibility: { seat }, data: { attempt: state.results.length, move: a, text: moveText(cfg.rules, state.pool, a) } });
    const next = { ...state, pool, moves };
    if (poolSize(pool) > 1) return { state: next, events };
    return endAttempt(next, judged(next, attemptAnswer(cfg.rules, state.numbers!, state.target!, moves), moves, false), events);
  }
  if (state.phase === 'evaluate') {
    const seat = seatOf(cfg, 'evaluator');
    const a = actions[seat];
    const correct = a === true || a === PREDICT_RIGHT;
    const predictions = [...state.predictions, correct];
    events.push({ type: 'prediction', visibility: { seat }, data: { attempt: state.predictions.length, correct } });
    const next = { ...state, predictions };
    return predictions.length < cfg.attempts ? { state: next, events } : finish(next, events);
  }
  throw new Error('countdown: step called on a finished episode');
}
