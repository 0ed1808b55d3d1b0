/**
 * Shared pieces of the countdown-v1 baselines: reading the pool from an observation, turning
 * a solver's expression tree into step indices, greedy play, and drawing solvable puzzles.
 */
import type { Rng } from '../../../src/core/rng';
import { applyMove, attemptAnswer, initialPool, legalMoves, NUMBER_BASE, PAIRS, slotValue, STEP_OPS, stepIndex, STOP, TARGET_BASE } from '../actions';
import { ENV_ID } from '../config';
import type { Contract } from '../contract';
import { generatePuzzle } from '../generator';
import type { Tree } from '../infix';
import { qValue, type Q } from '../rational';
import type { Rules } from '../scoring';
import type { CountdownObservation, Proposal } from '../types';
import { verdictFor } from '../verdict';

/** Env id the baselines play. */
export const COUNTDOWN = ENV_ID;

/** The flat pool of a steps-mode solver observation (the puzzle's start when absent). */
export function poolOf(o: CountdownObservation): number[] {
  const pool = initialPool([]);
  if (!o.pool) return initialPool(o.numbers ?? []);
  o.pool.forEach((v, i) => {
    if (v) {
      pool[2 * i] = v[0];
      pool[2 * i + 1] = v[1];
    }
  });
  return pool;
}

/** Occupied slots of a pool with their values. */
export function slots(pool: readonly number[]): { slot: number; value: Q }[] {
  const out: { slot: number; value: Q }[] = [];
  for (let i = 0; i < pool.length / 2; i++) {
    const v = slotValue(pool, i);
    if (v) out.push({ slot: i, value: v });
  }
  return out;
}

/**
 * The step indices that build `tree` (leaves index `leafSlots`) on the pool, in post-order.
 * Each merge of slots i < j puts its result in slot i.
 */
export function treeMoves(tree: Tree, leafSlots: readonly number[]): number[] {
  const moves: number[] = [];
  const walk = (t: Tree): number => {
    if (typeof t === 'number') return leafSlots[t];
    const [op, left, right] = t;
    const l = walk(left);
    const r = walk(right);
    const [i, j, swapped] = l < r ? [l, r, false] : [r, l, true];
    const code = op === '+' ? 'a+b' : op === '*' ? 'a*b' : op === '-' ? (swapped ? 'b-a' : 'a-b') : swapped ? 'b/a' : 'a/b';
    moves.push(stepIndex(i, j, code));
    return i;
  };
  walk(tree);
  return moves;
}

/**
 * Greedy play from a pool: repeatedly the legal merge whose result is closest to the target
 * (ties: the lowest index). Under uk rules it stops as soon as no merge gets closer than the
 * pool's best number; under the all-numbers rules it merges until one number is left.
 * With `explore`, each step is instead a uniformly random merge with probability epsilon.
 * Returns the moves, ending with STOP when it stopped early.
 */
export function greedyMoves(rules: Rules, pool: readonly number[], target: number, explore?: { rng: Rng; epsilon: number }): number[] {
  const moves: number[] = [];
  let cur = pool.slice();
  const dist = (v: Q) => Math.abs(qValue(v) - target);
  for (;;) {
    const here = slots(cur);
    if (here.length <= 1) return moves;
    const best = Math.min(...here.map((s) => dist(s.value)));
    if (rules === 'uk' && best === 0) return [...moves, STOP];
    if (explore && explore.epsilon > 0 && explore.rng.next() < explore.epsilon) {
      const m = explore.rng.pick(legalMoves(rules, cur).filter((x) => x !== STOP));
      moves.push(m);
      cur = applyMove(rules, cur, m)!;
      continue;
    }
    let pick = -1;
    let pickDist = Infinity;
    let pickPool: number[] | null = null;
    for (const m of legalMoves(rules, cur)) {
      if (m === STOP) continue;
      const next = applyMove(rules, cur, m)!;
      const [i] = PAIRS[Math.floor(m / STEP_OPS.length)];
      const d = dist(slotValue(next, i)!);
      if (d < pickDist) {
        pick = m;
        pickDist = d;
        pickPool = next;
      }
    }
    if (pick < 0 || (rules === 'uk' && pickDist >= best)) return [...moves, STOP];
    moves.push(pick);
    cur = pickPool!;
  }
}

/** The answer text for an expression, wrapped in <answer> tags when the episode asks for them. */
export function wrapAnswer(o: CountdownObservation, expression: string): string {
  return o.answerTag ? `<answer>${expression}</answer>` : expression;
}

/** The greedy expression for the puzzle of an observation (ε-greedy with `explore`). */
export function greedyExpression(o: CountdownObservation, explore?: { rng: Rng; epsilon: number }): string {
  const numbers = o.numbers ?? [];
  return attemptAnswer(o.rules, numbers, o.target ?? 0, greedyMoves(o.rules, initialPool(numbers), o.target ?? 0, explore));
}

/** A candidate puzzle with the exact solver's difficulty measures. */
export interface Candidate extends Proposal {
  /** Solver search effort (nodes). */
  nodes: number;
  /** Numbers the solver's expression uses. */
  tiles: number;
}

/**
 * A random in-contract puzzle that the exact solver can solve (the env's generator, checked;
 * up to `tries` draws, then the last draw even if unsolvable).
 */
export function solvablePuzzle(rules: Rules, contract: Contract, rng: Rng, tries = 50): Candidate {
  let last: Candidate | null = null;
  for (let k = 0; k < tries; k++) {
    const { numbers, target } = generatePuzzle(rules, contract, rng);
    const v = verdictFor(rules, numbers, target);
    last = { numbers, target, nodes: v.nodes, tiles: v.tiles ?? numbers.length };
    if (v.reachable) return last;
  }
  return last!;
}

/** Which action form an agent uses: text / JSON (default) or indices (option `answer: "steps"`). */
export type Form = 'text' | 'steps';

/** The `answer` option declared by the baselines (validated by the registry). */
export const ANSWER_OPTION = { type: 'enum', values: ['text', 'steps'], default: 'text', description: 'action form: text (an expression) or steps (indices)' } as const;

/** The `answer` option of a baseline ("text" or "steps"); throws on anything else. */
export function formOption(name: string, options: Record<string, unknown> | undefined): Form {
  const v = options?.answer ?? 'text';
  if (v !== 'text' && v !== 'steps') throw new Error(`${name}: option "answer" must be "text" or "steps" (got ${JSON.stringify(v)})`);
  return v;
}

/**
 * The next challenger action for a planned puzzle: text form — the proposal itself; steps
 * form — the index adding the next number of the plan, then the target's index.
 */
export function proposalAction(o: CountdownObservation, plan: Proposal, form: Form): Proposal | number {
  if (form === 'text') return { numbers: plan.numbers, target: plan.target };
  const k = o.draft?.length ?? 0;
  return k < plan.numbers.length ? NUMBER_BASE + plan.numbers[k] - 1 : TARGET_BASE + plan.target - 1;
}
