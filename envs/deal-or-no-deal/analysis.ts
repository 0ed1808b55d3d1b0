/**
 * Per-instance analysis of all possible splits: each seat's score, the Pareto frontier, the best
 * joint welfare and the Nash bargaining split. Used by episode summaries and the nash-oracle.
 * Results are cached per instance line (at most 5,793 valid instances exist).
 */
import type { Instance } from './instance';
import { legalIds, OFFERS, restOf, valueOf } from './offers';

/** Every split of one instance, indexed by the offer id seat 0 keeps. */
export interface InstanceAnalysis {
  /** Offer ids seat 0 can keep (every split of the pool), in id order. */
  splits: readonly number[];
  /** score[id] = [seat 0's value of keeping `id`, seat 1's value of the rest] (undiscounted). */
  score: ReadonlyMap<number, readonly [number, number]>;
  /** Splits (seat 0's kept id) that no other split Pareto-dominates. */
  pareto: ReadonlySet<number>;
  /** Highest joint score (own_0 + own_1) of any split. */
  maxJoint: number;
}

const CACHE = new Map<string, InstanceAnalysis>();

/** The analysis of `inst` (cached). */
export function analyze(inst: Instance): InstanceAnalysis {
  const hit = CACHE.get(inst.line);
  if (hit) return hit;
  const splits = legalIds(inst.pool, false);
  const score = new Map<number, readonly [number, number]>();
  let maxJoint = 0;
  for (const id of splits) {
    const s: readonly [number, number] = [valueOf(inst.values[0], OFFERS[id]), valueOf(inst.values[1], restOf(inst.pool, OFFERS[id]))];
    score.set(id, s);
    maxJoint = Math.max(maxJoint, s[0] + s[1]);
  }
  const pareto = new Set<number>();
  for (const id of splits) {
    const [a, b] = score.get(id)!;
    let dominated = false;
    for (const other of splits) {
      const [c, d] = score.get(other)!;
      if (c >= a && d >= b && (c > a || d > b)) {
        dominated = true;
        break;
      }
    }
    if (!dominated) pareto.add(id);
  }
  const result: InstanceAnalysis = { splits, score, pareto, maxJoint };
  CACHE.set(inst.line, result);
  return result;
}

/** Whether the split giving seat 0 `share0` (item counts) is Pareto-optimal for `inst`. */
export function isParetoOptimal(inst: Instance, share0: readonly number[]): boolean {
  const a = analyze(inst);
  for (const id of a.pareto) {
    const o = OFFERS[id];
    if (o[0] === share0[0] && o[1] === share0[1] && o[2] === share0[2]) return true;
  }
  return false;
}

/**
 * The Nash bargaining split (disagreement point 0, 0) under the coop objective: maximize
 * u_0 * u_1 with u_i = own_i + alpha * other_i over splits where both u_i >= 0. At alpha = 0 this
 * is the classic Nash product of own scores; at alpha = 1 the joint-welfare maximum; at alpha = -1
 * an equal split. When no split has both u_i >= 0, the split maximizing min(u_0, u_1). Ties:
 * larger u_0 + u_1, then more equal own scores, then the smaller offer id. Returns the offer id
 * seat 0 keeps.
 */
export function nashSplit(inst: Instance, alpha: number): number {
  const a = analyze(inst);
  let best = -1;
  let bestKey: number[] = [];
  for (const id of a.splits) {
    const [s0, s1] = a.score.get(id)!;
    const u0 = s0 + alpha * s1;
    const u1 = s1 + alpha * s0;
    const feasible = u0 >= 0 && u1 >= 0;
    const key = [feasible ? 1 : 0, feasible ? u0 * u1 : Math.min(u0, u1), u0 + u1, -Math.abs(s0 - s1)];
    if (best < 0 || greater(key, bestKey)) {
      best = id;
      bestKey = key;
    }
  }
  return best;
}

function greater(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (Math.abs(a[i] - b[i]) > 1e-9) return a[i] > b[i];
  }
  return false;
}
