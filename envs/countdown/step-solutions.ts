/**
 * A difficulty measure for step-action solvers: how many of the step sequences that use every
 * number (one pool operation per step, until one number is left) end on the target. Fewer
 * solving sequences = a harder puzzle for a policy that builds its answer step by step; the
 * ratio to all complete sequences is the chance that uniformly random steps solve it.
 *
 * Exhaustive, so meant for small puzzles (4 numbers: at most 6·6 × 3·6 × 6 = 3,888 sequences).
 */
import { STOP, applyMove, initialPool, poolSize, slotValue, type Pool } from './actions';
import type { Rules } from './scoring';

/** Solving and complete step sequences of a puzzle. */
export interface StepSolutions {
  /** Complete sequences (every number used) that end on the target. */
  solving: number;
  /** All complete sequences. */
  total: number;
}

function count(rules: Rules, pool: Pool, target: number, out: StepSolutions): void {
  if (poolSize(pool) === 1) {
    out.total++;
    for (let i = 0; ; i++) {
      const v = slotValue(pool, i);
      if (!v) continue;
      if (v[1] === 1 && v[0] === target) out.solving++;
      return;
    }
  }
  for (let m = 0; m < STOP; m++) {
    const next = applyMove(rules, pool, m);
    if (next) count(rules, next, target, out);
  }
}

/** Counts the step sequences of the puzzle (numbers, target) under `rules`. */
export function stepSolutions(rules: Rules, numbers: readonly number[], target: number): StepSolutions {
  if (numbers.length > 5) throw new RangeError(`stepSolutions is exhaustive: at most 5 numbers, got ${numbers.length}`);
  const out: StepSolutions = { solving: 0, total: 0 };
  if (numbers.length) count(rules, initialPool(numbers), target, out);
  return out;
}
