/**
 * A network in an instance of the fused MLP module (assembly/fused-mlp.ts): its weights padded
 * into wasm memory, and for training its gradients, Adam moments and a sample store. The host
 * side of the module: copies in (weights, Adam state, samples, acting rows), one call per pass or
 * minibatch step, copies out (weights, Adam state, outputs). The canonical weights stay the
 * {@link MlpWeights} Float32Arrays (checkpoints, snapshots); this holds a padded copy.
 */
import { validateSpec, type MlpSpec, type MlpWeights } from '../mlp';
import type { LossCoefs, LossStats } from '../policy-loss';
import { computeLayout, MAX_FUSED_LAYERS, STAT, writeTable, type Capacity, type Layout } from './layout';
import { instantiateFused, type FusedExports } from './wasm';

const PAGE = 65536;

/** Adam's hyper-parameters and this step's learning rate and bias corrections. */
export interface AdamStepArgs {
  lr: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  /** Global-norm clipping limit (0 or not finite: none). */
  maxGradNorm: number;
  /** Step number t (1-based) of this update. */
  t: number;
}

/**
 * Copies `rows` rows of `n` floats from `src` (from index `s`, row stride `ss`) to `dst` (from
 * `d`, stride `ds`): short rows (a policy head of a few actions, padded) element by element, no
 * view allocated per row; long rows through subarray views.
 */
function copyRows(src: Float32Array, s: number, ss: number, dst: Float32Array, d: number, ds: number, rows: number, n: number): void {
  if (n >= 64) {
    for (let i = 0; i < rows; i++) dst.set(src.subarray(s + i * ss, s + i * ss + n), d + i * ds);
    return;
  }
  for (let i = 0; i < rows; i++) for (let j = 0, a = s + i * ss, b = d + i * ds; j < n; j++) dst[b + j] = src[a + j];
}

/** A fused network: an instance of the module holding one network. */
export class FusedNet {
  readonly spec: MlpSpec;
  private readonly wasm: FusedExports;
  private lay: Layout;
  private f32!: Float32Array;
  private i32!: Int32Array;
  private f64!: Float64Array;
  /** Whether the build multiplies-adds with relaxed SIMD. */
  readonly relaxed: boolean;

  /** A network with `weights`, sized for `cap` (grown on demand). */
  constructor(weights: MlpWeights, cap: Partial<Capacity> = {}) {
    validateSpec(weights.spec);
    if (weights.spec.hidden.length + 1 > MAX_FUSED_LAYERS) throw new Error(`fused MLP: at most ${MAX_FUSED_LAYERS} layers`);
    if (weights.spec.outputSize < 2) throw new Error('fused MLP: a policy/value network needs at least one logit and the value');
    this.spec = { ...weights.spec, hidden: [...weights.spec.hidden] };
    this.wasm = instantiateFused();
    this.relaxed = this.wasm.relaxed() === 1;
    this.lay = this.layout({ rows: cap.rows ?? 16, samples: cap.samples ?? 0, training: cap.training ?? false });
    this.setWeights(weights);
  }

  /** Lays the memory out for `cap` (growing it), writes the table, clears the input rows' padding. */
  private layout(cap: Capacity): Layout {
    const lay = computeLayout(this.spec, this.wasm.heapBase(), cap);
    const mem = this.wasm.memory;
    if (lay.end > mem.buffer.byteLength) mem.grow(Math.ceil((lay.end - mem.buffer.byteLength) / PAGE));
    this.views();
    writeTable(this.i32, lay, this.spec.activation);
    this.f32.fill(0, lay.act[0] >> 2, (lay.act[0] >> 2) + lay.cap.rows * lay.width[0]);
    return lay;
  }

  private views(): void {
    const buf = this.wasm.memory.buffer;
    if (this.f32?.buffer === buf) return;
    this.f32 = new Float32Array(buf);
    this.i32 = new Int32Array(buf);
    this.f64 = new Float64Array(buf);
  }

  /** Grows the row or sample capacity (scratch only: weights and moments stay). */
  private ensure(rows: number, samples = this.lay.cap.samples): void {
    const c = this.lay.cap;
    if (rows <= c.rows && samples <= c.samples) return this.views();
    const grow = (need: number, have: number) => (need <= have ? have : Math.max(need, have * 2));
    this.lay = this.layout({ rows: grow(rows, c.rows), samples: grow(samples, c.samples), training: c.training });
  }

  /** Copies each parameter tensor of `params` (unpadded, {@link MlpWeights} order) into the region at `base`. */
  private putTensors(base: number, params: readonly Float32Array[]): void {
    this.views();
    const { raw, width, offW, offB } = this.lay;
    for (let l = 0; l + 1 < raw.length; l++) {
      const w = params[2 * l];
      const b = params[2 * l + 1];
      const at = (base + offW[l]) >> 2;
      if (width[l + 1] === raw[l + 1]) this.f32.set(w, at);
      else copyRows(w, 0, raw[l + 1], this.f32, at, width[l + 1], raw[l], raw[l + 1]);
      this.f32.set(b, (base + offB[l]) >> 2);
    }
  }

  /** Copies the region at `base` out into unpadded tensors (fresh, or into `into`). */
  private getTensors(base: number, into?: Float32Array[]): Float32Array[] {
    this.views();
    const { raw, width, offW, offB } = this.lay;
    const out: Float32Array[] = into ?? [];
    for (let l = 0; l + 1 < raw.length; l++) {
      const w = (out[2 * l] ??= new Float32Array(raw[l] * raw[l + 1]));
      const b = (out[2 * l + 1] ??= new Float32Array(raw[l + 1]));
      const at = (base + offW[l]) >> 2;
      if (width[l + 1] === raw[l + 1]) w.set(this.f32.subarray(at, at + w.length));
      else copyRows(this.f32, at, width[l + 1], w, 0, raw[l + 1], raw[l], raw[l + 1]);
      b.set(this.f32.subarray((base + offB[l]) >> 2, ((base + offB[l]) >> 2) + raw[l + 1]));
    }
    return out;
  }

  /** Overwrites the weights (same spec). */
  setWeights(weights: MlpWeights): void {
    this.putTensors(this.lay.params, weights.params);
  }

  /** The current weights, copied into `into` (its arrays overwritten) or fresh arrays. */
  readWeights(into?: MlpWeights): MlpWeights {
    const params = this.getTensors(this.lay.params, into?.params);
    return into ?? { spec: { ...this.spec, hidden: [...this.spec.hidden] }, params };
  }

  /** Adam's moments (unpadded, {@link MlpWeights} order). */
  readMoments(): { m: Float32Array[]; v: Float32Array[] } {
    this.needTraining();
    return { m: this.getTensors(this.lay.mom1), v: this.getTensors(this.lay.mom2) };
  }

  /** Overwrites Adam's moments. */
  setMoments(m: readonly Float32Array[], v: readonly Float32Array[]): void {
    this.needTraining();
    this.putTensors(this.lay.mom1, m);
    this.putTensors(this.lay.mom2, v);
  }

  /** The gradients of the last {@link lossGrad} or step (unpadded copies; tests). */
  readGradients(): Float32Array[] {
    this.needTraining();
    return this.getTensors(this.lay.grads);
  }

  private needTraining(): void {
    if (!this.lay.cap.training) throw new Error('fused MLP: this network was made for acting only (no gradients or Adam state)');
  }

  /**
   * The outputs for `rows` inputs (each spec.inputSize wide, one after another in `x`): rows ×
   * outputSize values, row after row, owned by this network (valid until its next call). With
   * `needed` (rows × width flags) groups of eight of the first `width` outputs with no flag set
   * are not computed and read 0; every other output is computed as without it, bit for bit. A
   * row's outputs depend on that row alone.
   */
  forward(x: Float32Array, rows: number, needed?: Float32Array, width = 0): Float32Array {
    this.ensure(rows);
    const { raw, width: wp, act, out } = this.lay;
    const inSize = raw[0];
    const at = act[0] >> 2;
    if (wp[0] === inSize) this.f32.set(x.subarray(0, rows * inSize), at);
    else for (let r = 0; r < rows; r++) this.f32.set(x.subarray(r * inSize, (r + 1) * inSize), at + r * wp[0]);
    const w = needed ? width : 0;
    if (w > 0) this.f32.set(needed!.subarray(0, rows * w), this.lay.needed >> 2);
    this.wasm.act(rows, w);
    const o = out >> 2;
    const L = raw.length - 1;
    return this.f32.subarray(o, o + rows * raw[L]);
  }

  /**
   * Loads a training batch into the sample store: inputs (n × inputSize), legality masks
   * (n × units), chosen actions, log π_old, advantages and value targets.
   */
  loadSamples(n: number, inputs: Float32Array, masks: Float32Array, actions: Int32Array, logp: Float32Array, adv: ArrayLike<number>, ret: ArrayLike<number>, rows: number): void {
    this.needTraining();
    this.ensure(rows, n);
    const L = this.lay.raw.length - 1;
    const units = this.lay.raw[L] - 1;
    this.f32.set(inputs.subarray(0, n * this.lay.raw[0]), this.lay.sx >> 2);
    this.f32.set(masks.subarray(0, n * units), this.lay.smask >> 2);
    this.i32.set(actions.subarray(0, n), this.lay.sact >> 2);
    this.f32.set(logp.subarray(0, n), this.lay.slogp >> 2);
    this.f32.set(adv instanceof Float32Array ? adv.subarray(0, n) : Float32Array.from({ length: n }, (_, i) => adv[i]), this.lay.sadv >> 2);
    this.f32.set(ret instanceof Float32Array ? ret.subarray(0, n) : Float32Array.from({ length: n }, (_, i) => ret[i]), this.lay.sret >> 2);
  }

  /** Sets the sample order that minibatches read (ORDER[start .. start + count)). */
  setOrder(order: Int32Array): void {
    this.needTraining();
    if (order.length > this.lay.cap.samples) throw new Error(`fused MLP: order of ${order.length} samples, the store holds ${this.lay.cap.samples}`);
    this.i32.set(order, this.lay.order >> 2);
  }

  /** The loss and gradients (into the gradient region) of minibatch ORDER[start .. start + count). */
  lossGrad(start: number, count: number, c: LossCoefs): LossStats {
    this.checkRows(count);
    this.wasm.lossGrad(start, count, c.clip, c.valueCoef, c.entropyCoef);
    return this.stats(start);
  }

  /**
   * One PPO minibatch step on ORDER[start .. start + count): loss, gradients, global-norm clipping
   * and Adam. Returns the loss terms and ‖g‖₂ before clipping.
   */
  step(start: number, count: number, c: LossCoefs, a: AdamStepArgs): { stats: LossStats; gradNorm: number } {
    this.checkRows(count);
    const c1 = 1 / (1 - a.beta1 ** a.t);
    const c2 = 1 / (1 - a.beta2 ** a.t);
    this.wasm.step(start, count, c.clip, c.valueCoef, c.entropyCoef, a.lr, a.beta1, a.beta2, a.epsilon, c1, c2, a.maxGradNorm);
    const stats = this.stats(start);
    return { stats, gradNorm: this.f64[(this.lay.stats >> 3) + STAT.gradNorm] };
  }

  /** Adam on the gradients in the gradient region (after {@link lossGrad}); returns ‖g‖₂ before clipping. */
  adam(a: AdamStepArgs): number {
    this.needTraining();
    return this.wasm.adam(a.lr, a.beta1, a.beta2, a.epsilon, 1 / (1 - a.beta1 ** a.t), 1 / (1 - a.beta2 ** a.t), a.maxGradNorm);
  }

  private checkRows(count: number): void {
    this.needTraining();
    if (count > this.lay.cap.rows) throw new Error(`fused MLP: minibatch of ${count} rows, sized for ${this.lay.cap.rows} (loadSamples sets it)`);
  }

  /** The loss terms of the last loss on the minibatch from ORDER[start], throwing the loss's errors as policyLoss does. */
  private stats(start: number): LossStats {
    this.views();
    const s = this.lay.stats >> 3;
    const v = this.f64;
    const err = v[s + STAT.error];
    if (err) {
      const row = v[s + STAT.errorRow];
      const sample = this.i32[(this.lay.order >> 2) + start + row];
      if (err === 1) throw new Error(`maskedSoftmax: no legal action in the mask (sample ${sample})`);
      throw new Error(`policyLoss: sample ${sample} took action ${this.i32[(this.lay.actions >> 2) + row]}, which its mask marks illegal`);
    }
    return { loss: v[s + STAT.loss], policyLoss: v[s + STAT.policyLoss], valueLoss: v[s + STAT.valueLoss], entropy: v[s + STAT.entropy], approxKl: v[s + STAT.approxKl], clipFraction: v[s + STAT.clipFraction] };
  }
}
