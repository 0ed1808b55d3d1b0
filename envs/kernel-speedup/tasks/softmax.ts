/** Row-wise softmax over a [R,C] float32 matrix. */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, sumOf, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

const reference = `function kernel(inputs, dims) {
  const x = inputs.x;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(R * C);
  for (let r = 0; r < R; r++) {
    const base = r * C;
    let m = -Infinity;
    for (let j = 0; j < C; j++) if (x[base + j] > m) m = x[base + j];
    let s = 0;
    for (let j = 0; j < C; j++) s += Math.exp(x[base + j] - m);
    for (let j = 0; j < C; j++) y[base + j] = Math.exp(x[base + j] - m) / s;
  }
  return { y };
}`;

/**
 * One exp per element kept in a float64 row buffer, max and sum unrolled, one reciprocal per row;
 * leftovers of every unrolled loop are handled before it, so each hot loop comes last.
 */
const expert = `function kernel(inputs, dims) {
  const x = inputs.x;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(R * C);
  const e = new Float64Array(C);
  const exp = Math.exp;
  const h4 = C & 3;
  for (let r = 0; r < R; r++) {
    const base = r * C;
    let m0 = -Infinity, m1 = -Infinity, m2 = -Infinity, m3 = -Infinity, j = 0;
    for (; j < h4; j++) { const v = x[base + j]; if (v > m0) m0 = v; }
    for (; j < C; j += 4) {
      const v0 = x[base + j], v1 = x[base + j + 1], v2 = x[base + j + 2], v3 = x[base + j + 3];
      if (v0 > m0) m0 = v0;
      if (v1 > m1) m1 = v1;
      if (v2 > m2) m2 = v2;
      if (v3 > m3) m3 = v3;
    }
    const m = Math.max(Math.max(m0, m1), Math.max(m2, m3));
    let s0 = 0, s1 = 0;
    j = 0;
    if (C & 1) { const e0 = exp(x[base] - m); e[0] = e0; s0 = e0; j = 1; }
    for (; j < C; j += 2) {
      const e0 = exp(x[base + j] - m), e1 = exp(x[base + j + 1] - m);
      e[j] = e0; e[j + 1] = e1;
      s0 += e0; s1 += e1;
    }
    const inv = 1 / (s0 + s1);
    for (j = 0; j < h4; j++) y[base + j] = e[j] * inv;
    for (; j < C; j += 4) {
      y[base + j] = e[j] * inv; y[base + j + 1] = e[j + 1] * inv;
      y[base + j + 2] = e[j + 2] * inv; y[base + j + 3] = e[j + 3] * inv;
    }
  }
  return { y };
}`;

const knobs: readonly Knob[] = [
  /** three: max, sum of exps, exp again and normalize; store: keep the exps (one exp each); online: max and sum in one pass. */
  { name: 'passes', options: ['three', 'store', 'online'] },
  /** Independent lanes for the max / sum loops and unroll of the normalize loop. */
  { name: 'unroll', options: [1, 2, 4] },
  /** div: divide every element by the sum; mul: multiply by one reciprocal per row. */
  { name: 'normalize', options: ['div', 'mul'] },
];

/** Lane loop over the row: `step(t, v)` per element v in lane t; the leftover runs first in lane 0. */
function lanes(u: number, step: (t: number, v: string) => string): string {
  return `let j = 0;
    ${peeledLoop('j', 'C', u, `const v = x[base + j]; ${step(0, 'v')}`, unrolled(u, (t) => `{ const v = x[base + j + ${t}]; ${step(t, 'v')} }`))}`;
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  const passes = stringKnob(schedule, 'passes');
  const u = numberKnob(schedule, 'unroll');
  const mul = stringKnob(schedule, 'normalize') === 'mul';
  const scale = (v: string) => (mul ? `${v} * inv` : `${v} / s`);
  let stats: string;
  if (passes === 'online') {
    stats = `${unrolled(u, (t) => `let m${t} = -Infinity, s${t} = 0;`)}
    {
    ${lanes(u, (t, v) => `if (${v} > m${t}) { s${t} = s${t} * Math.exp(m${t} - ${v}) + 1; m${t} = ${v}; } else s${t} += Math.exp(${v} - m${t});`)}
    }
    const m = Math.max(${unrolled(u, (t) => `m${t}`, ', ')});
    const s = ${sumOf(u, (t) => `(s${t} === 0 ? 0 : s${t} * Math.exp(m${t} - m))`)};`;
  } else {
    const sumStep = passes === 'store' ? (t: number, v: string) => `const ev = Math.exp(${v} - m); e[j + ${t}] = ev; s${t} += ev;` : (t: number, v: string) => `s${t} += Math.exp(${v} - m);`;
    // The store variant indexes e[j + t]; the leftover runs with t = 0 at the current j.
    stats = `${unrolled(u, (t) => `let m${t} = -Infinity, s${t} = 0;`)}
    {
    ${lanes(u, (t, v) => `if (${v} > m${t}) m${t} = ${v};`)}
    }
    const m = Math.max(${unrolled(u, (t) => `m${t}`, ', ')});
    {
    ${lanes(u, sumStep)}
    }
    const s = ${sumOf(u, (t) => `s${t}`)};`;
  }
  const value = passes === 'store' ? (off: string) => `e[j${off}]` : (off: string) => `Math.exp(x[base + j${off}] - m)`;
  return `function kernel(inputs, dims) {
  const x = inputs.x;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(R * C);
  ${passes === 'store' ? 'const e = new Float64Array(C);' : ''}
  for (let r = 0; r < R; r++) {
    const base = r * C;
    ${stats}
    ${mul ? 'const inv = 1 / s;' : ''}
    let j = 0;
    ${peeledLoop('j', 'C', u, `y[base + j] = ${scale(value(''))};`, unrolled(u, (t) => `y[base + j + ${t}] = ${scale(value(` + ${t}`))};`))}
  }
  return { y };
}`;
}

/** y[r,:] = softmax(x[r,:]) for every row of a [R,C] float32 matrix. */
export const softmaxTask: KernelTask = {
  id: 'softmax',
  title: 'Row-wise softmax (f32)',
  description:
    'y[r,c] = exp(x[r,c] − max_c x[r,:]) / Σ_c exp(x[r,c] − max_c x[r,:]) for every row r. x and y are ' +
    'row-major [R,C] Float32Arrays (x[r*C+c]); values of x lie in [-16, 16]; 1 ≤ R ≤ 512, 1 ≤ C ≤ 4096. ' +
    'Check: allclose with atol 1e-6, rtol 1e-4 (outputs lie in [0, 1]).',
  dims: { R: { min: 1, max: 512 }, C: { min: 1, max: 4096 } },
  inputs: [{ name: 'x', dtype: 'f32', shape: ['R', 'C'], range: [-16, 16] }],
  outputs: [{ name: 'y', dtype: 'f32', shape: ['R', 'C'] }],
  tolerance: { atol: 1e-6, rtol: 1e-4 },
  edgeShapes: [
    { R: 1, C: 1 },
    { R: 512, C: 1 },
    { R: 1, C: 4096 },
    { R: 3, C: 2 },
    { R: 7, C: 5 },
    { R: 13, C: 257 },
    { R: 2, C: 1023 },
  ],
  timingShapes: [
    { R: 128, C: 1024 },
    { R: 512, C: 128 },
  ],
  heldOutShapes: [
    { R: 64, C: 2000 },
    { R: 300, C: 333 },
  ],
  reference,
  expert,
  template: { knobs, render },
  generate(dims, rng) {
    return { x: uniformF32(dims.R * dims.C, -16, 16, rng) };
  },
};
