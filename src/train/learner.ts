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
import { policyLoss, type LossBatch, type LossCoefs, type LossStats } from './policy-loss';
import { PolicyModel, type PolicyLayout } from './policy-model';
import type { SampleBuffer } from './sample-buffer';
import type { Targets } from './targets';
import { TfMlp, transposeModeFor } from './tf-mlp';

/** Which optimizer implementation: JS loops over Float32Arrays, or tfjs ops on the device. */
export type OptimizerImpl = 'js' | 'tf';

/** The optimizer implementation that is fastest on a backend (tfjs ops only pay off natively). */
export function optimizerFor(choice: BackendChoice): OptimizerImpl {
  return choice.tfBackend === 'tensorflow' ? 'tf' : 'js';
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
    this.weights = cloneWeights(weights);
    this.model = new PolicyModel(layout, encoder, this.weights);
    this.net = new TfMlp(backend.tf, this.weights, transposeModeFor(backend.tfBackend));
    if (impl === 'js') this.jsAdam = new JsAdam(adam, this.weights.params.map((p) => p.length));
    else this.tfAdam = new TfAdam(backend.tf, adam, this.net.vars);
  }

  /** Optimizer state for checkpoints. */
  optimizerState(): AdamState {
    return this.jsAdam ? this.jsAdam.state() : this.tfAdam!.state();
  }

  /** Restores weights and optimizer state (resume from a checkpoint). */
  restore(weights: MlpWeights, state: AdamState | undefined): void {
    this.weights.params.forEach((p, i) => p.set(weights.params[i]));
    this.net.writeWeights(this.weights);
    if (state) {
      if (this.jsAdam) this.jsAdam.setState(state);
      else this.tfAdam!.setState(state);
    }
  }

  /**
   * Runs the update over every sample in `buf` with `targets`. Stops at the first minibatch
   * whose loss or gradient is not finite and returns a non-finite `loss` (the caller must not
   * keep these weights: the trainer stops with the last good checkpoint).
   */
  update(buf: SampleBuffer, targets: Targets, o: UpdateOptions): UpdateStats {
    const n = buf.size;
    const total: UpdateStats = { loss: 0, policyLoss: 0, valueLoss: 0, entropy: 0, approxKl: 0, clipFraction: 0, gradNorm: 0, minibatches: 0, epochs: 0, samples: n };
    if (n === 0) return total;
    const rng = Rng.fromSeed(o.seed);
    const order = Int32Array.from({ length: n }, (_, i) => i);
    let weightSum = 0;
    for (let epoch = 0; epoch < o.epochs; epoch++) {
      for (let i = n - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      let epochKl = 0;
      let epochN = 0;
      for (let start = 0; start < n; start += o.minibatchSize) {
        const idx = order.subarray(start, Math.min(n, start + o.minibatchSize));
        const { stats, gradNorm } = this.step(buf, targets, idx, o);
        if (!Number.isFinite(stats.loss) || !Number.isFinite(gradNorm)) return { ...total, loss: Number.isFinite(stats.loss) ? NaN : stats.loss };
        const w = idx.length;
        weightSum += w;
        for (const k of ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction'] as const) total[k] += stats[k] * w;
        total.gradNorm += gradNorm * w;
        total.minibatches++;
        epochKl += stats.approxKl * w;
        epochN += w;
      }
      total.epochs++;
      if (o.targetKl > 0 && epochKl / epochN > 1.5 * o.targetKl) break;
    }
    for (const k of ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction', 'gradNorm'] as const) total[k] /= weightSum;
    if (this.tfAdam) {
      const w = this.net.readWeights();
      this.weights.params.forEach((p, i) => p.set(w.params[i]));
    }
    return total;
  }

  /** One optimizer step on the samples `idx`. */
  private step(buf: SampleBuffer, targets: Targets, idx: Int32Array, o: UpdateOptions): { stats: LossStats; gradNorm: number } {
    const tf = this.tf;
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
    const xt = tf.tensor2d(x, [m, inSize], 'float32');
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
