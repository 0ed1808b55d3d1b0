/**
 * Exact solver for the "all numbers, real division" rule sets (tinyzero, reasoning-gym): every
 * number is used exactly once, + − × ÷ over the rationals (negative and zero intermediates
 * allowed, never division by zero). Arithmetic is exact (see rational.ts); the scorers compare
 * floats within 1e-5 / 1e-6, which agrees with exact equality for these integer puzzles.
 *
 * Same meet-in-the-middle scheme as the UK solver: explicit value sets for subsets of at most
 * three numbers, backward search ("which value must the rest produce?") above that, failures
 * memoized per puzzle. Values are bounded: from numbers t₁..tₖ every reachable value has
 * |numerator| and denominator at most ∏ 2·max(|tᵢ|) / 2, which prunes the backward search and
 * keeps every product a safe integer for up to 6 numbers of at most 100 (or pool values made
 * from them).
 */
import { distinctLeaves, treeText, type Tree } from './infix';
import { q, qAdd, qDiv, qMul, qSub, qText, type Q } from './rational';

/** What the all-numbers solver reports. */
export interface RationalSolution {
  /** Whether an expression using every number exactly once equals the target. */
  reachable: boolean;
  /** One such expression, or null. */
  expression: string | null;
  /** The expression as a tree over number indices, or null. */
  tree: Tree | null;
  /** Search effort: backward queries plus forward combinations. */
  nodes: number;
}

interface Entry {
  v: Q;
  t: Tree;
}

const EXPLICIT = 3;

function popcount(m: number): number {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
}

/** Solves one puzzle (1 to 6 numbers, rationals allowed); exact and exhaustive. */
export function solveAllNumbers(numbers: readonly (Q | number)[], target: Q | number): RationalSolution {
  const tiles: Q[] = numbers.map((x) => (typeof x === 'number' ? q(x) : q(x[0], x[1]))).map((x) => {
    if (!x) throw new RangeError('solveAllNumbers: numbers must be finite rationals');
    return x;
  });
  const goal = typeof target === 'number' ? q(target) : q(target[0], target[1]);
  if (!goal) throw new RangeError('solveAllNumbers: target must be a finite rational');
  const n = tiles.length;
  if (n < 1 || n > 6) throw new RangeError(`solveAllNumbers: 1..6 numbers, got ${n}`);
  const full = (1 << n) - 1;
  const keys = tiles.map(qText);
  let nodes = 0;

  // canonical masks (equal numbers are interchangeable) and value bounds
  const canon = new Int32Array(full + 1);
  const bound = new Float64Array(full + 1);
  for (let m = 1; m <= full; m++) {
    let c = 0;
    let b = 1;
    for (let i = 0; i < n; i++) {
      if (!(m & (1 << i))) continue;
      b *= 2 * Math.max(Math.abs(tiles[i][0]), tiles[i][1], 1);
      let j = 0;
      while (keys[j] !== keys[i] || c & (1 << j)) j++;
      c |= 1 << j;
    }
    canon[m] = c;
    bound[m] = b / 2;
  }
  const splits: number[][] = [];
  for (let m = 1; m <= full; m++) {
    const out: number[] = [];
    const low = m & -m;
    const pm = popcount(m);
    for (let s = (m - 1) & m; s > 0; s = (s - 1) & m) {
      const k = popcount(s);
      if (2 * k > pm || (2 * k === pm && !(s & low)) || canon[s] !== s) continue;
      // S must take the lowest indices (within m) of each repeated number
      let ok = true;
      for (let i = 0; i < n && ok; i++) {
        if (!(s & (1 << i))) continue;
        for (let j = 0; j < i; j++) if (m & (1 << j) && !(s & (1 << j)) && keys[j] === keys[i]) ok = false;
      }
      if (ok) out.push(s);
    }
    splits[m] = out.sort((a, b) => popcount(a) - popcount(b) || a - b);
  }

  // forward: explicit value sets for canonical masks of at most EXPLICIT numbers
  const sets = new Map<number, Map<string, Entry>>();
  const order = Array.from({ length: full }, (_, i) => i + 1).sort((a, b) => popcount(a) - popcount(b) || a - b);
  for (const m of order) {
    if (canon[m] !== m || popcount(m) > EXPLICIT) continue;
    const set = new Map<string, Entry>();
    const put = (v: Q | null, t: Tree) => {
      if (!v) return;
      const k = qText(v);
      if (!set.has(k)) set.set(k, { v, t });
    };
    if (popcount(m) === 1) put(tiles[31 - Math.clz32(m)], 31 - Math.clz32(m));
    for (const s of splits[m]) {
      for (const a of sets.get(s)!.values()) {
        for (const b of sets.get(canon[m ^ s])!.values()) {
          nodes++;
          put(qAdd(a.v, b.v), ['+', a.t, b.t]);
          put(qSub(a.v, b.v), ['-', a.t, b.t]);
          put(qSub(b.v, a.v), ['-', b.t, a.t]);
          put(qMul(a.v, b.v), ['*', a.t, b.t]);
          put(qDiv(a.v, b.v), ['/', a.t, b.t]);
          put(qDiv(b.v, a.v), ['/', b.t, a.t]);
        }
      }
    }
    sets.set(m, set);
  }

  /** Any expression over exactly mask m, nonzero when `nonzero` and some number of m is nonzero. */
  const fold = (m: number, nonzero: boolean): Entry | null => {
    let acc: Entry | null = null;
    for (let i = 0; i < n; i++) {
      if (!(m & (1 << i))) continue;
      const t = tiles[i];
      if (!acc) acc = { v: t, t: i };
      else {
        const sum = qAdd(acc.v, t);
        const useSub = nonzero && sum !== null && sum[0] === 0;
        const v: Q | null = useSub ? qSub(acc.v, t) : sum;
        if (!v) return null;
        acc = { v, t: [useSub ? '-' : '+', acc.t, i] };
      }
    }
    return acc && (!nonzero || acc.v[0] !== 0) ? acc : null;
  };

  const failed = new Set<string>();
  const reach = (x: Q, m: number): Tree | null => {
    nodes++;
    if (popcount(m) <= EXPLICIT) return sets.get(m)!.get(qText(x))?.t ?? null;
    if ((x[0] < 0 ? -x[0] : x[0]) > bound[m] || x[1] > bound[m]) return null;
    const memo = `${qText(x)}@${m}`;
    if (failed.has(memo)) return null;
    const zero = x[0] === 0;
    for (const s of splits[m]) {
      const c = canon[m ^ s];
      for (const { v, t } of sets.get(s)!.values()) {
        let r: Tree | null;
        let y: Q | null;
        if ((y = qSub(x, v)) && (r = reach(y, c))) return ['+', t, r];
        if ((y = qSub(v, x)) && (r = reach(y, c))) return ['-', t, r];
        if ((y = qAdd(x, v)) && (r = reach(y, c))) return ['-', r, t];
        if (v[0] !== 0) {
          if ((y = qDiv(x, v)) && (r = reach(y, c))) return ['*', t, r];
          if (!zero && (y = qDiv(v, x)) && (r = reach(y, c))) return ['/', t, r];
          if ((y = qMul(x, v)) && (r = reach(y, c))) return ['/', r, t];
        } else if (zero) {
          // 0 × anything = 0; 0 ÷ (anything nonzero) = 0
          const any = fold(c, false);
          if (any) return ['*', t, any.t];
          const nz = fold(c, true);
          if (nz) return ['/', t, nz.t];
        }
      }
    }
    failed.add(memo);
    return null;
  };

  const found = reach(goal, full);
  if (!found) return { reachable: false, expression: null, tree: null, nodes };
  const tree = distinctLeaves(found, (i) => keys[i], n);
  return { reachable: true, expression: treeText(tree, (i) => keys[i]), tree, nodes };
}

