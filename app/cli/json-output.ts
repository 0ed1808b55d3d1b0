/**
 * How the CLI writes numbers in its JSON outputs (`--json`, JSON lines): every non-integer is
 * written with at most {@link JSON_SIGNIFICANT_DIGITS} significant digits, so the float noise of
 * sums (0.1 + 0.2 = 0.30000000000000004) is written 0.3. Only the output is rounded: the store,
 * the ratings and every computation keep full precision. Integers, NaN and infinities are
 * written as JSON.stringify writes them. docs/numbers.md lists which outputs this covers.
 */

/** Significant digits of a non-integer number in the CLI's JSON outputs. */
export const JSON_SIGNIFICANT_DIGITS = 12;

/** `x` as the CLI's JSON outputs write it (see the module comment). */
export function outputNumber(x: number): number {
  return Number.isInteger(x) || !Number.isFinite(x) ? x : Number(x.toPrecision(JSON_SIGNIFICANT_DIGITS));
}

/** JSON.stringify with the outputs' number precision (every number at any depth). */
export function jsonText(value: unknown, space?: number): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? outputNumber(v) : v), space);
}
