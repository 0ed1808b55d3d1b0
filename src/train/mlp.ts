/**
 * A plain multi-layer perceptron whose weights live in Float32Arrays: the canonical form of a
 * network (checkpoints store it, the trainer copies it to and from tfjs, and acting runs its
 * forward pass in plain JS without tfjs).
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
 * Forward pass for one input in plain JS (the acting path). Zero inputs are skipped, so sparse
 * one-hot encodings cost little. Scratch buffers are reused between calls; the returned array
 * is owned by the forward object and overwritten by the next call.
 */
export class MlpForward {
  private readonly bufs: Float32Array[];
  private readonly sizes: number[];

  constructor(readonly weights: MlpWeights) {
    this.sizes = layerSizes(weights.spec);
    this.bufs = this.sizes.slice(1).map((n) => new Float32Array(n));
  }

  /** Output of the network for `x` (length inputSize). */
  run(x: Float32Array): Float32Array {
    const { sizes, bufs } = this;
    const params = this.weights.params;
    const tanh = this.weights.spec.activation === 'tanh';
    let input = x;
    for (let l = 0; l + 1 < sizes.length; l++) {
      const nIn = sizes[l];
      const nOut = sizes[l + 1];
      const w = params[2 * l];
      const out = bufs[l];
      out.set(params[2 * l + 1]);
      for (let i = 0; i < nIn; i++) {
        const xi = input[i];
        if (xi === 0) continue;
        const row = i * nOut;
        for (let j = 0; j < nOut; j++) out[j] += xi * w[row + j];
      }
      if (l + 2 < sizes.length) {
        if (tanh) for (let j = 0; j < nOut; j++) out[j] = Math.tanh(out[j]);
        else for (let j = 0; j < nOut; j++) if (out[j] < 0) out[j] = 0;
      }
      input = out;
    }
    return input;
  }
}
