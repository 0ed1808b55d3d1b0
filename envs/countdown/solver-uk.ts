/**
 * Exact Countdown solver under the UK television rules: + − × ÷ on up to 6 tiles, each tile at
 * most once, every intermediate result a positive integer (division exact), not every tile
 * needed.
 *
 * Method (meet in the middle over tile subsets):
 * 1. Forward: for every subset of at most {@link EXPLICIT} tiles, the set of values that uses
 *    exactly those tiles, kept in one open-addressing hash table keyed by (value, subset).
 * 2. Backward: "is x reachable from exactly the tiles M" for larger M splits M into a small
 *    side S (explicit) and the rest C, and for every value s of S asks whether the value C must
 *    produce (x − s, s − x, x + s, x / s, s / x, x · s) is reachable from C — a hash lookup, or
 *    the same question one level down.
 * 3. Subsets are tried smallest first, so the expression found uses the fewest tiles.
 * When the target is unreachable, targets at distance 1, 2, ... are tried up to
 * {@link NEAR_LIMIT}; beyond that every subset's values are enumerated forward.
 *
 * Pruning that keeps exactness: multiplying or dividing by a value 1 is never tried (the same
 * value is reachable from fewer tiles, and every subset is queried), duplicate tiles are
 * handled once (subsets are canonicalized by value), and a subset cannot exceed the product of
 * max(tile, 2) over its tiles.
 *
 * Not reentrant (module-level tables, reused between calls for speed); JavaScript is single
 * threaded, so that is safe.
 */
import { distinctLeaves, treeText, type Op, type Tree } from './infix';

// Module-level aliases: global lookups are slow inside vm contexts (jest), and these sit in hot loops.
const { imul, clz32 } = Math;

/** What the solver reports for one puzzle. */
export interface UkSolution {
  /** Whether the target itself is reachable. */
  reachable: boolean;
  /** The reachable value closest to the target (the target when reachable; ties: the lower value). */
  value: number;
  /** |value − target|. */
  distance: number;
  /** One expression attaining `value` (fewest tiles among those the search found first). */
  expression: string;
  /** The same expression as a tree over tile indices (each index used at most once). */
  tree: Tree;
  /** Tiles the expression uses. */
  tiles: number;
  /** Search effort: subset queries (backward calls, lookups and forward combinations). */
  nodes: number;
}

/** Largest number of tiles supported. */
export const MAX_TILES = 6;
/** Subsets up to this size get explicit value sets. */
const EXPLICIT = 3;
/** Near misses tried by backward search before enumerating everything forward. */
const NEAR_LIMIT = 10;

const SUBSETS = 1 << MAX_TILES;
const POP = new Int8Array(SUBSETS);
for (let m = 1; m < SUBSETS; m++) POP[m] = POP[m >> 1] + (m & 1);

/** Subsets of each mask by popcount, smallest first (for n tiles: masks < 2^n). */
const BY_SIZE: number[] = Array.from({ length: SUBSETS - 1 }, (_, i) => i + 1).sort((a, b) => POP[a] - POP[b] || a - b);

/** For every mask M: the submasks S used as the small side of a split (|S| <= |M|/2; on a tie S holds M's lowest bit). */
const RAW_SPLITS: Int32Array[] = Array.from({ length: SUBSETS }, (_, m) => {
  const out: number[] = [];
  const low = m & -m;
  for (let s = (m - 1) & m; s > 0; s = (s - 1) & m) {
    const k = POP[s];
    if (2 * k > POP[m] || (2 * k === POP[m] && !(s & low))) continue;
    out.push(s);
  }
  return Int32Array.from(out.sort((a, b) => POP[a] - POP[b] || a - b));
});

// ---- one hash table for (value, mask) pairs, cleared in O(1) by a generation stamp ----
const CAP_BITS = 20;
const CAP = 1 << CAP_BITS;
const HMASK = CAP - 1;
const hVal = new Float64Array(CAP);
const hSet = new Int8Array(CAP);
const hGen = new Int32Array(CAP);
let gen = 0;

// ---- value lists: the values of mask M are values[start[M] .. start[M] + count[M]) ----
let values = new Float64Array(1 << 16);
let used = 0;
const start = new Int32Array(SUBSETS);
const count = new Int32Array(SUBSETS);

// ---- per-puzzle tables ----
const tiles = new Float64Array(MAX_TILES);
let n = 0;
const canon = new Int32Array(SUBSETS);
const bound = new Float64Array(SUBSETS);
const dupPrev = new Int32Array(MAX_TILES);
let hasDup = false;
let explicitUpTo = EXPLICIT;
let nodes = 0;
const splitCache: Int32Array[] = new Array<Int32Array>(SUBSETS);
const splitGen = new Int32Array(SUBSETS);

function slot(v: number, m: number): number {
  let h = imul((v >>> 0) ^ imul(m + 1, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  return h & HMASK;
}

// failed backward queries (value, mask) of this puzzle: shared by the target and near-miss searches
const fVal = new Float64Array(CAP);
const fSet = new Int8Array(CAP);
const fGen = new Int32Array(CAP);

function failedBefore(v: number, m: number): boolean {
  let i = slot(v, m);
  while (fGen[i] === gen) {
    if (fVal[i] === v && fSet[i] === m) return true;
    i = (i + 1) & HMASK;
  }
  return false;
}

function recordFailure(v: number, m: number): void {
  let i = slot(v, m);
  while (fGen[i] === gen) i = (i + 1) & HMASK;
  fGen[i] = gen;
  fVal[i] = v;
  fSet[i] = m;
}

function has(v: number, m: number): boolean {
  let i = slot(v, m);
  while (hGen[i] === gen) {
    if (hVal[i] === v && hSet[i] === m) return true;
    i = (i + 1) & HMASK;
  }
  return false;
}

function add(v: number, m: number): void {
  let i = slot(v, m);
  while (hGen[i] === gen) {
    if (hVal[i] === v && hSet[i] === m) return;
    i = (i + 1) & HMASK;
  }
  if (used >= values.length) {
    const bigger = new Float64Array(values.length * 2);
    bigger.set(values);
    values = bigger;
  }
  hGen[i] = gen;
  hVal[i] = v;
  hSet[i] = m;
  values[used++] = v;
}

/** Splits of M without duplicate-tile repeats (S takes the lowest indices of equal tiles). */
function splitsOf(m: number): Int32Array {
  if (!hasDup) return RAW_SPLITS[m];
  if (splitGen[m] === gen) return splitCache[m];
  const raw = RAW_SPLITS[m];
  const out: number[] = [];
  for (let k = 0; k < raw.length; k++) {
    const s = raw[k];
    let ok = true;
    for (let b = s; b && ok; b &= b - 1) {
      const j = 31 - clz32(b & -b);
      if (dupPrev[j] & m & ~s) ok = false;
    }
    if (ok) out.push(s);
  }
  splitGen[m] = gen;
  return (splitCache[m] = Int32Array.from(out));
}

function setup(numbers: readonly number[]): void {
  n = numbers.length;
  if (++gen >= 0x7fffffff) {
    gen = 1;
    hGen.fill(0);
    fGen.fill(0);
    splitGen.fill(0);
  }
  used = 0;
  nodes = 0;
  hasDup = false;
  for (let i = 0; i < n; i++) {
    tiles[i] = numbers[i];
    dupPrev[i] = 0;
    for (let j = 0; j < i; j++) if (numbers[j] === numbers[i]) dupPrev[i] |= 1 << j;
    if (dupPrev[i]) hasDup = true;
  }
  const full = (1 << n) - 1;
  for (let m = 1; m <= full; m++) {
    let c = 0;
    let b = 1;
    for (let i = 0; i < n; i++) b *= m & (1 << i) ? Math.max(tiles[i], 2) : 1;
    bound[m] = b;
    // canonical mask: for each tile in m, use the lowest free index holding the same value
    for (let i = 0; i < n; i++) {
      if (!(m & (1 << i))) continue;
      let j = 0;
      while (tiles[j] !== tiles[i] || c & (1 << j)) j++;
      c |= 1 << j;
    }
    canon[m] = c;
    count[m] = 0;
  }
}

/** Forward: the value set of canonical mask m from its splits. */
function build(m: number): void {
  start[m] = used;
  if (POP[m] === 1) {
    add(tiles[31 - clz32(m)], m);
  } else {
    const splits = splitsOf(m);
    for (let k = 0; k < splits.length; k++) {
      const a = splits[k];
      const b = canon[m ^ a];
      const a0 = start[a];
      const a1 = a0 + count[a];
      const b0 = start[b];
      const b1 = b0 + count[b];
      for (let i = a0; i < a1; i++) {
        const x = values[i];
        for (let j = b0; j < b1; j++) {
          const y = values[j];
          nodes++;
          add(x + y, m);
          if (x > y) add(x - y, m);
          else if (y > x) add(y - x, m);
          if (x !== 1 && y !== 1) {
            add(x * y, m);
            if (x % y === 0) add(x / y, m);
            else if (y % x === 0) add(y / x, m);
          }
        }
      }
    }
  }
  count[m] = used - start[m];
}

/** Is x reachable using exactly the tiles of canonical mask m? */
function reach(x: number, m: number): boolean {
  nodes++;
  if (POP[m] <= explicitUpTo) return has(x, m);
  if (x > bound[m]) return false;
  if (failedBefore(x, m)) return false;
  const splits = splitsOf(m);
  for (let k = 0; k < splits.length; k++) {
    const s = splits[k];
    const c = canon[m ^ s];
    const end = start[s] + count[s];
    for (let i = start[s]; i < end; i++) {
      const v = values[i];
      if (x > v ? reach(x - v, c) : v > x && reach(v - x, c)) return true;
      if (reach(x + v, c)) return true;
      if (v !== 1) {
        if (x !== v && x % v === 0 && reach(x / v, c)) return true;
        if (reach(x * v, c)) return true;
        if (v > x && v % x === 0 && reach(v / x, c)) return true;
      }
    }
  }
  recordFailure(x, m);
  return false;
}

/** An expression tree for x from exactly the tiles of canonical mask m (x must be reachable). */
function explain(x: number, m: number): Tree {
  if (POP[m] === 1) return 31 - clz32(m);
  const pair = (op: Op, a: number, am: number, b: number, bm: number): Tree => {
    // commutative operators: larger operand first, for readability
    if ((op === '+' || op === '*') && b > a) return [op, explain(b, bm), explain(a, am)];
    return [op, explain(a, am), explain(b, bm)];
  };
  const splits = RAW_SPLITS[m];
  for (let k = 0; k < splits.length; k++) {
    const s = splits[k];
    const sc = canon[s];
    const c = canon[m ^ s];
    const end = start[sc] + count[sc];
    for (let i = start[sc]; i < end; i++) {
      const v = values[i];
      if (x > v && reach(x - v, c)) return pair('+', v, sc, x - v, c);
      if (v > x && reach(v - x, c)) return pair('-', v, sc, v - x, c);
      if (reach(x + v, c)) return pair('-', x + v, c, v, sc);
      if (v !== 1) {
        if (x !== v && x % v === 0 && reach(x / v, c)) return pair('*', v, sc, x / v, c);
        if (reach(x * v, c)) return pair('/', x * v, c, v, sc);
        if (v > x && v % x === 0 && reach(v / x, c)) return pair('/', v, sc, v / x, c);
      }
    }
  }
  throw new Error(`countdown solver: no expression for ${x} from mask ${m} (internal error)`);
}

/** The smallest canonical mask reaching x, or 0. */
function firstMask(x: number): number {
  const full = (1 << n) - 1;
  for (let k = 0; k < BY_SIZE.length; k++) {
    const m = BY_SIZE[k];
    if (m > full || canon[m] !== m) continue;
    if (reach(x, m)) return m;
  }
  return 0;
}

function solution(value: number, target: number, m: number): UkSolution {
  const tree = distinctLeaves(explain(value, m), (i) => String(tiles[i]), n);
  return {
    reachable: value === target,
    value,
    distance: Math.abs(value - target),
    expression: treeText(tree, (i) => String(tiles[i])),
    tree,
    tiles: POP[m],
    nodes,
  };
}

/**
 * Solves one puzzle: is `target` reachable from `numbers` (1 to 6 positive integers), the
 * closest reachable value and one expression for it, and the search effort. Throws on input
 * outside that domain (callers validate first).
 */
export function solveUk(numbers: readonly number[], target: number): UkSolution {
  if (numbers.length < 1 || numbers.length > MAX_TILES) throw new RangeError(`solveUk: 1..${MAX_TILES} numbers, got ${numbers.length}`);
  for (const x of numbers) if (!Number.isSafeInteger(x) || x < 1) throw new RangeError(`solveUk: numbers must be positive integers, got ${x}`);
  if (!Number.isSafeInteger(target) || target < 1) throw new RangeError(`solveUk: target must be a positive integer, got ${target}`);
  setup(numbers);
  explicitUpTo = Math.min(EXPLICIT, n);
  const full = (1 << n) - 1;
  for (let k = 0; k < BY_SIZE.length; k++) {
    const m = BY_SIZE[k];
    if (m <= full && canon[m] === m && POP[m] <= explicitUpTo) build(m);
  }
  let m = firstMask(target);
  if (m) return solution(target, target, m);
  for (let d = 1; d <= NEAR_LIMIT; d++) {
    if (target - d >= 1 && (m = firstMask(target - d))) return solution(target - d, target, m);
    if ((m = firstMask(target + d))) return solution(target + d, target, m);
  }
  // Far from everything: enumerate all values forward and take the nearest.
  for (let k = 0; k < BY_SIZE.length; k++) {
    const mm = BY_SIZE[k];
    if (mm <= full && canon[mm] === mm && POP[mm] > explicitUpTo) build(mm);
  }
  explicitUpTo = n;
  let best = -1;
  let bestMask = 0;
  for (let k = 0; k < BY_SIZE.length; k++) {
    const mm = BY_SIZE[k];
    if (mm > full || canon[mm] !== mm) continue;
    for (let i = start[mm], end = i + count[mm]; i < end; i++) {
      const v = values[i];
      const dv = Math.abs(v - target);
      const db = Math.abs(best - target);
      if (best < 0 || dv < db || (dv === db && v < best)) {
        best = v;
        bestMask = mm;
      }
    }
  }
  return solution(best, target, bestMask);
}
