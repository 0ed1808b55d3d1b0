/**
 * Per-move features of the solver's step actions, for the neural encoder: what each of the 90
 * step actions would produce from the current pool. A policy over the plain pool numbers has to
 * learn arithmetic and equality tests from scratch (an MLP does not: it stalls at a greedy
 * level); these features state, for every move, the facts a person sees at a glance.
 *
 * Per move m (0 … STOP − 1), MOVE_FEATURES numbers at offset + m × MOVE_FEATURES:
 *  0  the move is legal here (both slots occupied, the operation allowed)
 *  1  its result equals the target
 *  2  closeness of its result to the target: 1 / (1 + |result − target|)
 *  3  its result and one other number of the pool make the target with one operation (and,
 *     where every number must be used, those two are all that is left)
 *  4  its result is a whole number
 *  5  its result is a whole number that divides the target
 *  6  its result is below the target
 *
 * Feature 3 looks one operation past the move: it is the arithmetic fact "r and v give t", the
 * same kind of fact as feature 1, computed from the observation alone. The policy still commits
 * to one move per step with no search and no backtracking.
 */
import { PAIRS, SLOTS, STEP_OPS, STOP, operate } from './actions';
import type { Q } from './rational';
import type { Rules } from './scoring';

/** Features per step action. */
export const MOVE_FEATURES = 7;
/** Size of the per-move block. */
export const MOVE_BLOCK = STOP * MOVE_FEATURES;

const OPS = STEP_OPS.length;

const equals = (r: Q, target: number): boolean => r[1] === 1 && r[0] === target;

/** Whether `r` and `v` make `target` with one operation (either order). */
function completes(rules: Rules, r: Q, v: Q, target: number): boolean {
  for (let o = 0; o < OPS; o++) {
    const x = operate(rules, o, r, v);
    if (x && equals(x, target)) return true;
  }
  return false;
}

/**
 * Writes the per-move block for `pool` (one entry per slot, null = empty) and `target` into
 * `out` at `offset`. Entries of illegal moves stay 0; `out` must be zeroed there beforehand.
 */
export function encodeMoves(rules: Rules, pool: readonly (Q | null)[], target: number, out: Float32Array, offset: number): void {
  const allNumbers = rules !== 'uk';
  let size = 0;
  for (let i = 0; i < SLOTS; i++) if (pool[i]) size++;
  for (let p = 0; p < PAIRS.length; p++) {
    const [i, j] = PAIRS[p];
    const a = pool[i];
    const b = pool[j];
    if (!a || !b) continue;
    for (let o = 0; o < OPS; o++) {
      const r = operate(rules, o, a, b);
      if (!r) continue;
      const at = offset + (p * OPS + o) * MOVE_FEATURES;
      out[at] = 1;
      out[at + 1] = equals(r, target) ? 1 : 0;
      out[at + 2] = 1 / (1 + Math.abs(r[0] / r[1] - target));
      const whole = r[1] === 1;
      out[at + 4] = whole ? 1 : 0;
      out[at + 5] = whole && r[0] > 0 && target % r[0] === 0 ? 1 : 0;
      out[at + 6] = r[0] < target * r[1] ? 1 : 0;
      if (allNumbers && size !== 3) continue;
      for (let k = 0; k < SLOTS; k++) {
        const v = pool[k];
        if (k === i || k === j || !v) continue;
        if (completes(rules, r, v, target)) {
          out[at + 3] = 1;
          break;
        }
      }
    }
  }
}
