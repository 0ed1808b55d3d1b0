/**
 * Edit distance between two strings and the nearest of a list of names: the one helper behind
 * every "did you mean ...?" hint (unknown config keys, unknown options).
 */

/**
 * Optimal-string-alignment distance (Damerau–Levenshtein without repeated edits of one
 * substring): the fewest insertions, deletions, substitutions and swaps of two adjacent
 * characters that turn `a` into `b`. Case-sensitive; counts UTF-16 code units.
 * `editDistance('bugdet', 'budget')` is 1 (one swap), `editDistance('', 'abc')` is 3.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  // three rows of the dynamic-programming table: i-2, i-1, i
  let twoBack = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, twoBack[j - 2] + 1);
      cur[j] = d;
    }
    [twoBack, prev, cur] = [prev, cur, twoBack];
  }
  return prev[b.length];
}

/** Length of the common prefix of two strings. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The candidate nearest to `word` (case-insensitive edit distance), or null when none is near
 * enough: at most `max` edits (default: a third of the longer word, at least 1, at most 3, so a
 * hint never suggests an unrelated name; `Infinity` always names the nearest). Ties go to the
 * candidate sharing the longer prefix with `word` (typos rarely change the first letters), then
 * to the earlier one.
 */
export function nearestName(word: string, candidates: Iterable<string>, max?: number): string | null {
  const w = word.toLowerCase();
  let best: string | null = null;
  let bestD = Infinity;
  let bestP = -1;
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const limit = max ?? Math.min(3, Math.max(1, Math.floor(Math.max(w.length, c.length) / 3)));
    const d = editDistance(w, lc);
    if (d > limit) continue;
    const p = commonPrefix(w, lc);
    if (d < bestD || (d === bestD && p > bestP)) {
      best = c;
      bestD = d;
      bestP = p;
    }
  }
  return best;
}
