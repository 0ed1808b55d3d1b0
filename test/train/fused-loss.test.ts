/**
 * The fused module's PPO loss (assembly/fused-mlp.ts `loss`, four units at a time with an f64x2
 * exponential) against the JS reference policyLoss (src/train/policy-loss.ts), on numbers of
 * actions that are and are not multiples of four, sparse and dense masks, logits far enough
 * apart that exponentials underflow, and clipped samples.
 *
 * The gradient w.r.t. the outputs is read through a network without hidden layers whose input
 * rows are one-hot: row i's outputs are W[i, :] exactly, and the weight gradient's row i is the
 * loss gradient of row i exactly.
 */
import { Rng } from '../../src/core/rng';
import { FusedNet } from '../../src/train/fused/fused-net';
import type { MlpWeights } from '../../src/train/mlp';
import { policyLoss, type LossCoefs } from '../../src/train/policy-loss';

const coefs: LossCoefs = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.05 };

function problem(A: number, rows: number, seed: number, spread: number) {
  const rng = Rng.fromSeed(seed);
  const W = A + 1;
  const outputs = new Float32Array(rows * W);
  const masks = new Float32Array(rows * A);
  const actions = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const dense = i % 2 === 0;
    for (let j = 0; j < A; j++) masks[i * A + j] = j === i % A || rng.next() < (dense ? 0.9 : 0.3) ? 1 : 0;
    let a = rng.int(A);
    while (!masks[i * A + a]) a = rng.int(A);
    actions[i] = a;
    // a few other logits far below the rest: their exponentials underflow to 0 (probability exactly 0)
    for (let j = 0; j <= A; j++) outputs[i * W + j] = (rng.next() * 2 - 1) * spread - (j < A && j !== a && rng.next() < 0.1 ? 900 : 0);
  }
  const oldLogp = Float32Array.from({ length: rows }, () => -Math.log(A) + (rng.next() - 0.5) * 1.5);
  const advantages = Float32Array.from({ length: rows }, () => rng.next() * 2 - 1);
  const returns = Float32Array.from({ length: rows }, () => rng.next() * 2);
  return { outputs, batch: { size: rows, numActions: A, masks, actions, oldLogp, advantages, returns } };
}

describe('fused PPO loss against policyLoss', () => {
  test.each([
    [1, 5, 3],
    [3, 7, 3],
    [4, 8, 3],
    [5, 9, 6],
    [13, 11, 3],
    [16, 6, 0.01],
    [365, 9, 4],
  ])('%i actions, %i rows, logits ±%f: loss terms and the gradient w.r.t. every output', (A, rows, spread) => {
    const { outputs, batch } = problem(A, rows, 11 + A, spread);
    const W = A + 1;
    // no hidden layer, one-hot inputs: outputs of row i = W[i, :] (bias 0)
    const weights: MlpWeights = { spec: { inputSize: rows, hidden: [], outputSize: W, activation: 'relu' }, params: [outputs.slice(), new Float32Array(W)] };
    const net = new FusedNet(weights, { training: true, rows });
    const x = new Float32Array(rows * rows);
    for (let i = 0; i < rows; i++) x[i * rows + i] = 1;
    net.loadSamples(rows, x, batch.masks, batch.actions, batch.oldLogp, batch.advantages, batch.returns, rows);
    net.setOrder(Int32Array.from({ length: rows }, (_, i) => i));
    const got = net.lossGrad(0, rows, coefs);
    const refGrad = new Float32Array(rows * W);
    const ref = policyLoss(outputs, batch, coefs, refGrad);
    for (const k of ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction'] as const) {
      expect(Number.isFinite(ref[k])).toBe(true);
      expect([k, Math.abs(got[k] - ref[k]) <= 1e-12 * Math.max(1, Math.abs(ref[k]))]).toEqual([k, true]);
    }
    if (A > 1) expect(got.clipFraction).toBeGreaterThan(0);
    const grad = net.readGradients()[0];
    expect(grad.length).toBe(rows * W);
    let zeros = 0;
    for (let k = 0; k < grad.length; k++) {
      // f32 stores of f64 values summed in a different order: equal to within one f32 rounding
      expect([k, Math.abs(grad[k] - refGrad[k]) <= 2 ** -22 * Math.abs(refGrad[k]) + 1e-30]).toEqual([k, true]);
      if (refGrad[k] === 0) {
        zeros++;
        expect(grad[k]).toBe(0);
      }
    }
    expect(zeros).toBeGreaterThan(0); // illegal and underflowed actions are in the check
  });
});
