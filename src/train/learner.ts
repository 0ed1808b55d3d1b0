/**
 * A learner: one policy/value network being trained for a set of roles. Acts through a
 * {@link PolicyModel} and updates with Adam, minibatches and epochs along one of three paths:
 * `fused` — the whole step in the fused WebAssembly SIMD module (fused/: the default on CPU
 * backends, no tfjs at all); `js` / `tf` — a {@link TfMlp} on the chosen tfjs backend with the
 * hand-written backward pass and Adam as JS loops or tfjs ops (the GPU paths).
 */
import type * as TF from '@tensorflow/tfjs';
import type { Encoder } from '../core/env';
import { JsAdam, TfAdam, type AdamConfig, type AdamState } from './adam';
import { FusedNet } from './fused/fused-net';
import { fusedUpdate, type StepCounter } from './fused/fused-update';
import type { UpdateRequest, UpdateResult } from './fused/update-protocol';
import type { BackendChoice } from './backend';
import { cloneWeights, type MlpWeights } from './mlp';
import { DEVICE_STATS, devicePolicyLoss, type DeviceBatch } from './device-loss';
import { policyLoss, type LossStats } from './policy-loss';
import { PolicyModel, type PolicyLayout } from './policy-model';
import type { SampleBuffer } from './sample-buffer';
import type { Targets } from './targets';
import { TfMlp, transposeModeFor } from './tf-mlp';
import { gather, UpdateRun } from './update-run';
import type { UpdateOptions, UpdateStats } from './update-types';

/**
 * Which update implementation: the fused WebAssembly module (forward, loss, backward and Adam in
 * one call per minibatch), or a tfjs network with Adam as JS loops over Float32Arrays (`js`) or
 * as tfjs ops on the device (`tf`).
 */
export type OptimizerImpl = 'fused' | 'js' | 'tf';

/** Backends that compute on the CPU: their default update is the fused module. */
export const CPU_BACKENDS: ReadonlySet<string> = new Set(['wasm', 'cpu', 'tfjs-node']);

/**
 * The tfjs optimizer implementation for a backend's tfjs update: tfjs ops natively (they pay off
 * there) and on backends without synchronous reads (the device update,
 * {@link Learner.updateOnDevice}), JS loops elsewhere.
 */
export function tfOptimizerFor(choice: Pick<BackendChoice, 'tfBackend' | 'syncReads'>): 'js' | 'tf' {
  return choice.tfBackend === 'tensorflow' || !choice.syncReads ? 'tf' : 'js';
}

/** Where a trainer's updates run (config `update` resolved for a backend). */
export type UpdatePath = 'fused' | 'host' | 'device';

/** Config `update` on `backend`: `auto` is the fused module on CPU backends, the device update without synchronous reads, else the tfjs host update. */
export function updatePathFor(update: 'auto' | UpdatePath, backend: Pick<BackendChoice, 'name' | 'syncReads'>): UpdatePath {
  if (update !== 'auto') return update;
  if (!backend.syncReads) return 'device';
  return CPU_BACKENDS.has(backend.name) ? 'fused' : 'host';
}

/** The default update of a backend: the fused module on CPU backends, else {@link tfOptimizerFor}. */
export function optimizerFor(choice: Pick<BackendChoice, 'name' | 'tfBackend' | 'syncReads'>): OptimizerImpl {
  return CPU_BACKENDS.has(choice.name) ? 'fused' : tfOptimizerFor(choice);
}

export type { UpdateOptions, UpdateStats } from './update-types';

/** A network in training. */
export class Learner {
  readonly model: PolicyModel;
  /** Canonical weights (shared with `model`); current after every update. */
  weights: MlpWeights;
  /** Optimizer steps taken. */
  get updates(): number {
    if (this.fused) return this.fusedSteps.step;
    return this.jsAdam ? this.jsAdam.step : this.tfAdam!.step;
  }
  /** The update implementation. */
  readonly impl: OptimizerImpl;
  /** The tfjs network (`js` and `tf` updates). */
  private readonly net?: TfMlp;
  /** The fused network (`fused` update). */
  private readonly fused?: FusedNet;
  private readonly fusedSteps: StepCounter = { step: 0 };
  private readonly adamConfig: AdamConfig;
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
    this.impl = impl;
    this.adamConfig = { ...adam };
    this.syncReads = impl === 'fused' || backend.syncReads;
    this.weights = cloneWeights(weights);
    this.model = new PolicyModel(layout, encoder, this.weights);
    if (impl === 'fused') {
      this.fused = new FusedNet(this.weights, { training: true, rows: 256 });
      return;
    }
    this.net = new TfMlp(backend.tf, this.weights, transposeModeFor(backend.tfBackend));
    if (impl === 'js') this.jsAdam = new JsAdam(adam, this.weights.params.map((p) => p.length));
    else this.tfAdam = new TfAdam(backend.tf, adam, this.net.vars);
  }

  /** Optimizer state for checkpoints. */
  optimizerState(): AdamState {
    if (this.fused) return { step: this.fusedSteps.step, ...this.fused.readMoments() };
    if (this.jsAdam) return this.jsAdam.state();
    if (!this.syncReads) return this.deviceState ?? { step: 0, m: this.weights.params.map((p) => new Float32Array(p.length)), v: this.weights.params.map((p) => new Float32Array(p.length)) };
    return this.tfAdam!.state();
  }

  /** Restores weights and optimizer state (resume from a checkpoint). */
  restore(weights: MlpWeights, state: AdamState | undefined): void {
    this.weights.params.forEach((p, i) => p.set(weights.params[i]));
    this.weightsChanged();
    if (this.fused) {
      this.fused.setWeights(this.weights);
      if (state) {
        this.fusedSteps.step = state.step;
        this.fused.setMoments(state.m, state.v);
      }
      return;
    }
    this.tfNet.writeWeights(this.weights);
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
    if (this.fused) {
      const stats = fusedUpdate(this.fused, this.adamConfig, this.fusedSteps, buf, targets, o);
      this.fused.readWeights(this.weights);
      this.weightsChanged();
      return stats;
    }
    if (!this.syncReads) throw new Error('Learner.update: this backend cannot read tensors synchronously; use updateOnDevice');
    const run = new UpdateRun(buf.size, o);
    while (run.nextEpoch()) {
      for (const idx of run.minibatches()) {
        const { stats, gradNorm } = this.step(buf, targets, idx, o);
        if (!run.add(stats, gradNorm, idx.length)) return run.failed(stats.loss);
      }
    }
    if (this.tfAdam) {
      const w = this.tfNet.readWeights();
      this.weights.params.forEach((p, i) => p.set(w.params[i]));
    }
    this.weightsChanged();
    return run.result();
  }

  /**
   * Everything a worker needs to run this learner's update of `buf` with `targets` (copies: the
   * buffer may be refilled meanwhile); the fused update only. Install the result with
   * {@link applyUpdate}.
   */
  updateRequest(buf: SampleBuffer, targets: Targets, o: UpdateOptions): Omit<UpdateRequest, 'id'> {
    if (!this.fused) throw new Error(`learner ${this.id}: only the fused update runs in the update worker`);
    const n = buf.size;
    const { m, v } = this.fused.readMoments();
    return {
      learner: this.id,
      spec: this.weights.spec,
      adam: this.adamConfig,
      weights: this.weights.params.map((p) => p.slice()),
      m,
      v,
      step: this.fusedSteps.step,
      n,
      inputs: buf.inputs.slice(0, n * buf.inputSize),
      masks: buf.masks.slice(0, n * buf.numActions),
      actions: buf.actions.slice(0, n),
      logp: buf.logp.slice(0, n),
      advantages: targets.advantages.slice(0, n),
      returns: targets.returns.slice(0, n),
      options: { ...o },
    };
  }

  /** Installs the weights and Adam state of an update run elsewhere (see {@link updateRequest}). */
  applyUpdate(r: UpdateResult): void {
    if (!this.fused) throw new Error(`learner ${this.id}: only the fused update runs in the update worker`);
    this.weights.params.forEach((p, i) => p.set(r.weights[i]));
    this.fused.setWeights(this.weights);
    this.fused.setMoments(r.m, r.v);
    this.fusedSteps.step = r.step;
    this.weightsChanged();
  }

  /** The tfjs network (throws on the fused path, which has none). */
  private get tfNet(): TfMlp {
    if (!this.net) throw new Error(`learner ${this.id}: the fused update has no tfjs network (the device update needs impl "tf")`);
    return this.net;
  }

  /** The acting model follows the weights (they changed in place). */
  private weightsChanged(): void {
    this.model.setWeights(this.weights);
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
    const read = await Promise.all(this.tfNet.vars.map((v) => v.data()));
    this.weights.params.forEach((p, i) => p.set(read[i] as Float32Array));
    this.weightsChanged();
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
      const pass = this.tfNet.forward(xt);
      const r = devicePolicyLoss(tf, this.tfNet.output(pass), dev, o);
      stats = r.stats;
      return r.loss;
    }, this.tfNet.vars);
    const list = this.tfNet.vars.map((v) => grads[v.name]);
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
    const pass = this.tfNet.forward(xt);
    const out = this.tfNet.output(pass).dataSync() as Float32Array;
    const grad = new Float32Array(m * (A + 1));
    const stats = policyLoss(out, batch, o, grad);
    const gt = tf.tensor2d(grad, [m, A + 1], 'float32');
    const grads: TF.Tensor[] = this.tfNet.backward(pass, gt);
    this.tfNet.disposeForward(pass);
    xt.dispose();
    gt.dispose();
    let gradNorm: number;
    if (this.jsAdam) {
      const gs = grads.map((g) => g.dataSync() as Float32Array);
      gradNorm = this.jsAdam.update(this.weights.params, gs, o.lr);
      this.tfNet.writeWeights(this.weights);
    } else {
      gradNorm = this.tfAdam!.update(grads, o.lr);
    }
    for (const g of grads) g.dispose();
    return { stats, gradNorm };
  }

  dispose(): void {
    this.net?.dispose();
    this.tfAdam?.dispose();
  }
}

