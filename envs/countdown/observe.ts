/**
 * Observations (the one projection for agents, spectators and replays) and their text form.
 *
 * Who sees what:
 * - everybody: rules, contract, phase, the puzzle once proposed, how many attempts are done;
 *   the challenger's draft while it composes by index;
 * - the solver: its attempt in progress (pool, moves) — never its other attempts or a score;
 * - from the evaluation phase on: all answers (revealed together); the evaluator's own
 *   predictions;
 * - at the end: everything (results, predictions, the exact verdict, returns);
 * - omniscient viewers: everything at all times.
 */
import type { Viewer } from '../../src/core/visibility';
import { NUMBER_BASE, PREDICT_RIGHT, PREDICT_WRONG, TARGET_BASE, applyMove, initialPool, legalMoves, moveText, slotValue } from './actions';
import { canAdd } from './contract';
import { episodeReturns } from './flow';
import type { CountdownObservation, CountdownState } from './types';
import { actingSeats } from './validate';

/** Legal action indices of the seat to act (the index form; the text / JSON form is open). */
export function legalIndices(state: CountdownState): number[] {
  const { cfg } = state;
  if (state.phase === 'propose') {
    const out: number[] = [];
    const c = cfg.contract;
    for (let v = c.values[0]; v <= c.values[1]; v++) if (canAdd(c, state.draft, v)) out.push(NUMBER_BASE + v - 1);
    if (state.draft.length >= c.count[0]) for (let t = c.target[0]; t <= c.target[1]; t++) out.push(TARGET_BASE + t - 1);
    return out;
  }
  if (state.phase === 'solve') return legalMoves(cfg.rules, state.pool);
  if (state.phase === 'evaluate') return [PREDICT_WRONG, PREDICT_RIGHT];
  return [];
}

function poolView(state: CountdownState): ([number, number] | null)[] {
  return Array.from({ length: state.numbers!.length }, (_, i) => {
    const v = slotValue(state.pool, i);
    return v ? [v[0], v[1]] : null;
  });
}

function movesView(state: CountdownState): string[] {
  const rules = state.cfg.rules;
  let pool: readonly number[] = initialPool(state.numbers!);
  return state.moves.map((m) => {
    const text = moveText(rules, pool, m) ?? String(m);
    pool = applyMove(rules, pool, m) ?? pool;
    return text;
  });
}

/** The env's observe. */
export function observeState(state: CountdownState, viewer: Viewer): CountdownObservation {
  const { cfg } = state;
  const seat = typeof viewer === 'number' ? viewer : null;
  const role = seat !== null ? (cfg.seats[seat] ?? null) : null;
  const omni = viewer === 'omniscient';
  const done = state.phase === 'done';
  const obs: CountdownObservation = {
    rules: cfg.rules,
    roles: cfg.roles,
    answerTag: cfg.answerTag,
    seat,
    role,
    phase: state.phase,
    contract: cfg.contract,
    attempts: cfg.attempts,
    attemptsDone: state.results.length,
    numbers: state.numbers,
    target: state.target,
  };
  if (state.phase === 'propose') obs.draft = state.draft;
  if (state.phase === 'solve' && (role === 'solver' || omni)) {
    obs.pool = poolView(state);
    obs.moves = movesView(state);
  }
  if (state.phase === 'evaluate' || done) obs.answers = state.results.map((r) => r.answer);
  if ((state.phase === 'evaluate' && (role === 'evaluator' || omni)) || done) obs.predictions = state.predictions;
  if (omni || done) {
    obs.results = state.results;
    if (state.verdict) obs.verdict = state.verdict;
  }
  if (done) obs.returns = episodeReturns(state);
  if (seat !== null && actingSeats(state).includes(seat)) obs.legal = legalIndices(state);
  return obs;
}
