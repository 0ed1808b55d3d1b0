/**
 * Comparing a kernel's outputs with the reference's: torch.allclose semantics
 * (|a − e| ≤ atol + rtol·|e| elementwise) with NaN handling (a NaN matches only a NaN; an
 * infinity only the same infinity), a byte hash to recognise an earlier result handed back
 * again, and the precision check (float32 outputs whose mantissas look like float16).
 */
import type { KernelArray } from '../../../src/core/sandbox';
import type { Tolerance } from '../tasks/task';

/** The first element that failed, for reports. */
export interface FirstMismatch {
  output: string;
  index: number;
  /** Numbers, or "NaN" / "Infinity" / "-Infinity" (JSON has no such numbers). */
  actual: number | string;
  expected: number | string;
}

/** What comparing one call's outputs found. */
export interface Comparison {
  ok: boolean;
  /** Elements outside the tolerance, over every output. */
  mismatches: number;
  total: number;
  /** Largest |actual − expected| over finite pairs (0 when none). */
  maxAbsError: number;
  first?: FirstMismatch;
}

/** A number as JSON can hold it. */
export function jsonNumber(x: number): number | string {
  return Number.isFinite(x) ? x : String(x);
}

const abs = Math.abs;

/** allclose of one output; `into` accumulates the counts. */
function compareOne(name: string, actual: KernelArray, expected: KernelArray, tol: Tolerance, into: Comparison): void {
  const n = expected.length;
  into.total += n;
  for (let i = 0; i < n; i++) {
    const a = actual[i];
    const e = expected[i];
    let good: boolean;
    if (e !== e) good = a !== a;
    else if (e === Infinity || e === -Infinity) good = a === e;
    else if (a !== a || a === Infinity || a === -Infinity) good = false;
    else {
      const d = abs(a - e);
      if (d > into.maxAbsError) into.maxAbsError = d;
      good = d <= tol.atol + tol.rtol * abs(e);
    }
    if (!good) {
      into.mismatches++;
      into.first ??= { output: name, index: i, actual: jsonNumber(a), expected: jsonNumber(e) };
    }
  }
}

/**
 * allclose over the named outputs (same lengths assumed: the lab checked dtypes and lengths).
 * `names` fixes the order in which outputs are compared (the first mismatch is reported).
 */
export function compareOutputs(names: readonly string[], actual: Readonly<Record<string, KernelArray>>, expected: Readonly<Record<string, KernelArray>>, tol: Tolerance): Comparison {
  const out: Comparison = { ok: true, mismatches: 0, total: 0, maxAbsError: 0 };
  for (const name of names) {
    const a = actual[name];
    const e = expected[name];
    if (!a || !e || a.length !== e.length) {
      out.mismatches += e ? e.length : 1;
      out.total += e ? e.length : 1;
      out.first ??= { output: name, index: -1, actual: a ? a.length : 'missing', expected: e ? e.length : 'missing' };
      continue;
    }
    compareOne(name, a, e, tol, out);
  }
  out.ok = out.mismatches === 0;
  return out;
}

/** FNV-1a over the bytes of the named outputs: equal results (bit for bit) hash equal. */
export function outputsHash(names: readonly string[], outputs: Readonly<Record<string, KernelArray>>): string {
  let h = 0x811c9dc5;
  for (const name of names) {
    const t = outputs[name];
    if (!t) continue;
    const words = new Uint32Array(t.buffer, t.byteOffset, t.length);
    h ^= t.length;
    h = Math.imul(h, 0x01000193);
    for (let i = 0; i < words.length; i++) {
      h ^= words[i];
      h = Math.imul(h, 0x01000193);
    }
  }
  return (h >>> 0).toString(16);
}

/** Low mantissa bits that are zero in every float16-representable float32 (23 − 10). */
const F16_LOW_BITS = 0x1fff;

/** Counts of float32 values whose low 13 mantissa bits are all zero (float16-like), over non-zero finite values. */
export interface PrecisionCount {
  values: number;
  short: number;
}

/** Adds the float16-like share of a float32 array to `into`. */
export function countShortMantissas(t: Float32Array, into: PrecisionCount): void {
  const bits = new Uint32Array(t.buffer, t.byteOffset, t.length);
  for (let i = 0; i < t.length; i++) {
    const v = t[i];
    if (v === 0 || v !== v || v === Infinity || v === -Infinity) continue;
    into.values++;
    if ((bits[i] & F16_LOW_BITS) === 0) into.short++;
  }
}

/** Fewest non-zero values before the precision check says anything. */
export const PRECISION_MIN_VALUES = 64;

/**
 * Whether the candidate's float32 outputs carry less precision than float32: at least 64 values,
 * ≥ 90% of them float16-like while the reference's are < 50% (random float32 results are
 * float16-like with probability 2⁻¹³, so a correct float32 kernel is never flagged).
 */
export function lowerPrecision(candidate: PrecisionCount, reference: PrecisionCount): boolean {
  if (candidate.values < PRECISION_MIN_VALUES || reference.values < PRECISION_MIN_VALUES) return false;
  return candidate.short / candidate.values >= 0.9 && reference.short / reference.values < 0.5;
}
