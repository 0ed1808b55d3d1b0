/**
 * The policy/value loss of policy-loss.ts as tfjs ops, for backends where the update stays on
 * the device (WebGPU: no synchronous reads; a GPU generally): tfjs autodiff takes its gradient
 * and the optimizer runs as tfjs ops, so a minibatch needs no read back to JS at all.
 *
 * Same definitions as {@link policyLoss} (masked softmax over the legal actions, clipped
 * surrogate, ½(V − R)², entropy over the legal actions, approximate KL, clip fraction); where
 * ρA equals clip(ρ)A the gradient flows through ρ as there (tf.minimum sends it to its first
 * argument on ties). Checked against the JS path in test/train/device-update.test.ts.
 */
import type * as TF from '@tensorflow/tfjs';
import type { Tf } from './backend';
import type { LossCoefs } from './policy-loss';

/** A minibatch on the device. */
export interface DeviceBatch {
  /** [B, A] 1 legal / 0 illegal. */
  masks: TF.Tensor2D;
  /** [B] int32 chosen action indices. */
  actions: TF.Tensor1D;
  oldLogp: TF.Tensor1D;
  advantages: TF.Tensor1D;
  returns: TF.Tensor1D;
}

/** Order of the values in {@link devicePolicyLoss}'s stats tensor. */
export const DEVICE_STATS = ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction'] as const;

/** Far below any logit: illegal actions get exp(…) = 0. */
const MASKED = 1e9;

/**
 * The loss of network outputs `out` ([B, A + 1]: logits, then V) on `batch`, and its stats as
 * one [6] tensor in {@link DEVICE_STATS} order. Call inside a gradient scope (tf.variableGrads);
 * the stats tensor is kept (tf.keep) for the caller to read and dispose.
 */
export function devicePolicyLoss(tf: Tf, out: TF.Tensor2D, batch: DeviceBatch, coefs: LossCoefs): { loss: TF.Scalar; stats: TF.Tensor1D } {
  const [B, W] = out.shape;
  const A = W - 1;
  const logits = tf.slice(out, [0, 0], [B, A]);
  const value = tf.reshape(tf.slice(out, [0, A], [B, 1]), [B]);
  const masked = tf.add(logits, tf.mul(tf.sub(batch.masks, 1), MASKED));
  const logProbs = tf.logSoftmax(masked);
  const probs = tf.exp(logProbs);
  const logp = tf.sum(tf.mul(logProbs, tf.oneHot(batch.actions, A)), 1);
  const ratio = tf.exp(tf.sub(logp, batch.oldLogp));
  const s1 = tf.mul(ratio, batch.advantages);
  const s2 = tf.mul(tf.clipByValue(ratio, 1 - coefs.clip, 1 + coefs.clip), batch.advantages);
  const policyLoss = tf.neg(tf.mean(tf.minimum(s1, s2)));
  // illegal actions have probability exactly 0 (exp of -1e9), so they add nothing
  const entropy = tf.neg(tf.mean(tf.sum(tf.mul(probs, logProbs), 1)));
  const valueLoss = tf.mean(tf.mul(tf.square(tf.sub(value, batch.returns)), 0.5));
  const loss = tf.sub(tf.add(policyLoss, tf.mul(valueLoss, coefs.valueCoef)), tf.mul(entropy, coefs.entropyCoef)) as TF.Scalar;
  const approxKl = tf.mean(tf.sub(tf.sub(ratio, 1), tf.log(ratio)));
  const clipFraction = tf.mean(tf.cast(tf.greater(s1, s2), 'float32'));
  const stats = tf.keep(tf.stack([loss, policyLoss, valueLoss, entropy, approxKl, clipFraction]) as TF.Tensor1D);
  return { loss, stats };
}
