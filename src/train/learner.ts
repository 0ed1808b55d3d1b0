/**
 * A learner: one policy/value network being trained for a set of roles. Acts through a
 * {@link PolicyModel} (plain JS, shared weights) and updates through a {@link TfMlp} on the
 * chosen tfjs backend with Adam, minibatches and epochs.
 */
import type * as TF from '@tensorflow/tfjs';
import type { Encoder } from '../core/env';
import { Rng } from '../core/rng';
import { JsAdam, TfAdam, type AdamConfig, type AdamState } from './adam';
import type { BackendChoice } from './backend';
import { cloneWeights, type MlpWeights } from './mlp';
import { DEVICE_STATS, devicePolicyLoss, type DeviceBatch } from './device-loss';
import { policyLoss, type LossBatch, type LossCoefs, type LossStats } from './policy-loss';
import { PolicyModel, type PolicyLayout } from './policy-model';
import type { SampleBuffer } from './sample-buffer';
import type { Targets } from './targets';
import { TfMlp, transposeModeFor } from './tf-mlp';

/** Which optimizer implementation: JS loops over Float32Arrays, or tfjs ops on the device. */
export type OptimizerImpl = 'js' | 'tf';

/**
 * The optimizer implementation for a backend: tfjs ops natively (they pay off there) and on
 * backends without synchronous reads (the device update, {@link Learner.updateOnDevice}), JS
 * loops elsewhere.
 */
export function optimizerFor(choice: Pick<BackendChoice, 'tfBackend' | 'syncReads'>): OptimizerImpl {
  return choice.tfBackend === 'tensorflow' || !choice.syncReads ? 'tf' : 'js';
}

/** Hyper-parameters of one update. */
export interface UpdateOptions extends LossCoefs {
  epochs: number;
  minibatchSize: number;
  targetKl: number;
  lr: number;
  /** Seed of the minibatch shuffling. */
  seed: number;
}

/** Diagnostics of one update (means over its minibatches). */
export interface UpdateStats extends LossStats {
  gradNorm: number;
  minibatches: number;
  epochs: number;
  samples: number;
}

/** A network in training. */
export class Learner {
  readonly model: PolicyModel;
  /** Canonical weights (shared with `model`); current after every update. */
  weights: MlpWeights;
  /** Optimizer steps taken. */
  get updates(): number {
    return this.jsAdam ? this.jsAdam.step : this.tfAdam!.step;
  }
  private readonly net: TfMlp;
  private readonly jsAdam?: JsAdam;
  private readonly tfAdam?: TfAdam;
  private readonly tf;
  /** Adam state read back after the last device update (backends without synchronous reads). */
  private deviceState?: AdamState;
  /** Whether {@link update} can run here (tensors readable synchronously). */
  readonly syncReads: boolean;

  constructor(
    readonly id: string,
    readonly layout: PolicyLayout,
    encoder: Encoder<unknown, unknown>,
    weights: MlpWeights,
    backend: BackendChoice,
    adam: AdamConfig,
    impl: OptimizerImpl = optimizerFor(backend),
  ) {
    this.tf = backend.tf;
    this.syncReads = backend.syncReads;
    this.weights = cloneWeights(weights);
    this.model = new PolicyModel(layout, encoder, this.weights);
    this.net = new TfMlp(backend.tf, this.weights, transposeModeFor(backend.tfBackend));
    if (impl === 'js') this.jsAdam = new JsAdam(adam, this.weights.params.map((p) => p.length));
    else this.tfAdam = new TfAdam(backend.tf, adam, this.net.vars);
  }

  /** Optimizer state for checkpoints. */
  optimizerState(): AdamState {
    if (this.jsAdam) return this.jsAdam.state();
    if (!this.syncReads) return this.deviceState ?? { step: 0, m: this.weights.params.map((p) => new Float32Array(p.length)), v: this.weights.params.map((p) => new Float32Array(p.length)) };
    return this.tfAdam!.state();
  }

  /** Restores weights and optimizer state (resume from a checkpoint). */
  restore(weights: MlpWeights, state: AdamState | undefined): void {
    this.weights.params.forEach((p, i) => p.set(weights.params[i]));
    this.net.writeWeights(this.weights);
    if (state) {
      if (this.jsAdam) this.jsAdam.setState(state);
      else this.tfAdam!.setState(state);
      if (!this.syncReads) this.deviceState = { step: state.step, m: state.m.map((x) => x.slice()), v: state.v.map((x) => x.slice()) };
    }
  }

  /**
   * Runs the update over every sample in `buf` with `targets`. Stops at the first minibatch
   * whose loss or gradient is not finite and returns a non-finite `loss` (the caller must not
   * keep these weights: the trainer stops with the last good checkpoint). Needs synchronous
   * reads (see {@link updateOnDevice} for the other backends).
   */
  update(buf: SampleBuffer, targets: Targets, o: UpdateOptions): UpdateStats {
    if (!this.syncReads) throw new Error('Learner.update: this backend cannot read tensors synchronously; use updateOnDevice');
    const run = new UpdateRun(buf.size, o);
    while (run.nextEpoch()) {
      for (const idx of run.minibatches()) {
        const { stats, gradNorm } = this.step(buf, targets, idx, o);
        if (!run.add(stats, gradNorm, idx.length)) return run.failed(stats.loss);
      }
    }
    if (this.tfAdam) {
      const w = this.net.readWeights();
      this.weights.params.forEach((p, i) => p.set(w.params[i]));
    }
    return run.result();
  }

  /**
   * The same update with everything on the device: the loss as tfjs ops (device-loss.ts),
   * tfjs autodiff, Adam as tfjs ops; one asynchronous read per epoch (the stats) and one at the
   * end (weights and Adam state). For backends without synchronous reads (WebGPU) and a
   * candidate on any GPU. Needs the tfjs optimizer (impl "tf"). A non-finite loss or gradient
   * is found at the end of its epoch (the update is then refused as in {@link update}).
   */
  async updateOnDevice(buf: SampleBuffer, targets: Targets, o: UpdateOptions): Promise<UpdateStats> {
    if (!this.tfAdam) throw new Error('Learner.updateOnDevice needs the tfjs optimizer (impl "tf")');
    const tf = this.tf;
    const run = new UpdateRun(buf.size, o);
    while (run.nextEpoch()) {
      const pending: { stats: TF.Tensor1D; size: number }[] = [];
      for (const idx of run.minibatches()) pending.push({ stats: this.deviceStep(buf, targets, idx, o), size: idx.length });
      if (pending.length === 0) continue;
      const all = tf.stack(pending.map((p) => p.stats));
      const values = (await all.data()) as Float32Array;
      all.dispose();
      for (const p of pending) p.stats.dispose();
      const W = DEVICE_STATS.length + 1;
      for (let k = 0; k < pending.length; k++) {
        const v = values.subarray(k * W, (k + 1) * W);
        const stats = Object.fromEntries(DEVICE_STATS.map((name, i) => [name, v[i]])) as unknown as LossStats;
        if (!run.add(stats, v[DEVICE_STATS.length], pending[k].size)) return run.failed(stats.loss);
      }
    }
    const read = await Promise.all(this.net.vars.map((v) => v.data()));
    this.weights.params.forEach((p, i) => p.set(read[i] as Float32Array));
    this.deviceState = await this.tfAdam.stateAsync();
    return run.result();
  }

  /** One device step on the samples `idx`: stats and ‖g‖ as one [7] tensor (the caller disposes it). */
  private deviceStep(buf: SampleBuffer, targets: Targets, idx: Int32Array, o: UpdateOptions): TF.Tensor1D {
    const tf = this.tf;
    const { x, batch } = gather(buf, targets, idx);
    const m = idx.length;
    const A = buf.numActions;
    const xt = tf.tensor2d(x, [m, buf.inputSize], 'float32');
    const dev: DeviceBatch = {
      masks: tf.tensor2d(batch.masks, [m, A], 'float32'),
      actions: tf.tensor1d(batch.actions, 'int32'),
      oldLogp: tf.tensor1d(batch.oldLogp, 'float32'),
      advantages: tf.tensor1d(batch.advantages, 'float32'),
      returns: tf.tensor1d(batch.returns, 'float32'),
    };
    let stats: TF.Tensor1D | undefined;
    const { grads, value } = tf.variableGrads(() => {
      const pass = this.net.forward(xt);
      const r = devicePolicyLoss(tf, this.net.output(pass), dev, o);
      stats = r.stats;
      return r.loss;
    }, this.net.vars);
    const list = this.net.vars.map((v) => grads[v.name]);
    const norm = this.tfAdam!.updateOnDevice(list, o.lr);
    const out = tf.concat([stats!, tf.reshape(norm, [1])]) as TF.Tensor1D;
    tf.dispose([xt, dev.masks, dev.actions, dev.oldLogp, dev.advantages, dev.returns, value, norm, stats!, ...list]);
    return out;
  }

  /** One optimizer step on the samples `idx`. */
  private step(buf: SampleBuffer, targets: Targets, idx: Int32Array, o: UpdateOptions): { stats: LossStats; gradNorm: number } {
    const tf = this.tf;
    const m = idx.length;
    const A = buf.numActions;
    const { x, batch } = gather(buf, targets, idx);
    const xt = tf.tensor2d(x, [m, buf.inputSize], 'float32');
    const pass = this.net.forward(xt);
    const out = this.net.output(pass).dataSync() as Float32Array;
    const grad = new Float32Array(m * (A + 1));
    const stats = policyLoss(out, batch, o, grad);
    const gt = tf.tensor2d(grad, [m, A + 1], 'float32');
    const grads: TF.Tensor[] = this.net.backward(pass, gt);
    this.net.disposeForward(pass);
    xt.dispose();
    gt.dispose();
    let gradNorm: number;
    if (this.jsAdam) {
      const gs = grads.map((g) => g.dataSync() as Float32Array);
      gradNorm = this.jsAdam.update(this.weights.params, gs, o.lr);
      this.net.writeWeights(this.weights);
    } else {
      gradNorm = this.tfAdam!.update(grads, o.lr);
    }
    for (const g of grads) g.dispose();
    return { stats, gradNorm };
  }

  dispose(): void {
    this.net.dispose();
    this.tfAdam?.dispose();
  }
}

/** The inputs and loss batch of the samples `idx` (host arrays). */
function gather(buf: SampleBuffer, targets: Targets, idx: Int32Array): { x: Float32Array; batch: LossBatch } {
  const m = idx.length;
  const inSize = buf.inputSize;
  const A = buf.numActions;
  const x = new Float32Array(m * inSize);
  const batch: LossBatch = {
    size: m,
    numActions: A,
    masks: new Float32Array(m * A),
    actions: new Int32Array(m),
    oldLogp: new Float32Array(m),
    advantages: new Float32Array(m),
    returns: new Float32Array(m),
  };
  for (let r = 0; r < m; r++) {
    const s = idx[r];
    x.set(buf.inputs.subarray(s * inSize, (s + 1) * inSize), r * inSize);
    batch.masks.set(buf.masks.subarray(s * A, (s + 1) * A), r * A);
    batch.actions[r] = buf.actions[s];
    batch.oldLogp[r] = buf.logp[s];
    batch.advantages[r] = targets.advantages[s];
    batch.returns[r] = targets.returns[s];
  }
  return { x, batch };
}

const STAT_KEYS = ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction'] as const;

/** The epochs and minibatches of one update and the weighted means of their stats. */
class UpdateRun {
  private readonly total: UpdateStats;
  private readonly rng: Rng;
  private readonly order: Int32Array;
  private weightSum = 0;
  private epoch = -1;
  private epochKl = 0;
  private epochN = 0;

  constructor(
    private readonly n: number,
    private readonly o: UpdateOptions,
  ) {
    this.total = { loss: 0, policyLoss: 0, valueLoss: 0, entropy: 0, approxKl: 0, clipFraction: 0, gradNorm: 0, minibatches: 0, epochs: 0, samples: n };
    this.rng = Rng.fromSeed(o.seed);
    this.order = Int32Array.from({ length: n }, (_, i) => i);
  }

  /** Closes the current epoch; whether another one runs (epochs left, KL below the limit). Shuffles for it. */
  nextEpoch(): boolean {
    if (this.n === 0) return false;
    if (this.epoch >= 0) {
      this.total.epochs++;
      if (this.o.targetKl > 0 && this.epochKl / this.epochN > 1.5 * this.o.targetKl) return false;
    }
    if (++this.epoch >= this.o.epochs) return false;
    const { order, rng } = this;
    for (let i = this.n - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    this.epochKl = 0;
    this.epochN = 0;
    return true;
  }

  /** The current epoch's minibatches (sample index lists). */
  *minibatches(): Generator<Int32Array> {
    for (let start = 0; start < this.n; start += this.o.minibatchSize) yield this.order.subarray(start, Math.min(this.n, start + this.o.minibatchSize));
  }

  /** Adds a minibatch's stats; false when they are not finite (stop: {@link failed}). */
  add(stats: LossStats, gradNorm: number, w: number): boolean {
    if (!Number.isFinite(stats.loss) || !Number.isFinite(gradNorm)) return false;
    this.weightSum += w;
    for (const k of STAT_KEYS) this.total[k] += stats[k] * w;
    this.total.gradNorm += gradNorm * w;
    this.total.minibatches++;
    this.epochKl += stats.approxKl * w;
    this.epochN += w;
    return true;
  }

  /** The stats of a refused update: a non-finite loss. */
  failed(loss: number): UpdateStats {
    return { ...this.total, loss: Number.isFinite(loss) ? NaN : loss };
  }

  /** The means over every minibatch. */
  result(): UpdateStats {
    if (this.weightSum > 0) for (const k of [...STAT_KEYS, 'gradNorm'] as const) this.total[k] /= this.weightSum;
    return this.total;
  }
}
