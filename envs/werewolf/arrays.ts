/**
 * Small-array helpers for the hot path. V8 makes `concat`, `fill` and `slice` + `push` several
 * times slower than an exactly sized copy, and these run on every step.
 */

/** A new array: `list` followed by `x` (the input is left untouched). */
export function append<T>(list: readonly T[], x: T): T[] {
  const n = list.length;
  const out = new Array<T>(n + 1);
  for (let i = 0; i < n; i++) out[i] = list[i];
  out[n] = x;
  return out;
}

const templates = new Map<number, number[]>();

/** A new array of `n` copies of the small integer `v` (copied from a cached template). */
export function filled(n: number, v: number): number[] {
  const key = n * 64 + (v + 8);
  let t = templates.get(key);
  if (!t) {
    t = [];
    for (let i = 0; i < n; i++) t.push(v);
    templates.set(key, t);
  }
  return t.slice();
}
