/**
 * Exact rational numbers for the "real division" rule sets (tinyzero, reasoning-gym): a pair
 * [numerator, denominator] of safe integers, denominator > 0, reduced. Plain JSON, so pools of
 * the step actions can live in the env state.
 *
 * Every operation returns null when a result would leave the safe-integer range (never a
 * silently rounded value) or divides by zero.
 */

/** [numerator, denominator], denominator > 0, gcd 1. */
export type Q = readonly [number, number];

// Module-level alias: global lookups are slow inside vm contexts (jest), and these sit in hot loops.
const { isSafeInteger } = Number;

function gcd(a: number, b: number): number {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/** n/d reduced, or null when d is 0 or a part is not a safe integer. */
export function q(n: number, d = 1): Q | null {
  if (d === 0 || !isSafeInteger(n) || !isSafeInteger(d)) return null;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  if (n === 0) return [0, 1];
  const g = gcd(n, d);
  return g === 1 ? [n, d] : [n / g, d / g];
}

function safeMul(a: number, b: number): number {
  const p = a * b;
  return isSafeInteger(p) ? p : NaN;
}

/** a + b */
export function qAdd(a: Q, b: Q): Q | null {
  if (a[1] === 1 && b[1] === 1) return q(a[0] + b[0]);
  return q(safeMul(a[0], b[1]) + safeMul(b[0], a[1]), safeMul(a[1], b[1]));
}

/** a − b */
export function qSub(a: Q, b: Q): Q | null {
  if (a[1] === 1 && b[1] === 1) return q(a[0] - b[0]);
  return q(safeMul(a[0], b[1]) - safeMul(b[0], a[1]), safeMul(a[1], b[1]));
}

/** a × b */
export function qMul(a: Q, b: Q): Q | null {
  return q(safeMul(a[0], b[0]), safeMul(a[1], b[1]));
}

/** a ÷ b (null when b is 0) */
export function qDiv(a: Q, b: Q): Q | null {
  if (b[0] === 0) return null;
  return q(safeMul(a[0], b[1]), safeMul(a[1], b[0]));
}

/** A string key (the text "n" or "n/d"). */
export function qText(a: Q): string {
  return a[1] === 1 ? String(a[0]) : `${a[0]}/${a[1]}`;
}

/** The value as a float. */
export function qValue(a: Q): number {
  return a[0] / a[1];
}
