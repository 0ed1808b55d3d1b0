/**
 * The puzzle contract: what a puzzle may look like — how many numbers, which numbers (the UK
 * tile bag, or a value range with repeats allowed) and the target range. The env's generator
 * draws inside it; a challenger must propose inside it (proposals outside are rejected with a
 * reason). Param `contract` overrides any field of the mode's default.
 */
import type { JsonValue } from '../../src/core/json';
import { MAX_TARGET, MAX_VALUE, SLOTS } from './actions';
import type { Rules } from './scoring';

/** A resolved contract (plain JSON, kept in the state and shown to every seat). */
export interface Contract {
  /** Inclusive range of how many numbers a puzzle has (2…6). */
  count: [number, number];
  /** The tile bag (a multiset: each number at most as often as listed), or null for a range. */
  tiles: number[] | null;
  /** Inclusive range of allowed numbers (the bag's smallest and largest tile when there is one). */
  values: [number, number];
  /** Inclusive target range. */
  target: [number, number];
}

/** The 24 tiles of the television game: two each of 1…10, and 25, 50, 75, 100. */
export const UK_TILES: readonly number[] = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 25, 50, 75, 100];

/** Each mode's default contract. */
export function defaultContract(rules: Rules): Contract {
  switch (rules) {
    case 'uk':
      return { count: [6, 6], tiles: [...UK_TILES], values: [1, 100], target: [100, 999] };
    case 'tinyzero':
      return { count: [3, 4], tiles: null, values: [1, 99], target: [1, 99] };
    case 'reasoning-gym':
      return { count: [4, 6], tiles: null, values: [1, 100], target: [100, 999] };
  }
}

function isInt(x: unknown, lo: number, hi: number): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi;
}

function rangeProblem(field: string, v: JsonValue | undefined, lo: number, hi: number, allowSingle: boolean): string | null {
  if (allowSingle && isInt(v, lo, hi)) return null;
  if (!Array.isArray(v) || v.length !== 2 || !isInt(v[0], lo, hi) || !isInt(v[1], lo, hi) || v[0] > v[1]) {
    return `field "${field}" must be [min, max] with integers ${lo} <= min <= max <= ${hi}${allowSingle ? ' (or one integer)' : ''} (got ${JSON.stringify(v)})`;
  }
  return null;
}

/** Check for the `contract` param: null when valid, else what is wrong (naming the field). */
export function contractProblem(value: JsonValue): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `must be an object like {"count":[4,6],"values":[1,100],"target":[100,999]} (got ${JSON.stringify(value)})`;
  }
  for (const key of Object.keys(value)) {
    if (!['count', 'values', 'target'].includes(key)) return `has unknown field "${key}" (known: count, values, target)`;
  }
  if ('count' in value) {
    const p = rangeProblem('count', value.count, 2, SLOTS, true);
    if (p) return p;
  }
  if ('values' in value && value.values !== 'tiles') {
    const p = rangeProblem('values', value.values, 1, MAX_VALUE, false);
    if (p) return `${p.replace(/\)$/, '')}; or "tiles" for the UK tile bag)`;
  }
  if ('target' in value) {
    const p = rangeProblem('target', value.target, 1, MAX_TARGET, false);
    if (p) return p;
  }
  return null;
}

/** The mode's default contract with the (already validated) `contract` param applied. */
export function resolveContract(rules: Rules, raw: JsonValue | undefined): Contract {
  const c = defaultContract(rules);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return c;
  const pair = (v: JsonValue): [number, number] => (typeof v === 'number' ? [v, v] : [(v as number[])[0], (v as number[])[1]]);
  if (raw.count !== undefined) c.count = pair(raw.count);
  if (raw.values === 'tiles') {
    c.tiles = [...UK_TILES];
    c.values = [1, 100];
  } else if (raw.values !== undefined) {
    c.tiles = null;
    c.values = pair(raw.values);
  }
  if (raw.target !== undefined) c.target = pair(raw.target);
  return c;
}

/** Whether a challenger composing `draft` may add the number `v` next (count, range and bag). */
export function canAdd(c: Contract, draft: readonly number[], v: number): boolean {
  if (draft.length >= c.count[1] || !isInt(v, c.values[0], c.values[1])) return false;
  if (!c.tiles) return true;
  let room = 0;
  for (const t of c.tiles) if (t === v) room++;
  for (const t of draft) if (t === v) room--;
  return room > 0;
}

/** Why the puzzle (numbers, target) breaks the contract, or null when it fits. Never throws. */
export function proposalProblem(c: Contract, numbers: unknown, target: unknown): string | null {
  if (!Array.isArray(numbers)) return `"numbers" must be an array of integers (got ${JSON.stringify(numbers) ?? String(numbers)})`;
  if (numbers.length < c.count[0] || numbers.length > c.count[1]) {
    return `the contract asks for ${c.count[0] === c.count[1] ? c.count[0] : `${c.count[0]} to ${c.count[1]}`} numbers, got ${numbers.length}`;
  }
  for (const x of numbers) {
    if (!isInt(x, c.values[0], c.values[1])) return `number ${JSON.stringify(x)} is outside the contract (integers ${c.values[0]} to ${c.values[1]})`;
  }
  if (c.tiles) {
    const counts = new Map<number, number>();
    for (const x of numbers as number[]) counts.set(x, (counts.get(x) ?? 0) + 1);
    for (const [x, k] of counts) {
      const inBag = c.tiles.filter((t) => t === x).length;
      if (inBag === 0) return `number ${x} is not a tile (tiles: 1-10 twice each, 25, 50, 75, 100)`;
      if (k > inBag) return `number ${x} appears ${k} times but the tile bag has ${inBag === 1 ? 'one' : inBag}`;
    }
  }
  if (!isInt(target, c.target[0], c.target[1])) return `target ${JSON.stringify(target) ?? String(target)} is outside the contract (integers ${c.target[0]} to ${c.target[1]})`;
  return null;
}
