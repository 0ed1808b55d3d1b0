/**
 * Bargaining instances: a pool of three item types and each player's private per-item values.
 *
 * Constraints (Lewis et al. 2017, Sec. 2.2; OpenSpiel's bargaining_instance_generator.cc):
 * pool counts 1..7 per type with 5..7 items in all; values 0..10 per item; each player's value of
 * the whole pool is exactly 10; no item type is worthless to both; at least one type is valued by both.
 */
import type { Rng } from '../../src/core/rng';
import { BARGAINING_INSTANCES_1000 } from './data/instances';
import { countsKey, NUM_ITEM_TYPES, POOL_MAX_ITEMS, TOTAL_VALUE } from './offers';

/** Fewest items in a generated pool (OpenSpiel kPoolMinNumItems). */
export const POOL_MIN_ITEMS = 5;

/**
 * One negotiation: `pool[i]` items of type i; `values[p][i]` is player p's value of one item of
 * type i. `line` is the OpenSpiel text form; `index` the position in the default set, or null.
 * Instances live inside State and are shared between states: never mutate one.
 */
export interface Instance {
  pool: number[];
  values: number[][];
  line: string;
  index: number | null;
}

/** The OpenSpiel line `pool p0values p1values`, e.g. "1,2,3 8,1,0 4,0,2". */
export function formatLine(pool: readonly number[], values: readonly (readonly number[])[]): string {
  return `${pool.join(',')} ${values[0].join(',')} ${values[1].join(',')}`;
}

/** Value-vector constraints between the two players: none worthless to both, one valued by both. */
export function compatibleValues(v0: readonly number[], v1: readonly number[]): boolean {
  let both = false;
  for (let i = 0; i < NUM_ITEM_TYPES; i++) {
    if (v0[i] === 0 && v1[i] === 0) return false;
    if (v0[i] > 0 && v1[i] > 0) both = true;
  }
  return both;
}

/** Why (pool, values) break the game's constraints, or null when they are a valid instance. */
export function instanceProblem(pool: readonly number[], values: readonly (readonly number[])[]): string | null {
  let items = 0;
  for (const n of pool) {
    if (!Number.isInteger(n) || n < 1 || n > POOL_MAX_ITEMS) return `pool counts must be integers 1..${POOL_MAX_ITEMS}`;
    items += n;
  }
  if (items < POOL_MIN_ITEMS || items > POOL_MAX_ITEMS) return `the pool must hold ${POOL_MIN_ITEMS}..${POOL_MAX_ITEMS} items in all (has ${items})`;
  for (let p = 0; p < 2; p++) {
    for (const v of values[p]) if (!Number.isInteger(v) || v < 0 || v > TOTAL_VALUE) return `values must be integers 0..${TOTAL_VALUE}`;
    let total = 0;
    for (let i = 0; i < NUM_ITEM_TYPES; i++) total += pool[i] * values[p][i];
    if (total !== TOTAL_VALUE) return `player ${p}'s values must total ${TOTAL_VALUE} over the pool (got ${total})`;
  }
  if (!compatibleValues(values[0], values[1])) return 'every item type must be valued by someone, and one type by both players';
  return null;
}

/** Parses an OpenSpiel line; returns the instance or a message saying what is wrong. */
export function parseInstanceLine(line: string, index: number | null = null): Instance | string {
  const m = /^\s*(\d+),(\d+),(\d+)\s+(\d+),(\d+),(\d+)\s+(\d+),(\d+),(\d+)\s*$/.exec(line);
  if (!m) return 'must look like "pool p0values p1values", e.g. "1,2,3 8,1,0 4,0,2"';
  const n = m.slice(1).map(Number);
  const pool = n.slice(0, 3);
  const values = [n.slice(3, 6), n.slice(6, 9)];
  const problem = instanceProblem(pool, values);
  if (problem) return problem;
  return { pool, values, line: formatLine(pool, values), index };
}

function buildDefaults(): readonly Instance[] {
  return BARGAINING_INSTANCES_1000.map((line, i) => {
    const inst = parseInstanceLine(line, i);
    if (typeof inst === 'string') throw new Error(`default instance ${i} "${line}": ${inst}`);
    return inst;
  });
}

/** OpenSpiel's 1,000 default instances (bargaining_instances1000.txt), in file order. */
export const DEFAULT_INSTANCES: readonly Instance[] = buildDefaults();

const VALUE_VECTORS: (readonly (readonly number[])[] | undefined)[] = new Array(512);

/** Every per-item value vector (0..10 each) worth exactly 10 over `pool`; cached per pool. */
export function valueVectors(pool: readonly number[]): readonly (readonly number[])[] {
  const key = countsKey(pool);
  let out = VALUE_VECTORS[key];
  if (!out) {
    const list: number[][] = [];
    for (let a = 0; a <= TOTAL_VALUE; a++) {
      for (let b = 0; b <= TOTAL_VALUE; b++) {
        const rest = TOTAL_VALUE - pool[0] * a - pool[1] * b;
        if (rest >= 0 && rest % pool[2] === 0 && rest / pool[2] <= TOTAL_VALUE) list.push([a, b, rest / pool[2]]);
      }
    }
    VALUE_VECTORS[key] = out = list;
  }
  return out;
}

type Tuple = { pool: number[]; v0: readonly number[]; v1: readonly number[] };
let allValid: Tuple[] | undefined;

/** Every valid (pool, values) tuple: 5,793 of them. Built on first use. */
function validTuples(): Tuple[] {
  if (allValid) return allValid;
  const out: Tuple[] = [];
  for (let c = 1; c <= POOL_MAX_ITEMS; c++) {
    for (let b = 1; b <= POOL_MAX_ITEMS; b++) {
      for (let a = 1; a <= POOL_MAX_ITEMS; a++) {
        const items = a + b + c;
        if (items < POOL_MIN_ITEMS || items > POOL_MAX_ITEMS) continue;
        const pool = [a, b, c];
        const vs = valueVectors(pool);
        for (const v0 of vs) for (const v1 of vs) if (compatibleValues(v0, v1)) out.push({ pool, v0, v1 });
      }
    }
  }
  return (allValid = out);
}

/** Number of distinct valid instances (5,793), or of those outside the default set (4,793). */
export function validInstanceCount(novel = false): number {
  return (novel ? novelTuples() : validTuples()).length;
}

let novel: Tuple[] | undefined;

/** Valid tuples that are not in the default set (4,793): training data disjoint from it. */
function novelTuples(): Tuple[] {
  if (!novel) {
    const taken = new Set(DEFAULT_INSTANCES.map((i) => i.line));
    novel = validTuples().filter((t) => !taken.has(formatLine(t.pool, [t.v0, t.v1])));
  }
  return novel;
}

/**
 * A fresh instance with the generator's constraints. OpenSpiel's generator redraws every uniform
 * component until all constraints hold, which is the uniform distribution over valid tuples;
 * this draws from that distribution directly, with one number from `rng`. With `novel`, only
 * instances outside the default set are drawn (so the default set can serve as held-out data).
 */
export function generateInstance(rng: Rng, novel = false): Instance {
  const tuples = novel ? novelTuples() : validTuples();
  const t = tuples[rng.int(tuples.length)];
  const values = [[...t.v0], [...t.v1]];
  return { pool: [...t.pool], values, line: formatLine(t.pool, values), index: null };
}

/** Copy of `inst` with player `seat`'s values replaced (for privateVariants). */
export function withValues(inst: Instance, seat: number, values: readonly number[]): Instance {
  const all = seat === 0 ? [[...values], inst.values[1]] : [inst.values[0], [...values]];
  return { pool: inst.pool, values: all, line: formatLine(inst.pool, all), index: null };
}
