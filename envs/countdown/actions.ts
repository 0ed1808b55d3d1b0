/**
 * Fixed action indices (answer mode "steps", for neural agents) and the number-pool game tree
 * they drive. The layout never changes within countdown-v1:
 *
 * | indices     | seat       | meaning |
 * |-------------|------------|---------|
 * | 0 … 89      | solver     | pair p (0…14) × operation o (0…5): index 6p + o |
 * | 90          | solver     | stop: the attempt's answer is the pool's closest number |
 * | 91 … 190    | challenger | add the number v (1…100) to the proposal: 90 + v |
 * | 191 … 1189  | challenger | set the target t (1…999), which completes the proposal: 190 + t |
 * | 1190, 1191  | evaluator  | predict the current attempt wrong (1190) or right (1191) |
 *
 * Pairs are slot pairs (i, j), i < j, of the 6 pool slots in lexicographic order (0,1), (0,2),
 * …, (4,5). Operations on a = slot i, b = slot j: 0 a+b, 1 a−b, 2 b−a, 3 a×b, 4 a÷b, 5 b÷a. The
 * result goes into slot i and slot j empties. Under uk rules only positive integer results
 * are legal (a−b needs a > b, a÷b needs b to divide a); under tinyzero / reasoning-gym every
 * operation is legal except division by zero. When one number is left the attempt ends by
 * itself.
 */
import { treeText, type Op, type Tree } from './infix';
import { q, qAdd, qDiv, qMul, qSub, qValue, type Q } from './rational';
import type { Rules } from './scoring';

// Module-level alias: global lookups are slow inside vm contexts (jest), and this sits in hot loops.
const { floor } = Math;

/** Pool slots (the most numbers a puzzle may have). */
export const SLOTS = 6;
/** The 15 slot pairs, in index order. */
export const PAIRS: readonly (readonly [number, number])[] = (() => {
  const out: [number, number][] = [];
  for (let i = 0; i < SLOTS; i++) for (let j = i + 1; j < SLOTS; j++) out.push([i, j]);
  return out;
})();
/** Operations per pair, in index order (a = lower slot, b = higher slot). */
export const STEP_OPS = ['a+b', 'a-b', 'b-a', 'a*b', 'a/b', 'b/a'] as const;
export const STOP = PAIRS.length * STEP_OPS.length;

/** The step index that applies `op` to slots i < j (the inverse of the layout above). */
export function stepIndex(i: number, j: number, op: (typeof STEP_OPS)[number]): number {
  const pair = PAIRS.findIndex(([a, b]) => a === i && b === j);
  if (pair < 0) throw new RangeError(`no slot pair (${i}, ${j}): slots are 0…${SLOTS - 1} with i < j`);
  return pair * STEP_OPS.length + STEP_OPS.indexOf(op);
}
export const NUMBER_BASE = STOP + 1;
/** Largest number a challenger may propose (and a puzzle may hold). */
export const MAX_VALUE = 100;
export const TARGET_BASE = NUMBER_BASE + MAX_VALUE;
/** Largest target. */
export const MAX_TARGET = 999;
export const PREDICT_WRONG = TARGET_BASE + MAX_TARGET;
export const PREDICT_RIGHT = PREDICT_WRONG + 1;
/** Total number of action indices. */
export const NUM_ACTIONS = PREDICT_RIGHT + 1;

/** A pool: 2 × SLOTS numbers, [numerator, denominator] per slot; denominator 0 marks an empty slot. */
export type Pool = readonly number[];

/** The starting pool of a puzzle. */
export function initialPool(numbers: readonly number[]): number[] {
  const pool = new Array<number>(2 * SLOTS).fill(0);
  numbers.forEach((x, i) => {
    pool[2 * i] = x;
    pool[2 * i + 1] = 1;
  });
  return pool;
}

/** Occupied slots of a pool. */
export function poolSize(pool: Pool): number {
  let k = 0;
  for (let i = 0; i < SLOTS; i++) if (pool[2 * i + 1] !== 0) k++;
  return k;
}

/** The value in slot i, or null when empty. */
export function slotValue(pool: Pool, i: number): Q | null {
  return pool[2 * i + 1] === 0 ? null : [pool[2 * i], pool[2 * i + 1]];
}

/** Result of operation `op` (0…5) on a, b under `rules`, or null when illegal. */
export function operate(rules: Rules, op: number, a: Q, b: Q): Q | null {
  if (rules === 'uk') {
    const x = a[0];
    const y = b[0];
    switch (op) {
      case 0:
        return q(x + y);
      case 1:
        return x > y ? q(x - y) : null;
      case 2:
        return y > x ? q(y - x) : null;
      case 3:
        return q(x * y);
      case 4:
        return x % y === 0 ? q(x / y) : null;
      case 5:
        return y % x === 0 ? q(y / x) : null;
    }
    return null;
  }
  switch (op) {
    case 0:
      return qAdd(a, b);
    case 1:
      return qSub(a, b);
    case 2:
      return qSub(b, a);
    case 3:
      return qMul(a, b);
    case 4:
      return qDiv(a, b);
    case 5:
      return qDiv(b, a);
  }
  return null;
}

/** The pool after step index `move` (0…89), or null when the move is illegal there. */
export function applyMove(rules: Rules, pool: Pool, move: number): number[] | null {
  if (!Number.isInteger(move) || move < 0 || move >= STOP) return null;
  const [i, j] = PAIRS[floor(move / STEP_OPS.length)];
  const a = slotValue(pool, i);
  const b = slotValue(pool, j);
  if (!a || !b) return null;
  const r = operate(rules, move % STEP_OPS.length, a, b);
  if (!r) return null;
  const next = pool.slice();
  next[2 * i] = r[0];
  next[2 * i + 1] = r[1];
  next[2 * j] = 0;
  next[2 * j + 1] = 0;
  return next;
}

/** Legal step indices for a pool (stop included while the pool has numbers). */
export function legalMoves(rules: Rules, pool: Pool): number[] {
  const out: number[] = [];
  for (let m = 0; m < STOP; m++) if (applyMove(rules, pool, m)) out.push(m);
  if (poolSize(pool) > 0) out.push(STOP);
  return out;
}

/** Text of a step, e.g. "75 + 25 = 100" (null when illegal). */
export function moveText(rules: Rules, pool: Pool, move: number): string | null {
  if (move === STOP) return 'stop';
  const next = applyMove(rules, pool, move);
  if (!next) return null;
  const [i, j] = PAIRS[floor(move / STEP_OPS.length)];
  const show = (x: Q) => (x[1] === 1 ? String(x[0]) : `${x[0]}/${x[1]}`);
  const a = show(slotValue(pool, i)!);
  const b = show(slotValue(pool, j)!);
  const op = move % STEP_OPS.length;
  const sym = ['+', '-', '-', '*', '/', '/'][op];
  const [l, r] = op === 2 || op === 5 ? [b, a] : [a, b];
  return `${l} ${sym} ${r} = ${show(slotValue(next, i)!)}`;
}

const TREE_OP: readonly [Op, boolean][] = [
  ['+', false],
  ['-', false],
  ['-', true],
  ['*', false],
  ['/', false],
  ['/', true],
];

/**
 * The answer of a finished step attempt: replays `moves` from the puzzle and returns the text
 * of the chosen slot's expression. The chosen slot is the last one standing, or (several
 * left) the one closest to the target (ties: the lower value, then the lower slot).
 */
export function attemptAnswer(rules: Rules, numbers: readonly number[], target: number, moves: readonly number[]): string {
  let pool: number[] = initialPool(numbers);
  const trees: (Tree | null)[] = numbers.map((_, i) => i);
  for (const m of moves) {
    if (m === STOP) break;
    const next = applyMove(rules, pool, m);
    if (!next) break;
    const [i, j] = PAIRS[floor(m / STEP_OPS.length)];
    const [op, swap] = TREE_OP[m % STEP_OPS.length];
    trees[i] = swap ? [op, trees[j]!, trees[i]!] : [op, trees[i]!, trees[j]!];
    trees[j] = null;
    pool = next;
  }
  let best = -1;
  for (let i = 0; i < numbers.length; i++) {
    const v = slotValue(pool, i);
    if (!v) continue;
    if (best < 0) {
      best = i;
      continue;
    }
    const d = Math.abs(qValue(v) - target);
    const bv = qValue(slotValue(pool, best)!);
    const bd = Math.abs(bv - target);
    if (d < bd || (d === bd && qValue(v) < bv)) best = i;
  }
  return treeText(trees[best]!, (k) => String(numbers[k]));
}
