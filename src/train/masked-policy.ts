/**
 * Action masking: softmax over the legal action indices only. Illegal indices get probability
 * exactly 0 (they are never exponentiated), so sampling can never return one.
 */
import type { Rng } from '../core/rng';

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
  let max = -Infinity;
  for (let i = 0; i < n; i++) if (mask[maskOffset + i] > 0 && logits[offset + i] > max) max = logits[offset + i];
  if (max === -Infinity) throw new Error('maskedSoftmax: no legal action in the mask');
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (mask[maskOffset + i] > 0) {
      const e = Math.exp(logits[offset + i] - max);
      probs[i] = e;
      sum += e;
    } else probs[i] = 0;
  }
  for (let i = 0; i < n; i++) probs[i] /= sum;
  return max + Math.log(sum);
}

/** Draws an index from `probs` (only entries with probability > 0 can come out). */
export function sampleIndex(probs: ArrayLike<number>, rng: Rng): number {
  const n = probs.length;
  let r = rng.next();
  let last = -1;
  for (let i = 0; i < n; i++) {
    const p = probs[i];
    if (p <= 0) continue;
    last = i;
    r -= p;
    if (r < 0) return i;
  }
  if (last < 0) throw new Error('sampleIndex: every probability is zero');
  return last; // rounding left a sliver: the last legal index
}

/** The most probable legal index (the lowest index on ties). */
export function greedyIndex(probs: ArrayLike<number>): number {
  let best = -1;
  let bestP = 0;
  for (let i = 0; i < probs.length; i++) {
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
