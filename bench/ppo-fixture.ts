/**
 * The PPO update fixture the training benches share: a learner on 64→256→256→16 (+ value), a
 * sample buffer of `batch` seeded random samples with legal-action masks, advantage and return
 * targets, and one-epoch update options over the whole batch.
 */
import type { BackendChoice } from '../src/train/backend';
import { Rng } from '../src/core/rng';
import { Learner, type UpdateOptions } from '../src/train/learner';
import { initMlp } from '../src/train/mlp';
import { SampleBuffer } from '../src/train/sample-buffer';

/** A PPO learner on 64→256→256→16 (+ value) with a batch of `batch` random samples. */
export function ppoSetup(choice: BackendChoice, batch: number, impl: 'js' | 'tf') {
  const IN = 64;
  const OUT = 16;
  const layout = { env: 'bench-v1', roles: ['p'], roleInput: false, obsSize: IN, numActions: OUT };
  const encoder = { size: IN, numActions: OUT, encode: (_o: unknown, out?: Float32Array) => out ?? new Float32Array(IN), actionIndex: () => 0, action: (i: number) => i };
  const learner = new Learner('p', layout, encoder, initMlp({ inputSize: IN, hidden: [256, 256], outputSize: OUT + 1, activation: 'relu' }, 1), choice, { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 }, impl);
  const buf = new SampleBuffer(IN, OUT, batch);
  const rng = Rng.fromSeed(2);
  const x = new Float32Array(IN);
  const mask = new Float32Array(OUT);
  for (let i = 0; i < batch; i++) {
    for (let j = 0; j < IN; j++) x[j] = rng.next() * 2 - 1;
    for (let j = 0; j < OUT; j++) mask[j] = j === 0 || rng.next() < 0.7 ? 1 : 0;
    buf.push(x, mask, 0, -1.5, 0);
  }
  const targets = { advantages: Float32Array.from({ length: batch }, () => rng.next() - 0.5), returns: Float32Array.from({ length: batch }, () => rng.next()) };
  const o: UpdateOptions = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01, epochs: 1, minibatchSize: batch, targetKl: 0, lr: 1e-4, seed: 1 };
  return { learner, buf, targets, o };
}
