/**
 * Action masking: softmax over the legal action indices only. Illegal indices get probability
 * exactly 0 (they are never exponentiated), so sampling can never return one.
 */
import type { Rng } from '../core/rng';

/** Scratch of {@link maskedSoftmax}'s legal indices (grown as needed). */
let scratch = new Int32Array(64);

/** Writes the indices i < n with mask[maskOffset + i] > 0 into `out` (ascending); returns how many. */
export function listLegal(mask: ArrayLike<number>, maskOffset: number, n: number, out: Int32Array): number {
  let count = 0;
  for (let i = 0; i < n; i++) if (mask[maskOffset + i] > 0) out[count++] = i;
  return count;
}

/**
 * The softmax over the `count` legal indices `legal` (ascending) of `logits[offset ..]` into
 * `probs[0 .. n)` (every other entry 0); returns the log-sum-exp over the legal entries. Throws
 * when none is legal.
 */
export function softmaxOver(logits: ArrayLike<number>, offset: number, legal: Int32Array, count: number, probs: Float32Array | Float64Array, n = probs.length): number {
  let max = -Infinity;
  for (let k = 0; k < count; k++) if (logits[offset + legal[k]] > max) max = logits[offset + legal[k]];
  if (max === -Infinity) throw new Error('maskedSoftmax: no legal action in the mask');
  probs.fill(0, 0, n);
  let sum = 0;
  for (let k = 0; k < count; k++) {
    const i = legal[k];
    const e = Math.exp(logits[offset + i] - max);
    probs[i] = e;
    sum += e;
  }
  for (let k = 0; k < count; k++) probs[legal[k]] /= sum;
  return max + Math.log(sum);
}

/**
 * Writes the masked softmax of `logits[offset .. offset + n)` into `probs[0 .. n)` (illegal
 * entries 0) and returns the log-sum-exp over the legal entries. `mask[maskOffset + i]` is 1
 * for legal, 0 for illegal. Throws when no index is legal.
 */
export function maskedSoftmax(
  logits: ArrayLike<number>,
  mask: ArrayLike<number>,
  probs: Float32Array | Float64Array,
  offset = 0,
  n = probs.length,
  maskOffset = 0,
): number {
  if (scratch.length < n) scratch = new Int32Array(n);
  return softmaxOver(logits, offset, scratch, listLegal(mask, maskOffset, n, scratch), probs, n);
}

/**
 * Draws an index from `probs` (only entries with probability > 0 can come out); with `legal`,
 * only its first `count` indices (ascending) are walked, which draws the same index.
 */
export function sampleIndex(probs: ArrayLike<number>, rng: Rng, legal?: Int32Array, count = probs.length): number {
  let r = rng.next();
  let last = -1;
  for (let k = 0; k < count; k++) {
    const i = legal ? legal[k] : k;
    const p = probs[i];
    if (p <= 0) continue;
    last = i;
    r -= p;
    if (r < 0) return i;
  }
  if (last < 0) throw new Error('sampleIndex: every probability is zero');
  return last; // rounding left a sliver: the last legal index
}

/** The most probable legal index (the lowest index on ties); with `legal`, over its first `count` indices only. */
export function greedyIndex(probs: ArrayLike<number>, legal?: Int32Array, count = probs.length): number {
  let best = -1;
  let bestP = 0;
  for (let k = 0; k < count; k++) {
    const i = legal ? legal[k] : k;
    if (probs[i] > bestP) {
      bestP = probs[i];
      best = i;
    }
  }
  if (best < 0) throw new Error('greedyIndex: every probability is zero');
  return best;
}

/** Entropy (nats) of a probability vector. */
export function entropy(probs: ArrayLike<number>): number {
  let h = 0;
  for (let i = 0; i < probs.length; i++) if (probs[i] > 0) h -= probs[i] * Math.log(probs[i]);
  return h;
}

/**
 * Legality mask over an encoder's action indices from the env's legal action list.
 * Actions without an index (actionIndex -1) are left out. Returns how many indices are legal.
 */
export function fillMask(mask: Float32Array, legal: readonly unknown[], actionIndex: (a: unknown) => number): number {
  mask.fill(0);
  let count = 0;
  for (const a of legal) {
    const i = actionIndex(a);
    if (i >= 0 && i < mask.length && mask[i] === 0) {
      mask[i] = 1;
      count++;
    }
  }
  return count;
}
