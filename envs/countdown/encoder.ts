/**
 * Fixed-size encoding of an observation for neural agents, and the identity mapping of action
 * indices (see actions.ts for the layout). Legal indices are in the acting seat's observation
 * (`legal`): the env has no `legalActions` member because the text / JSON form of every action
 * is open. Text / JSON actions have no index (actionIndex -1).
 *
 * Features (ENCODING_SIZE = 60 + MOVE_BLOCK = 690), all finite and roughly in [-10, 10]:
 *  0-3   role one-hot (challenger, solver, evaluator, none)
 *  4-6   rules one-hot (uk, tinyzero, reasoning-gym)
 *  7-10  phase one-hot (propose, solve, evaluate, done)
 *  11    the viewer is to act now
 *  12-13 target / 1000, target known
 *  14-25 six number slots × (present, value / 100): the puzzle, or the challenger's draft
 *  26-43 six pool slots × (present, value / 1000, |value − target| / 1000), clipped to ±10
 *  44-50 contract: count lo/hi / 6, value lo/hi / 100, target lo/hi / 1000, tile bag
 *  51-53 K / 32, attempts done / K, moves in the current attempt / 6
 *  54-58 evaluator, attempt under review: present, judged ok, value / 1000, |value − target| / target, numbers legal
 *  59    fraction of predictions so far that say "right"
 *  60-689 the solver's own attempt: per step action, what it would produce (move-features.ts)
 */
import type { Encoder } from '../../src/core/env';
import { NUM_ACTIONS, SLOTS } from './actions';
import { MOVE_BLOCK, encodeMoves } from './move-features';
import { scoreAnswer } from './scoring';
import type { CountdownAction, CountdownObservation } from './types';

const BASE_SIZE = 60;
export const ENCODING_SIZE = BASE_SIZE + MOVE_BLOCK;

const clip = (x: number) => (x > 10 ? 10 : x < -10 ? -10 : x);
const ROLES = ['challenger', 'solver', 'evaluator'];
const RULES = ['uk', 'tinyzero', 'reasoning-gym'];
const PHASES = ['propose', 'solve', 'evaluate', 'done'];

function encode(o: CountdownObservation, out: Float32Array = new Float32Array(ENCODING_SIZE)): Float32Array {
  const r = o.role ? ROLES.indexOf(o.role) : 3;
  out[r < 0 ? 3 : r] = 1;
  out[4 + RULES.indexOf(o.rules)] = 1;
  out[7 + PHASES.indexOf(o.phase)] = 1;
  out[11] = o.legal ? 1 : 0;
  const target = o.target ?? 0;
  out[12] = target / 1000;
  out[13] = o.target === null ? 0 : 1;
  const shown = o.numbers ?? o.draft ?? [];
  for (let i = 0; i < SLOTS && i < shown.length; i++) {
    out[14 + 2 * i] = 1;
    out[15 + 2 * i] = shown[i] / 100;
  }
  if (o.pool) {
    for (let i = 0; i < SLOTS && i < o.pool.length; i++) {
      const p = o.pool[i];
      if (!p) continue;
      const v = p[0] / p[1];
      out[26 + 3 * i] = 1;
      out[27 + 3 * i] = clip(v / 1000);
      out[28 + 3 * i] = clip(Math.abs(v - target) / 1000);
    }
  }
  const c = o.contract;
  out[44] = c.count[0] / 6;
  out[45] = c.count[1] / 6;
  out[46] = c.values[0] / 100;
  out[47] = c.values[1] / 100;
  out[48] = c.target[0] / 1000;
  out[49] = c.target[1] / 1000;
  out[50] = c.tiles ? 1 : 0;
  out[51] = o.attempts / 32;
  out[52] = o.attempts ? o.attemptsDone / o.attempts : 0;
  out[53] = (o.moves?.length ?? 0) / 6;
  const k = o.predictions?.length ?? 0;
  const answer = o.answers?.[k];
  if (o.phase === 'evaluate' && answer !== undefined && o.numbers && o.target !== null) {
    const judged = scoreAnswer(o.rules, o.numbers, o.target, answer, o.answerTag);
    out[54] = 1;
    out[55] = judged.status === 'ok' ? 1 : 0;
    out[56] = judged.value === null ? 0 : clip(judged.value / 1000);
    out[57] = judged.value === null ? 10 : clip(Math.abs(judged.value - o.target) / Math.max(1, o.target));
    out[58] = judged.status === 'numbers' ? 0 : 1;
  }
  out[59] = k ? (o.predictions ?? []).filter(Boolean).length / k : 0;
  if (o.pool && o.target !== null) encodeMoves(o.rules, o.pool, o.target, out, BASE_SIZE);
  return out;
}

/** The env's encoder. Action indices are the actions themselves (integers 0 … NUM_ACTIONS − 1). */
export const countdownEncoder: Encoder<CountdownObservation, CountdownAction> = {
  size: ENCODING_SIZE,
  numActions: NUM_ACTIONS,
  encode,
  actionIndex: (a) => (typeof a === 'number' && Number.isInteger(a) && a >= 0 && a < NUM_ACTIONS ? a : -1),
  action: (i) => i,
  legal: (o) => (Array.isArray(o.legal) ? o.legal : null),
};
