/**
 * The policy/value loss and its exact gradient with respect to the network outputs, in plain
 * JS. The network's last layer has `numActions + 1` outputs per sample: the action logits,
 * then the state value.
 *
 * Loss (mean over the batch of B samples):
 *   L = mean_i pg_i + c_v · mean_i ½(V_i − R_i)² − c_e · mean_i H_i
 *   pg_i = −min(ρ_i A_i, clip(ρ_i, 1 − ε, 1 + ε) A_i),  ρ_i = exp(logπ(a_i) − logπ_old(a_i))
 * where π is the softmax over the legal actions only (masked logits). With one epoch over
 * fresh samples ρ = 1 and pg is plain REINFORCE (−A·logπ), which the group-relative
 * algorithms use.
 *
 * Gradient w.r.t. logit j of sample i (legal j; illegal logits get 0):
 *   (1/B)·[ g_i (1[j = a_i] − p_j) + c_e p_j (log p_j + H_i) ],  g_i = −ρ_i A_i when the
 *   unclipped term is the active one, else 0;  w.r.t. the value: (1/B)·c_v (V_i − R_i).
 */
import { maskedSoftmax } from './masked-policy';

/** A batch of samples laid out flat (sample-major). */
export interface LossBatch {
  size: number;
  numActions: number;
  /** [size × numActions] 1 legal / 0 illegal. */
  masks: Float32Array;
  /** Chosen action index per sample. */
  actions: Int32Array;
  /** log π_old(a) at collection time. */
  oldLogp: Float32Array;
  advantages: Float32Array;
  /** Value targets. */
  returns: Float32Array;
}

/** Loss coefficients. */
export interface LossCoefs {
  clip: number;
  valueCoef: number;
  entropyCoef: number;
}

/** Loss terms and diagnostics of one batch (all means over the batch). */
export interface LossStats {
  loss: number;
  policyLoss: number;
  valueLoss: number;
  entropy: number;
  /** Approximate KL(old ‖ new): mean of (ρ − 1) − log ρ. */
  approxKl: number;
  /** Fraction of samples whose ratio was clipped. */
  clipFraction: number;
}

/**
 * Computes the loss of `outputs` ([size × (numActions + 1)]) on `batch` and writes its
 * gradient w.r.t. the outputs into `grad` (same layout).
 */
export function policyLoss(outputs: ArrayLike<number>, batch: LossBatch, coefs: LossCoefs, grad: Float32Array): LossStats {
  const { size: B, numActions: A } = batch;
  const W = A + 1;
  if (outputs.length < B * W || grad.length < B * W) throw new Error(`policyLoss: expected ${B * W} outputs`);
  const probs = new Float64Array(A);
  const inv = 1 / B;
  let pgSum = 0;
  let vSum = 0;
  let hSum = 0;
  let klSum = 0;
  let clipped = 0;
  for (let i = 0; i < B; i++) {
    const o = i * W;
    const lse = maskedSoftmax(outputs, batch.masks, probs, o, A, i * A);
    const a = batch.actions[i];
    if (batch.masks[i * A + a] <= 0) throw new Error(`policyLoss: sample ${i} took action ${a}, which its mask marks illegal`);
    const logp = outputs[o + a] - lse;
    const ratio = Math.exp(logp - batch.oldLogp[i]);
    const adv = batch.advantages[i];
    const s1 = ratio * adv;
    const clippedRatio = Math.min(Math.max(ratio, 1 - coefs.clip), 1 + coefs.clip);
    const s2 = clippedRatio * adv;
    const active = s1 <= s2; // the unclipped term is the minimum: gradient flows through ρ
    if (!active) clipped++;
    pgSum += -Math.min(s1, s2);
    const g = active ? -ratio * adv : 0;
    klSum += ratio - 1 - Math.log(ratio);
    // log p_j = logit_j − lse (no Math.log per action: the loss's hottest loop)
    let h = 0;
    for (let j = 0; j < A; j++) if (probs[j] > 0) h -= probs[j] * (outputs[o + j] - lse);
    hSum += h;
    for (let j = 0; j < A; j++) {
      const p = probs[j];
      if (p > 0) {
        grad[o + j] = inv * (g * ((j === a ? 1 : 0) - p) + coefs.entropyCoef * p * (outputs[o + j] - lse + h));
      } else grad[o + j] = 0;
    }
    const v = outputs[o + A];
    const diff = v - batch.returns[i];
    vSum += 0.5 * diff * diff;
    grad[o + A] = inv * coefs.valueCoef * diff;
  }
  const policy = pgSum * inv;
  const value = vSum * inv;
  const ent = hSum * inv;
  return {
    loss: policy + coefs.valueCoef * value - coefs.entropyCoef * ent,
    policyLoss: policy,
    valueLoss: value,
    entropy: ent,
    approxKl: klSum * inv,
    clipFraction: clipped * inv,
  };
}
