/**
 * Adam (Kingma & Ba) with global-norm gradient clipping, in two interchangeable forms that
 * compute the same update:
 *
 * - {@link TfAdam}: moments as tfjs variables, the update as tfjs ops (stays on the device;
 *   the right choice for a GPU backend).
 * - {@link JsAdam}: moments and weights in Float32Arrays, the update in a plain JS loop
 *   (one pass per parameter tensor instead of a dozen tiny kernels; faster on wasm/cpu).
 *
 * Update for step t (1-based), after scaling g by min(1, maxNorm / ‖g‖₂) when clipping:
 *   m ← β1·m + (1 − β1)·g;  v ← β2·v + (1 − β2)·g²
 *   p ← p − lr · (m / (1 − β1^t)) / (√(v / (1 − β2^t)) + ε)
 */
import type * as TF from '@tensorflow/tfjs';
import type { Tf } from './backend';

/** Adam hyper-parameters (the learning rate is given per step). */
export interface AdamConfig {
  beta1: number;
  beta2: number;
  epsilon: number;
  /** Clip the global gradient norm to this value; 0 or Infinity disables clipping. */
  maxGradNorm: number;
}

/** Optimizer state, as stored in checkpoints. */
export interface AdamState {
  step: number;
  m: Float32Array[];
  v: Float32Array[];
}

/** The clipping factor for a gradient of global norm `norm`. */
export function clipScale(norm: number, maxNorm: number): number {
  if (!(maxNorm > 0) || !Number.isFinite(maxNorm) || !(norm > maxNorm)) return 1;
  return maxNorm / norm;
}

/** Adam over Float32Array weights. `update` returns the gradient norm before clipping. */
export class JsAdam {
  step = 0;
  readonly m: Float32Array[];
  readonly v: Float32Array[];

  constructor(
    readonly config: AdamConfig,
    sizes: readonly number[],
  ) {
    this.m = sizes.map((n) => new Float32Array(n));
    this.v = sizes.map((n) => new Float32Array(n));
  }

  /** Applies one step to `params` in place with gradients `grads`; returns ‖g‖₂ before clipping. */
  update(params: Float32Array[], grads: ArrayLike<number>[], lr: number): number {
    let ss = 0;
    for (const g of grads) for (let i = 0; i < g.length; i++) ss += g[i] * g[i];
    const norm = Math.sqrt(ss);
    const scale = clipScale(norm, this.config.maxGradNorm);
    this.step++;
    const { beta1: b1, beta2: b2, epsilon: eps } = this.config;
    const c1 = 1 / (1 - b1 ** this.step);
    const c2 = 1 / (1 - b2 ** this.step);
    for (let k = 0; k < params.length; k++) {
      const p = params[k];
      const g = grads[k];
      const m = this.m[k];
      const v = this.v[k];
      for (let i = 0; i < p.length; i++) {
        const gi = g[i] * scale;
        const mi = b1 * m[i] + (1 - b1) * gi;
        const vi = b2 * v[i] + (1 - b2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] -= (lr * (mi * c1)) / (Math.sqrt(vi * c2) + eps);
      }
    }
    return norm;
  }

  state(): AdamState {
    return { step: this.step, m: this.m.map((x) => x.slice()), v: this.v.map((x) => x.slice()) };
  }

  setState(s: AdamState): void {
    this.step = s.step;
    s.m.forEach((x, i) => this.m[i].set(x));
    s.v.forEach((x, i) => this.v[i].set(x));
  }
}

/** Adam over tfjs variables. */
export class TfAdam {
  step = 0;
  private readonly m: TF.Variable[];
  private readonly v: TF.Variable[];

  constructor(
    private readonly tf: Tf,
    readonly config: AdamConfig,
    private readonly vars: readonly TF.Variable[],
  ) {
    this.m = vars.map((x) => tf.variable(tf.zerosLike(x), false));
    this.v = vars.map((x) => tf.variable(tf.zerosLike(x), false));
  }

  /** Applies one step (disposing nothing of the caller's); returns ‖g‖₂ before clipping (one sync read). */
  update(grads: readonly TF.Tensor[], lr: number): number {
    const norm = this.updateOnDevice(grads, lr);
    const n = norm.dataSync()[0];
    norm.dispose();
    return n;
  }

  /**
   * The same step without reading anything back: the clipping factor is computed on the
   * device. Returns ‖g‖₂ before clipping as a scalar tensor (the caller disposes it).
   */
  updateOnDevice(grads: readonly TF.Tensor[], lr: number): TF.Scalar {
    const tf = this.tf;
    this.step++;
    const { beta1: b1, beta2: b2, epsilon: eps, maxGradNorm } = this.config;
    const c1 = 1 / (1 - b1 ** this.step);
    const c2 = 1 / (1 - b2 ** this.step);
    const clip = maxGradNorm > 0 && Number.isFinite(maxGradNorm);
    return tf.tidy(() => {
      const norm = tf.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g))))) as TF.Scalar;
      // clipScale on the device: maxNorm / ‖g‖ above the limit, else 1
      const scale = clip ? tf.where(tf.greater(norm, maxGradNorm), tf.div(maxGradNorm, norm), tf.scalar(1)) : null;
      grads.forEach((g0, k) => {
        const g = scale ? tf.mul(g0, scale) : g0;
        const m = tf.add(tf.mul(this.m[k], b1), tf.mul(g, 1 - b1));
        const v = tf.add(tf.mul(this.v[k], b2), tf.mul(tf.square(g), 1 - b2));
        const upd = tf.div(tf.mul(m, lr * c1), tf.add(tf.sqrt(tf.mul(v, c2)), eps));
        this.vars[k].assign(tf.sub(this.vars[k], upd));
        this.m[k].assign(m);
        this.v[k].assign(v);
      });
      return norm;
    });
  }

  state(): AdamState {
    return { step: this.step, m: this.m.map((x) => Float32Array.from(x.dataSync() as Float32Array)), v: this.v.map((x) => Float32Array.from(x.dataSync() as Float32Array)) };
  }

  /** {@link state} with asynchronous reads (backends without synchronous reads: WebGPU). */
  async stateAsync(): Promise<AdamState> {
    const read = (xs: TF.Variable[]) => Promise.all(xs.map(async (x) => Float32Array.from((await x.data()) as Float32Array)));
    return { step: this.step, m: await read(this.m), v: await read(this.v) };
  }

  setState(s: AdamState): void {
    this.step = s.step;
    this.tf.tidy(() => {
      s.m.forEach((x, i) => this.m[i].assign(this.tf.tensor(x, this.m[i].shape)));
      s.v.forEach((x, i) => this.v[i].assign(this.tf.tensor(x, this.v[i].shape)));
    });
  }

  dispose(): void {
    for (const x of [...this.m, ...this.v]) x.dispose();
  }
}
