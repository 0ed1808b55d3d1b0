/**
 * Action validation for every phase and both action forms: `{ok: true}` or a reason. Never throws.
 */
import type { ActionCheck } from '../../src/core/env';
import {
  NUMBER_BASE,
  PAIRS,
  PREDICT_RIGHT,
  PREDICT_WRONG,
  STEP_OPS,
  STOP,
  TARGET_BASE,
  applyMove,
  slotValue,
} from './actions';
import { canAdd, proposalProblem, type Contract } from './contract';
import { answerFormProblem, type Rules } from './scoring';
import type { CountdownState, Proposal } from './types';

/** Longest text answer accepted as an action (characters); the parser judges at most 2000 of the extracted expression. */
export const MAX_TEXT = 20000;

const OK: ActionCheck = { ok: true };
const no = (reason: string): ActionCheck => ({ ok: false, reason });

function show(x: unknown): string {
  try {
    const t = JSON.stringify(x);
    if (t === undefined) return String(x);
    return t.length > 60 ? `${t.slice(0, 57)}...` : t;
  } catch {
    return String(x);
  }
}

/** The reason given for an answer whose form cannot be read: what is wrong, and the form asked for. */
export function unreadable(problem: string, answerTag: boolean): string {
  return `${problem}: answer with one arithmetic expression over the numbers${answerTag ? ' inside <answer></answer>' : ''}, e.g. (100 + 6) * 3, without "=" or the result`;
}

/** Seats to act now. */
export function actingSeats(state: CountdownState): number[] {
  const role = state.phase === 'propose' ? 'challenger' : state.phase === 'solve' ? 'solver' : state.phase === 'evaluate' ? 'evaluator' : null;
  return role ? [state.cfg.seats.indexOf(role)] : [];
}

/** A text-mode proposal from an object or its JSON text, or a reason. */
export function readProposal(action: unknown): Proposal | string {
  let v = action;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return `a proposal must be {"numbers": [...], "target": n} (or its JSON text); got unparsable text ${show(action)}`;
    }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `a proposal must be {"numbers": [...], "target": n}; got ${show(action)}`;
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'numbers' && k !== 'target');
  if (extra.length) return `a proposal has only "numbers" and "target"; unknown field "${extra[0]}"`;
  return { numbers: o.numbers as number[], target: o.target as number };
}

/** Why step index `move` is illegal on `pool` (null when legal). */
export function moveProblem(rules: Rules, pool: readonly number[], move: number): string | null {
  if (move === STOP) return null;
  if (!Number.isInteger(move) || move < 0 || move > STOP) return `${move} is not a solver action (0-${STOP})`;
  if (applyMove(rules, pool, move)) return null;
  const [i, j] = PAIRS[Math.floor(move / STEP_OPS.length)];
  const a = slotValue(pool, i);
  const b = slotValue(pool, j);
  const op = STEP_OPS[move % STEP_OPS.length];
  if (!a || !b) return `move ${move} (${op} on slots ${i} and ${j}): slot ${a ? j : i} is empty`;
  if (rules === 'uk') {
    const [x, y] = op === 'b-a' || op === 'b/a' ? [b[0], a[0]] : [a[0], b[0]];
    return op.includes('-')
      ? `move ${move}: ${x} - ${y} is not a positive integer (uk rules)`
      : `move ${move}: ${x} / ${y} is not exact (uk rules)`;
  }
  return `move ${move} (${op} on slots ${i} and ${j}): division by zero or a result too large`;
}

function challengerIndexProblem(c: Contract, draft: readonly number[], a: number): string | null {
  if (a >= NUMBER_BASE && a < TARGET_BASE) {
    const v = a - NUMBER_BASE + 1;
    if (canAdd(c, draft, v)) return null;
    if (draft.length >= c.count[1]) return `the proposal already has ${draft.length} numbers (the contract allows at most ${c.count[1]}); choose the target`;
    if (v < c.values[0] || v > c.values[1]) return `number ${v} is outside the contract (${c.values[0]} to ${c.values[1]})`;
    return c.tiles?.includes(v) ? `number ${v} cannot be added again: the tile bag has no more` : `number ${v} is not a tile (tiles: 1-10 twice each, 25, 50, 75, 100)`;
  }
  if (a >= TARGET_BASE && a < PREDICT_WRONG) {
    const t = a - TARGET_BASE + 1;
    if (draft.length < c.count[0]) return `add at least ${c.count[0]} numbers before choosing the target (have ${draft.length})`;
    if (t < c.target[0] || t > c.target[1]) return `target ${t} is outside the contract (${c.target[0]} to ${c.target[1]})`;
    return null;
  }
  return `${a} is not a challenger action (${NUMBER_BASE}-${PREDICT_WRONG - 1})`;
}

/** The env's validateAction. Integers are action indices; anything else is the text / JSON form. */
export function validate(state: CountdownState, seat: number, action: unknown): ActionCheck {
  if (!actingSeats(state).includes(seat)) return no(`seat ${show(seat)} is not to act`);
  const { cfg } = state;
  const index = typeof action === 'number' && Number.isInteger(action);
  if (state.phase === 'propose') {
    if (index) {
      const p = challengerIndexProblem(cfg.contract, state.draft, action);
      return p ? no(p) : OK;
    }
    if (state.draft.length) return no(`the proposal is being composed by index (${state.draft.length} numbers so far): continue with an index`);
    const p = readProposal(action);
    if (typeof p === 'string') return no(p);
    const problem = proposalProblem(cfg.contract, p.numbers, p.target);
    return problem ? no(problem) : OK;
  }
  if (state.phase === 'solve') {
    if (index) {
      const p = moveProblem(cfg.rules, state.pool, action);
      return p ? no(p) : OK;
    }
    if (typeof action !== 'string') return no(`an answer must be text (an arithmetic expression) or a step index, got ${show(action)}`);
    if (state.moves.length) return no(`this attempt is being played by steps (${state.moves.length} so far): continue with a step index or ${STOP} to stop`);
    if (action.length > MAX_TEXT) return no(`answer longer than ${MAX_TEXT} characters`);
    // An answer whose form cannot be read is not an attempt: the seat answers again.
    const form = answerFormProblem(action, cfg.answerTag);
    return form ? no(unreadable(form, cfg.answerTag)) : OK;
  }
  if (index) return action === PREDICT_WRONG || action === PREDICT_RIGHT ? OK : no(`${action} is not an evaluator action (${PREDICT_WRONG} wrong, ${PREDICT_RIGHT} right)`);
  return typeof action === 'boolean' ? OK : no(`a prediction must be true (the attempt is correct), false, or an index (${PREDICT_WRONG} wrong, ${PREDICT_RIGHT} right); got ${show(action)}`);
}
