/**
 * The PPO update fixture the training benches share: a learner on 64→256→256→16 (+ value), a
 * sample buffer of `batch` seeded random samples with legal-action masks, advantage and return
 * targets, and one-epoch update options over the whole batch. {@link writePeerData} writes the
 * same weights, batch and hyper-parameters for the PyTorch peer (bench/pytorch-update.py).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdamConfig } from '../src/train/adam';
import type { BackendChoice } from '../src/train/backend';
import { Rng } from '../src/core/rng';
import { Learner, type OptimizerImpl, type UpdateOptions } from '../src/train/learner';
import { initMlp, layerSizes, type MlpWeights } from '../src/train/mlp';
import { SampleBuffer } from '../src/train/sample-buffer';
import type { Targets } from '../src/train/targets';

export const PPO_IN = 64;
export const PPO_ACTIONS = 16;
export const PPO_HIDDEN = [256, 256];
export const PPO_ADAM: AdamConfig = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 };

/** The fixture: the learner, its batch, targets, options and the initial weights. */
export interface PpoSetup {
  learner: Learner;
  buf: SampleBuffer;
  targets: Targets;
  o: UpdateOptions;
  weights: MlpWeights;
}

/** The fixture's initial weights (seed 1). */
export function ppoWeights(): MlpWeights {
  return initMlp({ inputSize: PPO_IN, hidden: PPO_HIDDEN, outputSize: PPO_ACTIONS + 1, activation: 'relu' }, 1);
}

/**
 * A PPO learner with a copy of `weights` (outputs: the buffer's actions + value) for one-epoch
 * updates of one minibatch over all of `buf` with `targets`, the fixture's hyper-parameters.
 */
export function setupFrom(weights: MlpWeights, buf: SampleBuffer, targets: Targets, choice: BackendChoice, impl?: OptimizerImpl): PpoSetup {
  const IN = weights.spec.inputSize;
  const OUT = buf.numActions;
  const layout = { env: 'bench-v1', roles: ['p'], roleInput: false, obsSize: IN, numActions: OUT };
  const encoder = { size: IN, numActions: OUT, encode: (_o: unknown, out?: Float32Array) => out ?? new Float32Array(IN), actionIndex: () => 0, action: (i: number) => i };
  const own = { spec: { ...weights.spec, hidden: [...weights.spec.hidden] }, params: weights.params.map((p) => p.slice()) };
  const learner = new Learner('p', layout, encoder, own, choice, PPO_ADAM, impl);
  const o: UpdateOptions = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01, epochs: 1, minibatchSize: buf.size, targetKl: 0, lr: 1e-4, seed: 1 };
  return { learner, buf, targets, o, weights: own };
}

/** A PPO learner on 64→256→256→16 (+ value) with a batch of `batch` random samples. */
export function ppoSetup(choice: BackendChoice, batch: number, impl?: OptimizerImpl): PpoSetup {
  const IN = PPO_IN;
  const OUT = PPO_ACTIONS;
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
  return setupFrom(ppoWeights(), buf, targets, choice, impl);
}

/**
 * Writes the fixture's initial weights, batch and hyper-parameters into `dir` for the PyTorch
 * peer: meta.json and raw little-endian arrays (w{l}.bin as [in, out], b{l}.bin, x, masks,
 * actions (int32), logp, adv, ret).
 */
export function writePeerData(dir: string, s: PpoSetup): void {
  mkdirSync(dir, { recursive: true });
  const bin = (name: string, a: Float32Array | Int32Array) => writeFileSync(join(dir, name), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  const n = s.buf.size;
  s.weights.params.forEach((p, i) => bin(`${i % 2 === 0 ? 'w' : 'b'}${i >> 1}.bin`, p));
  bin('x.bin', s.buf.inputs.subarray(0, n * s.buf.inputSize));
  bin('masks.bin', s.buf.masks.subarray(0, n * s.buf.numActions));
  bin('actions.bin', s.buf.actions.subarray(0, n));
  bin('logp.bin', s.buf.logp.subarray(0, n));
  bin('adv.bin', s.targets.advantages.subarray(0, n));
  bin('ret.bin', s.targets.returns.subarray(0, n));
  const meta = {
    batch: n,
    inputSize: s.buf.inputSize,
    numActions: s.buf.numActions,
    sizes: layerSizes(s.weights.spec),
    clip: s.o.clip,
    valueCoef: s.o.valueCoef,
    entropyCoef: s.o.entropyCoef,
    lr: s.o.lr,
    ...PPO_ADAM,
  };
  writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta));
}
