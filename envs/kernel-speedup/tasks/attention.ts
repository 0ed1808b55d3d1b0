/** Single-head scaled dot-product attention: O = softmax(Q·Kᵀ/√d)·V over [T,d], float32. */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, sumOf, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

const reference = `function kernel(inputs, dims) {
  const Q = inputs.Q, K = inputs.K, V = inputs.V;
  const T = dims.T, D = dims.D;
  const O = new Float32Array(T * D);
  const scale = 1 / Math.sqrt(D);
  const p = new Float64Array(T);
  for (let i = 0; i < T; i++) {
    let m = -Infinity;
    for (let j = 0; j < T; j++) {
      let dot = 0;
      for (let c = 0; c < D; c++) dot += Q[i * D + c] * K[j * D + c];
      p[j] = dot * scale;
      if (p[j] > m) m = p[j];
    }
    let sum = 0;
    for (let j = 0; j < T; j++) {
      p[j] = Math.exp(p[j] - m);
      sum += p[j];
    }
    for (let c = 0; c < D; c++) {
      let acc = 0;
      for (let j = 0; j < T; j++) acc += p[j] * V[j * D + c];
      O[i * D + c] = acc / sum;
    }
  }
  return { O };
}`;

/**
 * Both products as register-blocked matmuls: S = Q·Kᵀ·scale and O = P·V (with V transposed so
 * both are dot products of contiguous float64 rows), 4×2 blocks of the output per pass, so each
 * load feeds two or four multiply-adds; the softmax normalizes P in place between them.
 */
const expert = `function kernel(inputs, dims) {
  const T = dims.T, D = dims.D;
  // out[i*NY + j] = scale · Σ_l X[i*L + l]·Y[j*L + l], in 4×2 register blocks.
  function abt(X, Y, NX, NY, L, out, scale) {
    let i = 0;
    for (; i + 3 < NX; i += 4) {
      const a0 = i * L, a1 = a0 + L, a2 = a1 + L, a3 = a2 + L, o = i * NY;
      let j = 0;
      for (; j + 1 < NY; j += 2) {
        const b0 = j * L, b1 = b0 + L;
        let s00 = 0, s01 = 0, s10 = 0, s11 = 0, s20 = 0, s21 = 0, s30 = 0, s31 = 0;
        for (let l = 0; l < L; l++) {
          const y0 = Y[b0 + l], y1 = Y[b1 + l];
          const x0 = X[a0 + l], x1 = X[a1 + l], x2 = X[a2 + l], x3 = X[a3 + l];
          s00 += x0 * y0; s01 += x0 * y1; s10 += x1 * y0; s11 += x1 * y1;
          s20 += x2 * y0; s21 += x2 * y1; s30 += x3 * y0; s31 += x3 * y1;
        }
        out[o + j] = s00 * scale; out[o + j + 1] = s01 * scale;
        out[o + NY + j] = s10 * scale; out[o + NY + j + 1] = s11 * scale;
        out[o + 2 * NY + j] = s20 * scale; out[o + 2 * NY + j + 1] = s21 * scale;
        out[o + 3 * NY + j] = s30 * scale; out[o + 3 * NY + j + 1] = s31 * scale;
      }
      if (j < NY) {
        const b0 = j * L;
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (let l = 0; l < L; l++) {
          const y = Y[b0 + l];
          s0 += X[a0 + l] * y; s1 += X[a1 + l] * y; s2 += X[a2 + l] * y; s3 += X[a3 + l] * y;
        }
        out[o + j] = s0 * scale; out[o + NY + j] = s1 * scale;
        out[o + 2 * NY + j] = s2 * scale; out[o + 3 * NY + j] = s3 * scale;
      }
    }
    for (; i < NX; i++) {
      const a0 = i * L, o = i * NY;
      for (let j = 0; j < NY; j++) {
        const b0 = j * L;
        let s = 0;
        for (let l = 0; l < L; l++) s += X[a0 + l] * Y[b0 + l];
        out[o + j] = s * scale;
      }
    }
  }
  const n = T * D;
  const q = inputs.Q, k = inputs.K, v = inputs.V;
  const Q = new Float64Array(n), K = new Float64Array(n), Vt = new Float64Array(n);
  for (let p = 0; p < n; p++) { Q[p] = q[p]; K[p] = k[p]; }
  for (let j = 0; j < T; j++) for (let c = 0; c < D; c++) Vt[c * T + j] = v[j * D + c];
  const S = new Float64Array(T * T);
  abt(Q, K, T, T, D, S, 1 / Math.sqrt(D));
  for (let i = 0; i < T; i++) {
    const o = i * T;
    let m = -Infinity;
    for (let j = 0; j < T; j++) if (S[o + j] > m) m = S[o + j];
    let sum = 0;
    for (let j = 0; j < T; j++) { const e = Math.exp(S[o + j] - m); S[o + j] = e; sum += e; }
    const inv = 1 / sum;
    for (let j = 0; j < T; j++) S[o + j] *= inv;
  }
  const O64 = new Float64Array(n);
  abt(S, Vt, T, D, T, O64, 1);
  const O = new Float32Array(n);
  for (let p = 0; p < n; p++) O[p] = O64[p];
  return { O };
}`;

const knobs: readonly Knob[] = [
  /** Independent accumulators per Q·K dot product. */
  { name: 'qkAcc', options: [1, 2, 4] },
  /** column: each output element as a dot down a column of V; axpy: add weighted rows of V into a row. */
  { name: 'pv', options: ['column', 'axpy'] },
  /** Query rows processed together (sharing each load of K and V). */
  { name: 'rows', options: [1, 2] },
  /** div: divide by the softmax sum; mul: multiply by its reciprocal. */
  { name: 'normalize', options: ['div', 'mul'] },
];

/** Attention for `r` query rows starting at i. */
function rowsBody(r: number, a: number, pv: string, mul: boolean): string {
  const R = (f: (row: number) => string, sep = '\n') => unrolled(r, f, sep);
  const fin = (row: number, v: string) => (mul ? `${v} * inv${row}` : `${v} / sum${row}`);
  const dotAccs = (row: number) => unrolled(a, (t) => `d${row}_${t} = 0`, ', ');
  const scores = `for (let j = 0; j < T; j++) {
      const kj = j * D;
      let ${R(dotAccs, ', ')};
      let c = 0;
      ${peeledLoop(
        'c',
        'D',
        a,
        `const kv = K[kj + c]; ${R((row) => `d${row}_0 += Q[q${row} + c] * kv;`, ' ')}`,
        unrolled(a, (t) => `{ const kv = K[kj + c + ${t}]; ${R((row) => `d${row}_${t} += Q[q${row} + c + ${t}] * kv;`, ' ')} }`),
      )}
      ${R((row) => `{ const s = ${sumOf(a, (t) => `d${row}_${t}`)} * scale; p${row}[j] = s; if (s > m${row}) m${row} = s; }`)}
    }`;
  const weights = `${R((row) => `let sum${row} = 0;`)}
    for (let j = 0; j < T; j++) {
      ${R((row) => `{ const e = Math.exp(p${row}[j] - m${row}); p${row}[j] = e; sum${row} += e; }`)}
    }
    ${mul ? R((row) => `const inv${row} = 1 / sum${row};`) : ''}`;
  const out =
    pv === 'column'
      ? `for (let c = 0; c < D; c++) {
      ${R((row) => `let acc${row} = 0;`)}
      for (let j = 0; j < T; j++) { const v = V[j * D + c]; ${R((row) => `acc${row} += p${row}[j] * v;`, ' ')} }
      ${R((row) => `O[q${row} + c] = ${fin(row, `acc${row}`)};`)}
    }`
      : `${R((row) => `o${row}.fill(0);`)}
    for (let j = 0; j < T; j++) {
      const vj = j * D;
      ${R((row) => `const w${row} = p${row}[j];`)}
      for (let c = 0; c < D; c++) { const v = V[vj + c]; ${R((row) => `o${row}[c] += w${row} * v;`, ' ')} }
    }
    for (let c = 0; c < D; c++) {
      ${R((row) => `O[q${row} + c] = ${fin(row, `o${row}[c]`)};`)}
    }`;
  return `{
    ${R((row) => `const q${row} = (i + ${row}) * D;`)}
    ${R((row) => `let m${row} = -Infinity;`)}
    ${scores}
    ${weights}
    ${out}
  }`;
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  const a = numberKnob(schedule, 'qkAcc');
  const pv = stringKnob(schedule, 'pv');
  const rows = numberKnob(schedule, 'rows');
  const mul = stringKnob(schedule, 'normalize') === 'mul';
  return `function kernel(inputs, dims) {
  const Q = inputs.Q, K = inputs.K, V = inputs.V;
  const T = dims.T, D = dims.D;
  const O = new Float32Array(T * D);
  const scale = 1 / Math.sqrt(D);
  ${unrolled(rows, (row) => `const p${row} = new Float64Array(T);`)}
  ${pv === 'axpy' ? unrolled(rows, (row) => `const o${row} = new Float64Array(D);`) : ''}
  let i = 0;
  for (; i + ${rows - 1} < T; i += ${rows}) ${rowsBody(rows, a, pv, mul)}
  ${rows > 1 ? `for (; i < T; i++) ${rowsBody(1, a, pv, mul)}` : ''}
  return { O };
}`;
}

/** O = softmax(Q·Kᵀ/√D)·V for one head, Q, K, V, O all [T,D] float32. */
export const attentionTask: KernelTask = {
  id: 'attention',
  title: 'Scaled dot-product attention (f32, one head, no mask)',
  description:
    'O = softmax(Q·Kᵀ/√D)·V, softmax over each row of the [T,T] score matrix (no mask, no causal ' +
    'restriction). Q, K, V and O are row-major [T,D] Float32Arrays (Q[t*D+c]); values of Q, K, V lie ' +
    'in [-1, 1]; 1 ≤ T ≤ 256, 1 ≤ D ≤ 128. Check: allclose with atol 1e-4, rtol 1e-3 (outputs are ' +
    'convex combinations of rows of V, so |O| ≤ 1).',
  dims: { T: { min: 1, max: 256 }, D: { min: 1, max: 128 } },
  inputs: [
    { name: 'Q', dtype: 'f32', shape: ['T', 'D'], range: [-1, 1] },
    { name: 'K', dtype: 'f32', shape: ['T', 'D'], range: [-1, 1] },
    { name: 'V', dtype: 'f32', shape: ['T', 'D'], range: [-1, 1] },
  ],
  outputs: [{ name: 'O', dtype: 'f32', shape: ['T', 'D'] }],
  tolerance: { atol: 1e-4, rtol: 1e-3 },
  edgeShapes: [
    { T: 1, D: 1 },
    { T: 1, D: 128 },
    { T: 256, D: 1 },
    { T: 2, D: 3 },
    { T: 5, D: 7 },
    { T: 33, D: 17 },
    { T: 127, D: 65 },
    { T: 256, D: 128 },
  ],
  timingShapes: [
    { T: 128, D: 64 },
    { T: 192, D: 24 },
  ],
  heldOutShapes: [
    { T: 200, D: 48 },
    { T: 64, D: 128 },
    { T: 150, D: 80 },
  ],
  reference,
  expert,
  template: { knobs, render },
  generate(dims, rng) {
    const n = dims.T * dims.D;
    return { Q: uniformF32(n, -1, 1, rng), K: uniformF32(n, -1, 1, rng), V: uniformF32(n, -1, 1, rng) };
  },
};
