/**
 * JSON with exact integers. A JavaScript number holds integers exactly only up to 2^53; a
 * Python program's answer (or a task's expected value) may be larger, and rounding it to a
 * double would make 2^60 + 1 equal 2^60. So an integer literal beyond the safe range is read as
 * the tag `{"$bigint": "<decimal digits>"}` — plain JSON, stored, shown and compared exactly —
 * and the sandbox hands it to a Python program as the int itself (to JavaScript as a number).
 */
import type { JsonValue } from './json';

/** The key of a big integer's tag. */
export const BIGINT_KEY = '$bigint';

/** A big integer as JSON: its canonical decimal digits (a sign, no leading zeros). */
export type BigIntTag = { [BIGINT_KEY]: string };

const DIGITS = /^-?[1-9]\d*$/;
const MAX_DIGITS = String(Number.MAX_SAFE_INTEGER);

/**
 * Whether canonical integer digits (`-?[1-9]\d*`) lie beyond ±(2^53 − 1). By length and text, not
 * by BigInt: a program may answer with a million digits, and parsing them costs seconds.
 */
function beyondSafe(digits: string): boolean {
  const abs = digits[0] === '-' ? digits.slice(1) : digits;
  return abs.length > MAX_DIGITS.length || (abs.length === MAX_DIGITS.length && abs > MAX_DIGITS);
}

/** The tag of an integer outside the safe range (a bigint, or canonical digits). */
export function bigIntTag(value: bigint | string): BigIntTag {
  return { [BIGINT_KEY]: typeof value === 'bigint' ? value.toString() : value };
}

/**
 * Whether `v` is a big integer's tag: an object with the one key `$bigint` holding canonical
 * digits of an integer beyond ±(2^53 − 1). Any other object (`{"$bigint": "5"}` included) is
 * just an object.
 */
export function isBigIntTag(v: unknown): v is BigIntTag {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  if (keys.length !== 1 || keys[0] !== BIGINT_KEY) return false;
  const d = (v as Record<string, unknown>)[BIGINT_KEY];
  return typeof d === 'string' && DIGITS.test(d) && beyondSafe(d);
}

/**
 * `v` with every big integer's tag replaced by the nearest number: what a JavaScript program
 * receives (its numbers are doubles). Values without tags come back as they are.
 */
export function bigIntsAsNumbers(v: JsonValue): JsonValue {
  if (v === null || typeof v !== 'object') return v;
  if (isBigIntTag(v)) return Number(v[BIGINT_KEY]);
  if (Array.isArray(v)) return v.map(bigIntsAsNumbers);
  const out: { [k: string]: JsonValue } = {};
  for (const k of Object.keys(v)) out[k] = bigIntsAsNumbers(v[k]);
  return out;
}


/**
 * Calls `visit(i, charCode)` for every character of JSON `text` outside its strings (quotes
 * included as string characters); `visit` answers the index it has read up to.
 */
export function scanJson(text: string, visit: (i: number, c: number) => number): void {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else i = visit(i, c);
  }
}

/**
 * Parses JSON text like JSON.parse (throws SyntaxError on bad text), except that an integer
 * literal outside the safe range becomes its {@link BigIntTag}. A literal with a fraction or an
 * exponent is a float and stays a number.
 */
export function parseJsonExact(text: string): JsonValue {
  // no run of 16 digits: no integer literal can be unsafe
  if (!/\d{16}/.test(text)) return JSON.parse(text) as JsonValue;
  const parts: string[] = [];
  let from = 0;
  scanJson(text, (i, c) => {
    if (c !== 45 && (c < 48 || c > 57)) return i;
    // a number token: -?digits(.digits)?([eE][+-]?digits)?
    let j = i + 1;
    while (j < text.length && /[0-9.eE+-]/.test(text[j])) j++;
    const token = text.slice(i, j);
    if (DIGITS.test(token) && beyondSafe(token)) {
      // a JSON integer literal is already canonical (no leading zero, no plus sign)
      parts.push(text.slice(from, i), JSON.stringify(bigIntTag(token)));
      from = j;
    }
    return j - 1;
  });
  if (!parts.length) return JSON.parse(text) as JsonValue;
  parts.push(text.slice(from));
  return JSON.parse(parts.join('')) as JsonValue;
}
