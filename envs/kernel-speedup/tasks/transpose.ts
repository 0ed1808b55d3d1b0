/** Matrix transpose: y[C,R] = x[R,C]ᵀ, float32, exact. */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

const reference = `function kernel(inputs, dims) {
  const x = inputs.x;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(C * R);
  for (let i = 0; i < R; i++) {
    for (let j = 0; j < C; j++) y[j * R + i] = x[i * C + j];
  }
  return { y };
}`;

/** 32×32 tiles, four input rows per sweep writing four consecutive outputs, copied as int32 bits. */
const expert = `function kernel(inputs, dims) {
  const x = inputs.x;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(C * R);
  const xi = new Int32Array(x.buffer, x.byteOffset, R * C);
  const yi = new Int32Array(y.buffer, y.byteOffset, C * R);
  const T = 32;
  for (let i0 = 0; i0 < R; i0 += T) {
    const i1 = Math.min(R, i0 + T);
    for (let j0 = 0; j0 < C; j0 += T) {
      const j1 = Math.min(C, j0 + T);
      let i = i0;
      const ih = i0 + ((i1 - i0) & 3);
      for (; i < ih; i++) {
        const r0 = i * C;
        for (let j = j0; j < j1; j++) yi[j * R + i] = xi[r0 + j];
      }
      for (; i < i1; i += 4) {
        const r0 = i * C, r1 = r0 + C, r2 = r1 + C, r3 = r2 + C;
        for (let j = j0; j < j1; j++) {
          const o = j * R + i;
          yi[o] = xi[r0 + j]; yi[o + 1] = xi[r1 + j]; yi[o + 2] = xi[r2 + j]; yi[o + 3] = xi[r3 + j];
        }
      }
    }
  }
  return { y };
}`;

const knobs: readonly Knob[] = [
  /** Square tile edge (0 = no tiling: whole rows). */
  { name: 'tile', options: [0, 8, 16, 32, 64] },
  /** Input rows per sweep of a tile (4 writes four consecutive outputs per column). */
  { name: 'rows', options: [1, 4] },
  /** rowRead: inner loop along a row of x (contiguous reads); colWrite: inner loop along a row of y (contiguous writes). */
  { name: 'order', options: ['rowRead', 'colWrite'] },
  /** f32: move float values; i32: move the raw 32-bit patterns through Int32Array views. */
  { name: 'view', options: ['f32', 'i32'] },
];

/** Only rows = 1 has a choice of inner loop; rows = 4 always walks along j. */
function legal(schedule: Schedule): boolean {
  return schedule.rows === 1 || schedule.order === 'rowRead';
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  if (!legal(schedule)) throw new Error('transpose: rows = 4 only with order = rowRead');
  const tile = numberKnob(schedule, 'tile');
  const rows = numberKnob(schedule, 'rows');
  const order = stringKnob(schedule, 'order');
  const i32 = stringKnob(schedule, 'view') === 'i32';
  const src = i32 ? 'xi' : 'x';
  const dst = i32 ? 'yi' : 'y';
  let inner: string;
  if (rows === 4) {
    inner = `let i = i0;
      ${peeledLoop(
        'i',
        'i1',
        4,
        `const r0 = i * C;
        for (let j = j0; j < j1; j++) ${dst}[j * R + i] = ${src}[r0 + j];`,
        `${unrolled(4, (t) => `const r${t} = (i + ${t}) * C;`)}
        for (let j = j0; j < j1; j++) {
          const o = j * R + i;
          ${unrolled(4, (t) => `${dst}[o + ${t}] = ${src}[r${t} + j];`)}
        }`,
      )}`;
  } else if (order === 'rowRead') {
    inner = `for (let i = i0; i < i1; i++) {
        const r0 = i * C;
        for (let j = j0; j < j1; j++) ${dst}[j * R + i] = ${src}[r0 + j];
      }`;
  } else {
    inner = `for (let j = j0; j < j1; j++) {
        const o = j * R;
        for (let i = i0; i < i1; i++) ${dst}[o + i] = ${src}[i * C + j];
      }`;
  }
  const TI = tile > 0 ? String(tile) : 'R';
  const TJ = tile > 0 ? String(tile) : 'C';
  return `function kernel(inputs, dims) {
  const x = inputs.x;
  const R = dims.R, C = dims.C;
  const y = new Float32Array(C * R);
  ${i32 ? 'const xi = new Int32Array(x.buffer, x.byteOffset, R * C);\n  const yi = new Int32Array(y.buffer, y.byteOffset, C * R);' : ''}
  for (let i0 = 0; i0 < R; i0 += ${TI}) {
    const i1 = Math.min(R, i0 + ${TI});
    for (let j0 = 0; j0 < C; j0 += ${TJ}) {
      const j1 = Math.min(C, j0 + ${TJ});
      ${inner}
    }
  }
  return { y };
}`;
}

/** y[j,i] = x[i,j] for a row-major [R,C] float32 matrix. */
export const transposeTask: KernelTask = {
  id: 'transpose',
  title: 'Matrix transpose (f32)',
  description:
    'y[j,i] = x[i,j]: x is a row-major [R,C] Float32Array (x[i*C+j]), y a row-major [C,R] Float32Array ' +
    '(y[j*R+i]). 1 ≤ R, C ≤ 2048; values lie in [-1e4, 1e4]. Exact: every output must equal its input ' +
    'element (tolerance 0/0).',
  dims: { R: { min: 1, max: 2048 }, C: { min: 1, max: 2048 } },
  inputs: [{ name: 'x', dtype: 'f32', shape: ['R', 'C'], range: [-1e4, 1e4] }],
  outputs: [{ name: 'y', dtype: 'f32', shape: ['C', 'R'] }],
  tolerance: { atol: 0, rtol: 0 },
  edgeShapes: [
    { R: 1, C: 1 },
    { R: 1, C: 2048 },
    { R: 2048, C: 1 },
    { R: 3, C: 5 },
    { R: 7, C: 67 },
    { R: 65, C: 33 },
    { R: 131, C: 257 },
    { R: 2048, C: 2048 },
  ],
  timingShapes: [
    { R: 1024, C: 256 },
    { R: 2048, C: 128 },
  ],
  heldOutShapes: [
    { R: 1000, C: 300 },
    { R: 256, C: 1500 },
    { R: 640, C: 384 },
  ],
  reference,
  expert,
  template: { knobs, render, legal },
  generate(dims, rng) {
    return { x: uniformF32(dims.R * dims.C, -1e4, 1e4, rng) };
  },
};
