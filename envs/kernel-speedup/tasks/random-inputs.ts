/** Seeded input generators shared by the kernel tasks: uniform values inside a contract range. */
import type { Rng } from '../../../src/core/rng';

/** Smallest positive normal float32; anything smaller (but non-zero) is subnormal. */
const MIN_NORMAL_F32 = 2 ** -126;

// Bound once: global lookups inside hot loops are slow where modules run in a vm context (jest).
const fround = Math.fround;
const floor = Math.floor;

/**
 * `n` float32 values uniform in [lo, hi] (both float32-representable), rounded to float32,
 * clamped into the range and with subnormals flushed to zero (they are outside every contract).
 */
export function uniformF32(n: number, lo: number, hi: number, rng: Rng): Float32Array {
  const out = new Float32Array(n);
  const width = hi - lo;
  for (let i = 0; i < n; i++) {
    let v = fround(lo + width * rng.next());
    if (v > hi) v = hi;
    if (v < lo) v = lo;
    if (v !== 0 && v < MIN_NORMAL_F32 && v > -MIN_NORMAL_F32) v = 0;
    out[i] = v;
  }
  return out;
}

/** An integer uniform in [lo, hi] (inclusive); the same draw as `rng.range(lo, hi)`. */
export function uniformInt(lo: number, hi: number, rng: Rng): number {
  return lo + floor(rng.next() * (hi - lo + 1));
}

/** `n` integers uniform in [lo, hi] (inclusive) as a Uint32Array (lo ≥ 0). */
export function uniformU32(n: number, lo: number, hi: number, rng: Rng): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = uniformInt(lo, hi, rng);
  return out;
}
