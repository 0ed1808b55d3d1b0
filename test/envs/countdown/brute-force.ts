// Test-only: an independent brute force for Countdown under UK rules, written separately from
// envs/countdown/solver-uk.ts so the exact solver is checked against something it does not share.
// Hot loops avoid globals (Math): global lookups are slow inside jest's vm context.

/** Independent brute force (uk rules): every pair, every operator, recursively; the best distance. */
export function bruteUk(numbers: readonly number[], target: number): number {
  const pool = numbers.slice();
  let best = Math.min(...pool.map((x) => Math.abs(x - target)));
  const rec = (n: number): boolean => {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = pool[i];
        const b = pool[j];
        pool[j] = pool[n - 1];
        for (const r of [a + b, a * b, a - b, b - a, a % b === 0 ? a / b : 0, b % a === 0 ? b / a : 0]) {
          if (r <= 0) continue;
          const d = r > target ? r - target : target - r;
          if (d < best) best = d;
          pool[i] = r;
          if (best === 0 || (n > 2 && rec(n - 1))) {
            pool[i] = a;
            pool[j] = b;
            return true;
          }
        }
        pool[i] = a;
        pool[j] = b;
      }
    }
    return best === 0;
  };
  rec(pool.length);
  return best;
}

/**
 * Independent count of step sequences (tinyzero rules: every pair, six operations, floats, until
 * one number is left): how many end on the target, of how many (checks step-solutions.ts).
 */
export function bruteStepSequences(xs: number[], target: number): { solving: number; total: number } {
  if (xs.length === 1) return { solving: Math.abs(xs[0] - target) < 1e-9 ? 1 : 0, total: 1 };
  const out = { solving: 0, total: 0 };
  for (let i = 0; i < xs.length; i++)
    for (let j = i + 1; j < xs.length; j++) {
      const [a, b] = [xs[i], xs[j]];
      const results = [a + b, a - b, b - a, a * b, b === 0 ? null : a / b, a === 0 ? null : b / a];
      for (const r of results) {
        if (r === null) continue;
        const rest = xs.filter((_, k) => k !== i && k !== j);
        const sub = bruteStepSequences([r, ...rest], target);
        out.solving += sub.solving;
        out.total += sub.total;
      }
    }
  return out;
}
