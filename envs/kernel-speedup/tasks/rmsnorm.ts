/** RMSNorm over the rows of a [R,C] float32 matrix with a per-column weight. */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, sumOf, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

/** The epsilon added to the mean square (stated in the contract). */
const EPS = 1e-5;

const reference = `function kernel(inputs, dims) {
  const x = inputs.x, w = inputs.w;
  const R = dims.R, C = dims.C;
  const eps = ${EPS};
  const y = new Float32Array(R * C);
  for (let r = 0; r < R; r++) {
    let ss = 0;
    for (let j = 0; j < C; j++) ss += x[r * C + j] * x[r * C + j];
    const rms = Math.sqrt(ss / C + eps);
    for (let j = 0; j < C; j++) y[r * C + j] = (x[r * C + j] / rms) * w[j];
  }
  return { y };
}`;

/**
 * Eight accumulators for the sum of squares; one reciprocal per row; the scale loop unrolled by
 * four; the leftover of each unrolled loop handled before it, so each hot loop comes last.
 */
const expert = `function kernel(inputs, dims) {
  const x = inputs.x, w = inputs.w;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(R * C);
  const h8 = C & 7, h4 = C & 3;
  for (let r = 0; r < R; r++) {
    const base = r * C;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, j = 0;
    for (; j < h8; j++) { const v = x[base + j]; s0 += v * v; }
    for (; j < C; j += 8) {
      const v0 = x[base + j], v1 = x[base + j + 1], v2 = x[base + j + 2], v3 = x[base + j + 3];
      const v4 = x[base + j + 4], v5 = x[base + j + 5], v6 = x[base + j + 6], v7 = x[base + j + 7];
      s0 += v0 * v0; s1 += v1 * v1; s2 += v2 * v2; s3 += v3 * v3;
      s4 += v4 * v4; s5 += v5 * v5; s6 += v6 * v6; s7 += v7 * v7;
    }
    const ss = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    const inv = 1 / Math.sqrt(ss / C + ${EPS});
    for (j = 0; j < h4; j++) y[base + j] = x[base + j] * inv * w[j];
    for (; j < C; j += 4) {
      y[base + j] = x[base + j] * inv * w[j];
      y[base + j + 1] = x[base + j + 1] * inv * w[j + 1];
      y[base + j + 2] = x[base + j + 2] * inv * w[j + 2];
      y[base + j + 3] = x[base + j + 3] * inv * w[j + 3];
    }
  }
  return { y };
}`;

const knobs: readonly Knob[] = [
  /** Independent accumulators (and unroll) of the sum of squares. */
  { name: 'accumulators', options: [1, 2, 4, 8] },
  /** Unroll of the scaling loop. */
  { name: 'outUnroll', options: [1, 2, 4] },
  /** div: divide each element by the rms; mul: multiply by its reciprocal, computed once per row. */
  { name: 'normalize', options: ['div', 'mul'] },
];

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  const a = numberKnob(schedule, 'accumulators');
  const u = numberKnob(schedule, 'outUnroll');
  const mul = stringKnob(schedule, 'normalize') === 'mul';
  const scale = (off: string) => (mul ? `x[base + j${off}] * inv * w[j${off}]` : `(x[base + j${off}] / rms) * w[j${off}]`);
  return `function kernel(inputs, dims) {
  const x = inputs.x, w = inputs.w;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(R * C);
  for (let r = 0; r < R; r++) {
    const base = r * C;
    let ${unrolled(a, (t) => `s${t} = 0`, ', ')};
    let j = 0;
    ${peeledLoop('j', 'C', a, 'const v = x[base + j]; s0 += v * v;', unrolled(a, (t) => `{ const v = x[base + j + ${t}]; s${t} += v * v; }`))}
    const rms = Math.sqrt(${sumOf(a, (t) => `s${t}`)} / C + ${EPS});
    ${mul ? 'const inv = 1 / rms;' : ''}
    j = 0;
    ${peeledLoop('j', 'C', u, `y[base + j] = ${scale('')};`, unrolled(u, (t) => `y[base + j + ${t}] = ${scale(` + ${t}`)};`))}
  }
  return { y };
}`;
}

/** y[r,c] = x[r,c] / sqrt(mean(x[r,:]²) + 1e-5) · w[c]. */
export const rmsnormTask: KernelTask = {
  id: 'rmsnorm',
  title: 'RMSNorm (f32)',
  description:
    `y[r,c] = x[r,c] / sqrt((1/C)·Σ_c' x[r,c']² + eps) · w[c] with eps = ${EPS}. x and y are row-major ` +
    '[R,C] Float32Arrays (x[r*C+c]), w is a Float32Array of length C; x lies in [-4, 4], w in [-2, 2]; ' +
    '1 ≤ R ≤ 512, 1 ≤ C ≤ 4096. Check: allclose with atol 1e-5, rtol 1e-4.',
  dims: { R: { min: 1, max: 512 }, C: { min: 1, max: 4096 } },
  inputs: [
    { name: 'x', dtype: 'f32', shape: ['R', 'C'], range: [-4, 4] },
    { name: 'w', dtype: 'f32', shape: ['C'], range: [-2, 2] },
  ],
  outputs: [{ name: 'y', dtype: 'f32', shape: ['R', 'C'] }],
  tolerance: { atol: 1e-5, rtol: 1e-4 },
  edgeShapes: [
    { R: 1, C: 1 },
    { R: 512, C: 1 },
    { R: 1, C: 4096 },
    { R: 3, C: 7 },
    { R: 5, C: 9 },
    { R: 17, C: 131 },
    { R: 512, C: 4096 },
  ],
  timingShapes: [
    { R: 256, C: 1024 },
    { R: 512, C: 512 },
  ],
  heldOutShapes: [
    { R: 100, C: 3000 },
    { R: 400, C: 257 },
  ],
  reference,
  expert,
  template: { knobs, render },
  generate(dims, rng) {
    return {
      x: uniformF32(dims.R * dims.C, -4, 4, rng),
      w: uniformF32(dims.C, -2, 2, rng),
    };
  },
};
