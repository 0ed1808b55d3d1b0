/**
 * An {@link MlpWeights} network held as tfjs variables, with a hand-written batched forward
 * and backward pass (no autodiff tape): the loss gradient w.r.t. the outputs comes from
 * plain JS ({@link policyLoss}), and the backward pass is a fixed list of kernels.
 *
 * Speed notes (measured, see bench/train-throughput.ts): on the wasm backend a matMul with a
 * transpose flag falls back to a slow generic kernel (about 14× slower than the XNNPACK
 * path), so that backend transposes explicitly and multiplies untransposed; native backends
 * use the flags. Hidden layers use the fused matMul + bias + relu kernel.
 */
import type * as TF from '@tensorflow/tfjs';
import type { Tf } from './backend';
import { layerSizes, paramShapes, type MlpSpec, type MlpWeights } from './mlp';

/** How matMuls with a transposed operand are computed. */
export type TransposeMode = 'flag' | 'explicit';

/** The transpose mode that is fastest on a tfjs backend id. */
export function transposeModeFor(tfBackend: string): TransposeMode {
  return tfBackend === 'wasm' ? 'explicit' : 'flag';
}

/** Activations kept from a forward pass for the backward pass (dispose with {@link disposeForward}). */
export interface ForwardPass {
  /** inputs[l] = input of layer l (inputs[0] is the batch); the last entry is the output. */
  acts: TF.Tensor2D[];
}

/** A network as tfjs variables with explicit forward/backward passes. */
export class TfMlp {
  readonly spec: MlpSpec;
  readonly vars: TF.Variable[];
  private readonly sizes: number[];
  /** A [1, batch] row of ones for {@link columnSums} (kept for the last batch size). */
  private ones: TF.Tensor2D | null = null;

  constructor(
    private readonly tf: Tf,
    weights: MlpWeights,
    private readonly transpose: TransposeMode,
  ) {
    this.spec = { ...weights.spec, hidden: [...weights.spec.hidden] };
    this.sizes = layerSizes(this.spec);
    const shapes = paramShapes(this.spec);
    this.vars = weights.params.map((p, i) => tf.variable(tf.tensor(p, shapes[i], 'float32'), true, undefined, 'float32'));
  }

  /** Number of layers (weight matrices). */
  get depth(): number {
    return this.sizes.length - 1;
  }

  /** Batched forward pass; keeps every layer's activation for {@link backward}. */
  forward(x: TF.Tensor2D): ForwardPass {
    const tf = this.tf;
    const acts: TF.Tensor2D[] = [x];
    let h = x;
    for (let l = 0; l < this.depth; l++) {
      const w = this.vars[2 * l] as TF.Tensor2D;
      const b = this.vars[2 * l + 1] as TF.Tensor1D;
      const hidden = l + 1 < this.depth;
      let out: TF.Tensor2D;
      if (hidden && this.spec.activation === 'relu') {
        out = tf.fused.matMul({ a: h, b: w, bias: b, activation: 'relu' }) as TF.Tensor2D;
      } else {
        out = tf.fused.matMul({ a: h, b: w, bias: b }) as TF.Tensor2D;
        if (hidden) {
          const t = tf.tanh(out);
          out.dispose();
          out = t;
        }
      }
      acts.push(out);
      h = out;
    }
    return { acts };
  }

  /** Output of a forward pass (the last activation). */
  output(pass: ForwardPass): TF.Tensor2D {
    return pass.acts[pass.acts.length - 1];
  }

  /** Disposes the activations of a pass except its input (the caller's tensor). */
  disposeForward(pass: ForwardPass): void {
    for (let i = 1; i < pass.acts.length; i++) pass.acts[i].dispose();
  }

  /** a^T · b. */
  private matMulTA(a: TF.Tensor2D, b: TF.Tensor2D): TF.Tensor2D {
    const tf = this.tf;
    if (this.transpose === 'flag') return tf.matMul(a, b, true, false);
    const at = tf.transpose(a) as TF.Tensor2D;
    const out = tf.matMul(at, b) as TF.Tensor2D;
    at.dispose();
    return out;
  }

  /** a · b^T. */
  private matMulTB(a: TF.Tensor2D, b: TF.Tensor2D): TF.Tensor2D {
    const tf = this.tf;
    if (this.transpose === 'flag') return tf.matMul(a, b, false, true);
    const bt = tf.transpose(b) as TF.Tensor2D;
    const out = tf.matMul(a, bt) as TF.Tensor2D;
    bt.dispose();
    return out;
  }

  /**
   * Sums over the batch (bias gradients). On wasm a row of ones times dz (XNNPACK) costs about
   * a quarter of the reduction kernel (`npm run bench:train` notes); elsewhere tf.sum.
   */
  private columnSums(dz: TF.Tensor2D): TF.Tensor1D {
    const tf = this.tf;
    if (this.transpose === 'flag') return tf.sum(dz, 0) as TF.Tensor1D;
    const rows = dz.shape[0];
    if (this.ones?.shape[1] !== rows) {
      this.ones?.dispose();
      this.ones = tf.ones([1, rows]) as TF.Tensor2D;
    }
    const sums = tf.matMul(this.ones, dz);
    const out = tf.reshape(sums, [dz.shape[1]]) as TF.Tensor1D;
    sums.dispose();
    return out;
  }

  /**
   * Gradients of the loss w.r.t. every parameter (in `vars` order), given the forward pass and
   * dL/d(output). The caller disposes the returned tensors.
   */
  backward(pass: ForwardPass, dOut: TF.Tensor2D): TF.Tensor[] {
    const tf = this.tf;
    const grads: TF.Tensor[] = new Array(this.vars.length);
    let dz = dOut;
    for (let l = this.depth - 1; l >= 0; l--) {
      const input = pass.acts[l];
      grads[2 * l] = this.matMulTA(input, dz);
      grads[2 * l + 1] = this.columnSums(dz);
      if (l > 0) {
        const dh = this.matMulTB(dz, this.vars[2 * l] as TF.Tensor2D);
        if (dz !== dOut) dz.dispose();
        const h = input;
        let next: TF.Tensor2D;
        if (this.spec.activation === 'relu') {
          const s = tf.step(h);
          next = tf.mul(dh, s);
          s.dispose();
        } else {
          next = tf.tidy(() => tf.mul(dh, tf.sub(1, tf.square(h))));
        }
        dh.dispose();
        dz = next;
      }
    }
    if (dz !== dOut) dz.dispose();
    return grads;
  }

  /** Copies the current weights out of tfjs (a sync read). */
  readWeights(): MlpWeights {
    return { spec: { ...this.spec, hidden: [...this.spec.hidden] }, params: this.vars.map((v) => Float32Array.from(v.dataSync() as Float32Array)) };
  }

  /** Overwrites the weights. */
  writeWeights(weights: MlpWeights): void {
    const shapes = paramShapes(this.spec);
    this.vars.forEach((v, i) => {
      const t = this.tf.tensor(weights.params[i], shapes[i], 'float32');
      v.assign(t);
      t.dispose();
    });
  }

  dispose(): void {
    for (const v of this.vars) v.dispose();
    this.ones?.dispose();
  }
}
