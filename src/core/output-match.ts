/** How a program's output is compared with a test's expected value. */
import { BIGINT_KEY, isBigIntTag, scanJson, type BigIntTag } from './exact-json';
import type { JsonValue } from './json';

/**
 * Relative tolerance for floats (and absolute near zero): floating-point answers compare equal.
 * Applies only when the expected value is not an integer; integers compare exactly.
 */
export const NUMBER_TOLERANCE = 1e-9;

/** A number or a big integer's tag, as canonical digits when it is an integer (else null). */
function integerOf(v: number | BigIntTag): string | null {
  if (typeof v !== 'number') return v[BIGINT_KEY];
  // a double's digits: at most 309, cheap; -0 is "0"
  return Number.isInteger(v) ? BigInt(v).toString() : null;
}

/**
 * Numbers (or big integers' tags): an integral expected value is matched exactly (an integer
 * answer off by one is wrong however large it is; 3.0 equals 3); otherwise within
 * {@link NUMBER_TOLERANCE} relative.
 */
function numbersMatch(actual: number | BigIntTag, expected: number | BigIntTag): boolean {
  const want = integerOf(expected);
  if (want !== null) return integerOf(actual) === want;
  const a = typeof actual === 'number' ? actual : Number(actual[BIGINT_KEY]);
  const b = expected as number;
  if (Object.is(a, b)) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= NUMBER_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

const numeric = (v: unknown): v is number | BigIntTag => typeof v === 'number' || isBigIntTag(v);

/**
 * How integers beyond 2^53 are read: `exact` (Python: a big integer is itself, compared digit
 * for digit), or `double` (JavaScript: every number is a double, so a big integer's tag means
 * the double its digits name, as the literal would in JavaScript).
 */
export type IntegerSemantics = 'exact' | 'double';

/** The integer semantics of a program language. */
export function integerSemantics(language: 'js' | 'python'): IntegerSemantics {
  return language === 'js' ? 'double' : 'exact';
}

const asDouble = (v: number | BigIntTag): number => (typeof v === 'number' ? v : Number(v[BIGINT_KEY]));

/**
 * How deeply a JSON text nests arrays and objects (strings skipped), so that a host never parses
 * or re-serializes output deeper than it can (JSON.parse and JSON.stringify recurse).
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  scanJson(text, (i, c) => {
    if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
    return i;
  });
  return max;
}

/** Deepest output nesting accepted from a program (deeper output is a runtime error). */
export const MAX_OUTPUT_DEPTH = 200;

/**
 * Deep equality of JSON values: arrays element by element, objects by key set (order ignored),
 * integers exactly (big integers as their `$bigint` tags, see exact-json.ts, read as `integers`
 * says), other numbers within {@link NUMBER_TOLERANCE}, everything else exactly (a boolean is not
 * a number). `undefined` (a function that returned nothing) equals nothing.
 */
export function outputMatches(actual: JsonValue | undefined, expected: JsonValue, integers: IntegerSemantics = 'exact'): boolean {
  if (actual === undefined) return false;
  if (numeric(actual) && numeric(expected)) return integers === 'exact' ? numbersMatch(actual, expected) : numbersMatch(asDouble(actual), asDouble(expected));
  if (actual === null || expected === null || typeof actual !== 'object' || typeof expected !== 'object') return actual === expected;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  if (Array.isArray(actual)) {
    const e = expected as JsonValue[];
    return actual.length === e.length && actual.every((x, i) => outputMatches(x, e[i], integers));
  }
  const a = actual as { [k: string]: JsonValue };
  const e = expected as { [k: string]: JsonValue };
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(e).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(e, k) && outputMatches(a[k], e[k], integers));
}
