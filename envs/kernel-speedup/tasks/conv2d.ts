/** 3×3 convolution (cross-correlation), valid padding, stride 1, CHW layout, float32. */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Dims, Knob, KernelTask, Schedule } from './task';

const reference = `function kernel(inputs, dims) {
  const X = inputs.X, Wt = inputs.W;
  const Cin = dims.Cin, Cout = dims.Cout, H = dims.H, W = dims.W, OH = dims.OH, OW = dims.OW;
  const Y = new Float32Array(Cout * OH * OW);
  for (let co = 0; co < Cout; co++) {
    for (let oy = 0; oy < OH; oy++) {
      for (let ox = 0; ox < OW; ox++) {
        let s = 0;
        for (let ci = 0; ci < Cin; ci++) {
          for (let ky = 0; ky < 3; ky++) {
            for (let kx = 0; kx < 3; kx++) {
              s += X[(ci * H + oy + ky) * W + ox + kx] * Wt[((co * Cin + ci) * 3 + ky) * 3 + kx];
            }
          }
        }
        Y[(co * OH + oy) * OW + ox] = s;
      }
    }
  }
  return { Y };
}`;

/**
 * Per output channel a float64 accumulator plane; per input channel the nine weights live in
 * locals and each output row is swept with a sliding window (three new loads per pixel).
 */
const expert = `function kernel(inputs, dims) {
  const X = inputs.X, Wt = inputs.W;
  const Cin = dims.Cin, Cout = dims.Cout, H = dims.H, W = dims.W, OH = dims.OH, OW = dims.OW;
  const P = OH * OW;
  const Y = new Float32Array(Cout * P);
  const acc = new Float64Array(P);
  for (let co = 0; co < Cout; co++) {
    acc.fill(0);
    for (let ci = 0; ci < Cin; ci++) {
      const wb = (co * Cin + ci) * 9;
      const w0 = Wt[wb], w1 = Wt[wb + 1], w2 = Wt[wb + 2], w3 = Wt[wb + 3], w4 = Wt[wb + 4];
      const w5 = Wt[wb + 5], w6 = Wt[wb + 6], w7 = Wt[wb + 7], w8 = Wt[wb + 8];
      const xb = ci * H * W;
      for (let oy = 0; oy < OH; oy++) {
        const r0 = xb + oy * W, r1 = r0 + W, r2 = r1 + W, o = oy * OW;
        let a0 = X[r0], a1 = X[r0 + 1], b0 = X[r1], b1 = X[r1 + 1], c0 = X[r2], c1 = X[r2 + 1];
        for (let ox = 0; ox < OW; ox++) {
          const a2 = X[r0 + ox + 2], b2 = X[r1 + ox + 2], c2 = X[r2 + ox + 2];
          acc[o + ox] += w0 * a0 + w1 * a1 + w2 * a2 + w3 * b0 + w4 * b1 + w5 * b2 + w6 * c0 + w7 * c1 + w8 * c2;
          a0 = a1; a1 = a2; b0 = b1; b1 = b2; c0 = c1; c1 = c2;
        }
      }
    }
    const yo = co * P;
    for (let p = 0; p < P; p++) Y[yo + p] = acc[p];
  }
  return { Y };
}`;

const knobs: readonly Knob[] = [
  /** output: each output pixel sums all its inputs at once; plane: accumulate one input channel at a time into a plane. */
  { name: 'order', options: ['output', 'plane'] },
  /** loop: ky/kx loops reading the weight array; unrolled: the nine taps written out (weights in locals for plane). */
  { name: 'window', options: ['loop', 'unrolled'] },
  /** Output pixels per step along a row. */
  { name: 'unrollX', options: [1, 2, 4] },
  /** Output channels computed together (sharing input loads). */
  { name: 'coBlock', options: [1, 2] },
];

/** Code adding the 3×3 window at input offset `xo + u` times the weights of channel block row `b` to `dst`. */
function taps(window: string, plane: boolean, b: number, u: number, dst: string): string {
  if (window === 'loop') {
    return `for (let ky = 0; ky < 3; ky++) for (let kx = 0; kx < 3; kx++) ${dst} += X[xo + ky * W + kx + ${u}] * Wt[wb${b} + ky * 3 + kx];`;
  }
  const w = (k: number) => (plane ? `w${b}_${k}` : `Wt[wb${b} + ${k}]`);
  const terms: string[] = [];
  for (let ky = 0; ky < 3; ky++) for (let kx = 0; kx < 3; kx++) terms.push(`X[xo + ${ky} * W + ${kx + u}] * ${w(ky * 3 + kx)}`);
  return `${dst} += ${terms.join(' + ')};`;
}

/** Sweep of one output row for `cb` output channels (co … co+cb-1) and `u` pixels per step. */
function outputOrder(window: string, cb: number, u: number): string {
  const px = (uu: number) => `{
          ${unrolled(cb * uu, (t) => `let s${t} = 0;`)}
          for (let ci = 0; ci < Cin; ci++) {
            const xo = (ci * H + oy) * W + ox;
            ${unrolled(cb, (b) => `const wb${b} = ((co + ${b}) * Cin + ci) * 9;`)}
            ${unrolled(cb, (b) => unrolled(uu, (k) => taps(window, false, b, k, `s${b * uu + k}`)))}
          }
          ${unrolled(cb, (b) => unrolled(uu, (k) => `Y[((co + ${b}) * OH + oy) * OW + ox + ${k}] = s${b * uu + k};`))}
        }`;
  return `for (let oy = 0; oy < OH; oy++) {
        let ox = 0;
        ${peeledLoop('ox', 'OW', u, px(1), px(u))}
      }`;
}

/** Accumulation of every input channel into `cb` planes, then the store of those planes. */
function planeOrder(window: string, cb: number, u: number): string {
  const px = (uu: number) => `{
            const xo = xr + ox;
            ${unrolled(cb, (b) => unrolled(uu, (k) => taps(window, true, b, k, `acc[${b} * P + o + ox + ${k}]`)))}
          }`;
  return `acc.fill(0);
      for (let ci = 0; ci < Cin; ci++) {
        ${unrolled(cb, (b) => `const wb${b} = ((co + ${b}) * Cin + ci) * 9;`)}
        ${window === 'unrolled' ? unrolled(cb, (b) => unrolled(9, (k) => `const w${b}_${k} = Wt[wb${b} + ${k}];`)) : ''}
        for (let oy = 0; oy < OH; oy++) {
          const xr = (ci * H + oy) * W, o = oy * OW;
          let ox = 0;
          ${peeledLoop('ox', 'OW', u, px(1), px(u))}
        }
      }
      for (let p = 0; p < ${cb} * P; p++) Y[co * P + p] = acc[p];`;
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  const plane = stringKnob(schedule, 'order') === 'plane';
  const window = stringKnob(schedule, 'window');
  const u = numberKnob(schedule, 'unrollX');
  const cb = numberKnob(schedule, 'coBlock');
  const block = (c: number) => (plane ? planeOrder(window, c, u) : outputOrder(window, c, u));
  return `function kernel(inputs, dims) {
  const X = inputs.X, Wt = inputs.W;
  const Cin = dims.Cin, Cout = dims.Cout, H = dims.H, W = dims.W, OH = dims.OH, OW = dims.OW;
  const P = OH * OW;
  const Y = new Float32Array(Cout * P);
  ${plane ? `const acc = new Float64Array(${cb} * P);` : ''}
  let co = 0;
  for (; co + ${cb - 1} < Cout; co += ${cb}) {
    ${block(cb)}
  }
  ${cb > 1 ? `for (; co < Cout; co++) {\n    ${block(1)}\n  }` : ''}
  return { Y };
}`;
}

function dimsValid(d: Dims): string | null {
  if (d.OH !== d.H - 2) return `OH must be H − 2 (valid 3×3 convolution), got OH=${d.OH}, H=${d.H}`;
  if (d.OW !== d.W - 2) return `OW must be W − 2 (valid 3×3 convolution), got OW=${d.OW}, W=${d.W}`;
  return null;
}

/** Shape helper: every conv shape lists OH = H − 2 and OW = W − 2. */
function shape(Cin: number, Cout: number, H: number, W: number): Dims {
  return { Cin, Cout, H, W, OH: H - 2, OW: W - 2 };
}

/** Y[co,oy,ox] = Σ_{ci,ky,kx} X[ci,oy+ky,ox+kx]·W[co,ci,ky,kx] (valid padding, stride 1, CHW). */
export const conv2dTask: KernelTask = {
  id: 'conv2d',
  title: '3×3 convolution, valid padding (f32, CHW)',
  description:
    'Y[co,oy,ox] = Σ_ci Σ_ky Σ_kx X[ci,oy+ky,ox+kx]·W[co,ci,ky,kx] (cross-correlation as in deep learning, ' +
    'stride 1, no padding, no bias). Layout row-major: X is [Cin,H,W] (X[(ci*H+y)*W+x]), W is ' +
    '[Cout,Cin,3,3] (W[((co*Cin+ci)*3+ky)*3+kx]), Y is [Cout,OH,OW] with OH = H−2, OW = W−2 (the dims ' +
    'list OH and OW explicitly). 1 ≤ Cin, Cout ≤ 8, 3 ≤ H, W ≤ 128; X and W lie in [-1, 1]. ' +
    'Check: allclose with atol 5e-4, rtol 1e-4 (≤ 72 products per output; float32 accumulation passes).',
  dims: {
    Cin: { min: 1, max: 8 },
    Cout: { min: 1, max: 8 },
    H: { min: 3, max: 128 },
    W: { min: 3, max: 128 },
    OH: { min: 1, max: 126 },
    OW: { min: 1, max: 126 },
  },
  dimsValid,
  inputs: [
    { name: 'X', dtype: 'f32', shape: ['Cin', 'H', 'W'], range: [-1, 1] },
    { name: 'W', dtype: 'f32', shape: ['Cout', 'Cin', 3, 3], range: [-1, 1] },
  ],
  outputs: [{ name: 'Y', dtype: 'f32', shape: ['Cout', 'OH', 'OW'] }],
  tolerance: { atol: 5e-4, rtol: 1e-4 },
  edgeShapes: [
    shape(1, 1, 3, 3),
    shape(1, 1, 3, 128),
    shape(1, 1, 128, 3),
    shape(1, 3, 4, 5),
    shape(3, 1, 7, 11),
    shape(2, 5, 13, 6),
    shape(7, 3, 31, 17),
    shape(8, 8, 128, 128),
  ],
  timingShapes: [shape(4, 8, 64, 64), shape(8, 4, 34, 128)],
  heldOutShapes: [shape(3, 6, 50, 70), shape(8, 8, 40, 40), shape(1, 8, 100, 100)],
  reference,
  expert,
  template: { knobs, render },
  generate(dims, rng) {
    return {
      X: uniformF32(dims.Cin * dims.H * dims.W, -1, 1, rng),
      W: uniformF32(dims.Cout * dims.Cin * 9, -1, 1, rng),
    };
  },
};
