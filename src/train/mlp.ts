/**
 * A plain multi-layer perceptron whose weights live in Float32Arrays: the canonical form of a
 * network (checkpoints store it; the fused module and tfjs take copies of it).
 *
 * Layout: layer l has W_l of shape [in, out] (row-major, like tfjs) and b_l of shape [out];
 * hidden layers apply the activation, the last layer is linear.
 */
import { Rng } from '../core/rng';

/** Hidden-layer activation. */
export type Activation = 'relu' | 'tanh';

/** Shape of a network: input size, hidden widths, output size, activation. */
export interface MlpSpec {
  inputSize: number;
  hidden: readonly number[];
  outputSize: number;
  activation: Activation;
}

/** Weights of an MLP: `params[2l]` = W_l ([in, out]), `params[2l + 1]` = b_l ([out]). */
export interface MlpWeights {
  spec: MlpSpec;
  params: Float32Array[];
}

/** Layer sizes from input to output: [input, ...hidden, output]. */
export function layerSizes(spec: MlpSpec): number[] {
  return [spec.inputSize, ...spec.hidden, spec.outputSize];
}

/** Shapes of every parameter tensor in `params` order. */
export function paramShapes(spec: MlpSpec): number[][] {
  const sizes = layerSizes(spec);
  const shapes: number[][] = [];
  for (let l = 0; l + 1 < sizes.length; l++) shapes.push([sizes[l], sizes[l + 1]], [sizes[l + 1]]);
  return shapes;
}

/** Total number of scalars in the network. */
export function paramCount(spec: MlpSpec): number {
  return paramShapes(spec).reduce((n, s) => n + s.reduce((a, b) => a * b, 1), 0);
}

function gaussian(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * Seeded initialization: He-normal (relu) or Glorot-normal (tanh) weights, zero biases.
 * `outputScale` multiplies the last layer's weights per output column (small policy logits
 * at the start are a standard PPO choice); a number applies to every column.
 */
export function initMlp(spec: MlpSpec, seed: number | string, outputScale: number | readonly number[] = 1): MlpWeights {
  validateSpec(spec);
  const rng = Rng.fromSeed(`mlp:${seed}`);
  const sizes = layerSizes(spec);
  const params: Float32Array[] = [];
  for (let l = 0; l + 1 < sizes.length; l++) {
    const fanIn = sizes[l];
    const fanOut = sizes[l + 1];
    const std = spec.activation === 'relu' ? Math.sqrt(2 / fanIn) : Math.sqrt(2 / (fanIn + fanOut));
    const w = new Float32Array(fanIn * fanOut);
    const last = l + 2 === sizes.length;
    for (let i = 0; i < fanIn; i++) {
      for (let j = 0; j < fanOut; j++) {
        const scale = last ? (typeof outputScale === 'number' ? outputScale : (outputScale[j] ?? 1)) : 1;
        w[i * fanOut + j] = gaussian(rng) * std * scale;
      }
    }
    params.push(w, new Float32Array(fanOut));
  }
  return { spec: { ...spec, hidden: [...spec.hidden] }, params };
}

/** Throws a clear error for an impossible spec. */
export function validateSpec(spec: MlpSpec): void {
  const ok = (n: number) => Number.isInteger(n) && n > 0;
  if (!ok(spec.inputSize)) throw new Error(`mlp: inputSize must be a positive integer, got ${spec.inputSize}`);
  if (!ok(spec.outputSize)) throw new Error(`mlp: outputSize must be a positive integer, got ${spec.outputSize}`);
  for (const h of spec.hidden) if (!ok(h)) throw new Error(`mlp: hidden sizes must be positive integers, got ${JSON.stringify(spec.hidden)}`);
  if (spec.activation !== 'relu' && spec.activation !== 'tanh') throw new Error(`mlp: activation must be "relu" or "tanh", got "${String(spec.activation)}"`);
}

/** A deep copy of the weights. */
export function cloneWeights(w: MlpWeights): MlpWeights {
  return { spec: { ...w.spec, hidden: [...w.spec.hidden] }, params: w.params.map((p) => p.slice()) };
}

/**
 * Forward pass in plain JS, for one input or a batch of rows: the reference implementation
 * (tests, and the "before" rows of bench/training-speed.ts). Acting runs the fused module
 * (fused/fused-net.ts) since issue 25. Zero inputs are skipped,
 * so sparse one-hot encodings cost little. Scratch buffers are reused between calls (grown for
 * larger batches); the returned array is owned by the forward object and overwritten by the
 * next call.
 *
 * Bit for bit the same as the naive loop `out[j] += x[i] * W[i][j]` over a Float32Array (i
 * ascending, zeros skipped): each output is accumulated in a register and rounded to float32
 * after every addition (`Math.fround`), which is exactly what a Float32Array store does. Rows
 * are independent, so a row's output never depends on the batch it came in (tested).
 * Eight outputs are accumulated at once (one read of the input per eight weights): about
 * 2.5× the naive loop at Deal-or-No-Deal's 144→128→128→365.
 */
export class MlpForward {
  private bufs: Float32Array[];
  private rows = 1;
  private readonly sizes: number[];
  /** Nonzero input indices of the current row, and their values. */
  private readonly nz: Int32Array;
  private readonly xs: Float64Array;

  constructor(readonly weights: MlpWeights) {
    this.sizes = layerSizes(weights.spec);
    this.bufs = this.sizes.slice(1).map((n) => new Float32Array(n));
    const widest = Math.max(...this.sizes);
    this.nz = new Int32Array(widest);
    this.xs = new Float64Array(widest);
  }

  /**
   * Output of the network for `rows` inputs stored one after another in `x` (each inputSize
   * wide): `rows × outputSize` values, row after row.
   *
   * `needed` (optional, `rows × width` values, row after row) marks the outputs each row needs
   * among the first `width` (a policy's legal actions): groups of eight outputs none of which
   * is needed are not computed and read 0; every other output, and all outputs from `width`
   * on (the value), are computed as without it, bit for bit.
   */
  run(x: Float32Array, rows = 1, needed?: Float32Array, width = 0): Float32Array {
    const { sizes } = this;
    if (rows > this.rows) {
      this.bufs = sizes.slice(1).map((n) => new Float32Array(n * rows));
      this.rows = rows;
    }
    const params = this.weights.params;
    const tanh = this.weights.spec.activation === 'tanh';
    let input = x;
    for (let l = 0; l + 1 < sizes.length; l++) {
      const out = this.bufs[l];
      const hidden = l + 2 < sizes.length;
      const nOut = sizes[l + 1];
      for (let r = 0; r < rows; r++) {
        this.dense(input, r * sizes[l], sizes[l], params[2 * l], params[2 * l + 1], out, r * nOut, nOut, hidden ? undefined : needed, r * width, width);
        if (!hidden) continue;
        const end = r * nOut + nOut;
        if (tanh) for (let q = r * nOut; q < end; q++) out[q] = Math.tanh(out[q]);
        else for (let q = r * nOut; q < end; q++) if (out[q] < 0) out[q] = 0;
      }
      input = out;
    }
    const n = rows * sizes[sizes.length - 1];
    return input.length === n ? input : input.subarray(0, n);
  }

  /**
   * out[oo .. oo + nOut) = bias + x[xo .. xo + nIn) · w, zeros of x skipped (see the class
   * note); with `needed`, groups of eight of the first `width` outputs whose flags
   * (needed[no ..]) are all 0 are set to 0 instead.
   */
  private dense(x: Float32Array, xo: number, nIn: number, w: Float32Array, bias: Float32Array, out: Float32Array, oo: number, nOut: number, needed?: Float32Array, no = 0, width = 0): void {
    const { nz, xs } = this;
    let m = 0;
    for (let i = 0; i < nIn; i++) {
      const v = x[xo + i];
      if (v !== 0) {
        nz[m] = i;
        xs[m++] = v;
      }
    }
    const fr = Math.fround;
    let j = 0;
    for (; j + 8 <= nOut; j += 8) {
      if (needed && j + 8 <= width && !anyNeeded(needed, no + j)) {
        out.fill(0, oo + j, oo + j + 8);
        continue;
      }
      let a0 = bias[j], a1 = bias[j + 1], a2 = bias[j + 2], a3 = bias[j + 3];
      let a4 = bias[j + 4], a5 = bias[j + 5], a6 = bias[j + 6], a7 = bias[j + 7];
      for (let t = 0; t < m; t++) {
        const v = xs[t];
        const k = nz[t] * nOut + j;
        a0 = fr(a0 + v * w[k]);
        a1 = fr(a1 + v * w[k + 1]);
        a2 = fr(a2 + v * w[k + 2]);
        a3 = fr(a3 + v * w[k + 3]);
        a4 = fr(a4 + v * w[k + 4]);
        a5 = fr(a5 + v * w[k + 5]);
        a6 = fr(a6 + v * w[k + 6]);
        a7 = fr(a7 + v * w[k + 7]);
      }
      out[oo + j] = a0;
      out[oo + j + 1] = a1;
      out[oo + j + 2] = a2;
      out[oo + j + 3] = a3;
      out[oo + j + 4] = a4;
      out[oo + j + 5] = a5;
      out[oo + j + 6] = a6;
      out[oo + j + 7] = a7;
    }
    for (; j < nOut; j++) {
      let a = bias[j];
      for (let t = 0; t < m; t++) a = fr(a + xs[t] * w[nz[t] * nOut + j]);
      out[oo + j] = a;
    }
  }
}

/** Whether any of needed[at .. at + 8) is set. */
function anyNeeded(needed: Float32Array, at: number): boolean {
  return needed[at] !== 0 || needed[at + 1] !== 0 || needed[at + 2] !== 0 || needed[at + 3] !== 0 || needed[at + 4] !== 0 || needed[at + 5] !== 0 || needed[at + 6] !== 0 || needed[at + 7] !== 0;
}
