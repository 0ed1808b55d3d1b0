/** How a program's output is compared with a test's expected value. */
import type { JsonValue } from './json';

/** Relative tolerance for numbers (and absolute near zero): floating-point answers compare equal. */
export const NUMBER_TOLERANCE = 1e-9;

function numbersClose(a: number, b: number): boolean {
  if (Object.is(a, b)) return true;
  return Math.abs(a - b) <= NUMBER_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Deep equality of JSON values: arrays element by element, objects by key set (order ignored),
 * numbers within {@link NUMBER_TOLERANCE}, everything else exactly. `undefined` (a function that
 * returned nothing) equals nothing.
 */
export function outputMatches(actual: JsonValue | undefined, expected: JsonValue): boolean {
  if (actual === undefined) return false;
  if (typeof actual === 'number' && typeof expected === 'number') return numbersClose(actual, expected);
  if (actual === null || expected === null || typeof actual !== 'object' || typeof expected !== 'object') return actual === expected;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  if (Array.isArray(actual)) {
    const e = expected as JsonValue[];
    return actual.length === e.length && actual.every((x, i) => outputMatches(x, e[i]));
  }
  const a = actual as { [k: string]: JsonValue };
  const e = expected as { [k: string]: JsonValue };
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(e).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(e, k) && outputMatches(a[k], e[k]));
}
