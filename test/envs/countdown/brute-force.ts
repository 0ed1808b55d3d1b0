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
