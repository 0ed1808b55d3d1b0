/** Matrix multiply: C[M,N] = A[M,K]·B[K,N] in float32, row-major. */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, sumOf, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

const reference = `function kernel(inputs, dims) {
  const A = inputs.A, B = inputs.B;
  const M = dims.M, N = dims.N, K = dims.K;
  const C = new Float32Array(M * N);
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
  }
  return { C };
}`;

/**
 * B transposed once; then 4×2 blocks of C as eight independent dot products over contiguous rows of
 * A and Bᵀ (each load feeds two or four multiply-adds); leftover columns and rows as plain dots.
 */
const expert = `function kernel(inputs, dims) {
  const A = inputs.A, B = inputs.B;
  const M = dims.M, N = dims.N, K = dims.K;
  const C = new Float32Array(M * N);
  const Bt = new Float32Array(N * K);
  for (let k = 0; k < K; k++) {
    const bo = k * N;
    for (let j = 0; j < N; j++) Bt[j * K + k] = B[bo + j];
  }
  let i = 0;
  for (; i + 3 < M; i += 4) {
    const a0 = i * K, a1 = a0 + K, a2 = a1 + K, a3 = a2 + K, c = i * N;
    let j = 0;
    for (; j + 1 < N; j += 2) {
      const b0 = j * K, b1 = b0 + K;
      let s00 = 0, s01 = 0, s10 = 0, s11 = 0, s20 = 0, s21 = 0, s30 = 0, s31 = 0;
      for (let k = 0; k < K; k++) {
        const y0 = Bt[b0 + k], y1 = Bt[b1 + k];
        const x0 = A[a0 + k], x1 = A[a1 + k], x2 = A[a2 + k], x3 = A[a3 + k];
        s00 += x0 * y0; s01 += x0 * y1; s10 += x1 * y0; s11 += x1 * y1;
        s20 += x2 * y0; s21 += x2 * y1; s30 += x3 * y0; s31 += x3 * y1;
      }
      C[c + j] = s00; C[c + j + 1] = s01;
      C[c + N + j] = s10; C[c + N + j + 1] = s11;
      C[c + 2 * N + j] = s20; C[c + 2 * N + j + 1] = s21;
      C[c + 3 * N + j] = s30; C[c + 3 * N + j + 1] = s31;
    }
    if (j < N) {
      const b0 = j * K;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let k = 0; k < K; k++) {
        const y = Bt[b0 + k];
        s0 += A[a0 + k] * y; s1 += A[a1 + k] * y; s2 += A[a2 + k] * y; s3 += A[a3 + k] * y;
      }
      C[c + j] = s0; C[c + N + j] = s1; C[c + 2 * N + j] = s2; C[c + 3 * N + j] = s3;
    }
  }
  for (; i < M; i++) {
    const a0 = i * K, c = i * N;
    for (let j = 0; j < N; j++) {
      const b0 = j * K;
      let s = 0;
      for (let k = 0; k < K; k++) s += A[a0 + k] * Bt[b0 + k];
      C[c + j] = s;
    }
  }
  return { C };
}`;

const knobs: readonly Knob[] = [
  /** ijk: dot products down B's columns; ikj: rows of B scaled into a row of C; bt: dots against B transposed. */
  { name: 'order', options: ['ijk', 'ikj', 'bt'] },
  /** Rows of C computed together (sharing each load of B). */
  { name: 'rows', options: [1, 2, 4] },
  /** Inner-loop unroll: independent accumulators over k (ijk, bt) or columns per step (ikj). */
  { name: 'unroll', options: [1, 2, 4] },
  /** Block of k processed per sweep (0 = all of K at once). */
  { name: 'tileK', options: [0, 32, 128] },
];

/** Dot-product body (orders ijk and bt) for `r` rows starting at i, `u` accumulators per row. */
function dotRows(order: string, r: number, u: number, target: string): string {
  const bAt = (off: string) => (order === 'bt' ? `Bt[bj + ${off}]` : `B[(${off}) * N + j]`);
  const accs = (row: number) => unrolled(u, (t) => `s${row}_${t} = 0`, ', ');
  return `{
    ${unrolled(r, (row) => `const a${row} = (i + ${row}) * K;`)}
    for (let j = 0; j < N; j++) {
      ${order === 'bt' ? 'const bj = j * K;' : ''}
      let ${unrolled(r, accs, ', ')};
      let k = k0;
      ${peeledLoop(
        'k',
        'k1',
        u,
        `const b0 = ${bAt('k')};\n${unrolled(r, (row) => `s${row}_0 += A[a${row} + k] * b0;`)}`,
        unrolled(u, (t) => `const b${t} = ${bAt(`k + ${t}`)};\n${unrolled(r, (row) => `s${row}_${t} += A[a${row} + k + ${t}] * b${t};`)}`),
      )}
      ${unrolled(r, (row) => `${target}[(i + ${row}) * N + j] ${target === 'acc' ? '+=' : '='} ${sumOf(u, (t) => `s${row}_${t}`)};`)}
    }
  }`;
}

/** Row-axpy body (order ikj) for `r` rows starting at i, columns unrolled by `u`, into acc. */
function axpyRows(r: number, u: number): string {
  return `{
    ${unrolled(r, (row) => `const a${row} = (i + ${row}) * K, c${row} = (i + ${row}) * N;`)}
    for (let k = k0; k < k1; k++) {
      ${unrolled(r, (row) => `const x${row} = A[a${row} + k];`)}
      const bo = k * N;
      let j = 0;
      ${peeledLoop(
        'j',
        'N',
        u,
        `const b0 = B[bo + j];\n${unrolled(r, (row) => `acc[c${row} + j] += x${row} * b0;`)}`,
        unrolled(u, (t) => `const b${t} = B[bo + j + ${t}];\n${unrolled(r, (row) => `acc[c${row} + j + ${t}] += x${row} * b${t};`)}`),
      )}
    }
  }`;
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  const order = stringKnob(schedule, 'order');
  const rows = numberKnob(schedule, 'rows');
  const u = numberKnob(schedule, 'unroll');
  const tileK = numberKnob(schedule, 'tileK');
  const useAcc = order === 'ikj' || tileK > 0;
  const target = useAcc ? 'acc' : 'C';
  const body = (r: number) => (order === 'ikj' ? axpyRows(r, u) : dotRows(order, r, u, target));
  return `function kernel(inputs, dims) {
  const A = inputs.A, B = inputs.B;
  const M = dims.M, N = dims.N, K = dims.K;
  const C = new Float32Array(M * N);
  ${useAcc ? 'const acc = new Float64Array(M * N);' : ''}
  ${
    order === 'bt'
      ? `const Bt = new Float32Array(N * K);
  for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) Bt[j * K + k] = B[k * N + j];`
      : ''
  }
  const TK = ${tileK > 0 ? tileK : 'K'};
  for (let k0 = 0; k0 < K; k0 += TK) {
    const k1 = Math.min(K, k0 + TK);
    let i = 0;
    for (; i + ${rows - 1} < M; i += ${rows}) ${body(rows)}
    ${rows > 1 ? `for (; i < M; i++) ${body(1)}` : ''}
  }
  ${useAcc ? 'for (let p = 0; p < M * N; p++) C[p] = acc[p];' : ''}
  return { C };
}`;
}

/** C[M,N] = A[M,K]·B[K,N], float32 in and out, row-major. */
export const matmulTask: KernelTask = {
  id: 'matmul',
  title: 'Matrix multiply (f32)',
  description:
    'C[M,N] = A[M,K]·B[K,N]. A, B and C are row-major Float32Arrays (A[i*K+k], B[k*N+j], C[i*N+j]); ' +
    'values of A and B lie in [-1, 1]; 1 ≤ M, N, K ≤ 256. Any summation order and float32 or float64 ' +
    'accumulation is accepted: the check is allclose with atol 1e-3, rtol 1e-3 (float32 accumulation ' +
    'over K ≤ 256 products of magnitude ≤ 1 stays well inside it).',
  dims: { M: { min: 1, max: 256 }, N: { min: 1, max: 256 }, K: { min: 1, max: 256 } },
  inputs: [
    { name: 'A', dtype: 'f32', shape: ['M', 'K'], range: [-1, 1] },
    { name: 'B', dtype: 'f32', shape: ['K', 'N'], range: [-1, 1] },
  ],
  outputs: [{ name: 'C', dtype: 'f32', shape: ['M', 'N'] }],
  tolerance: { atol: 1e-3, rtol: 1e-3 },
  edgeShapes: [
    { M: 1, N: 1, K: 1 },
    { M: 1, N: 256, K: 1 },
    { M: 256, N: 1, K: 3 },
    { M: 2, N: 3, K: 256 },
    { M: 7, N: 13, K: 33 },
    { M: 31, N: 17, K: 129 },
    { M: 64, N: 127, K: 64 },
    { M: 256, N: 256, K: 256 },
  ],
  timingShapes: [
    { M: 128, N: 128, K: 128 },
    { M: 64, N: 192, K: 96 },
  ],
  heldOutShapes: [
    { M: 100, N: 150, K: 120 },
    { M: 200, N: 64, K: 160 },
    { M: 96, N: 96, K: 250 },
  ],
  reference,
  expert,
  template: { knobs, render },
  generate(dims, rng) {
    return {
      A: uniformF32(dims.M * dims.K, -1, 1, rng),
      B: uniformF32(dims.K * dims.N, -1, 1, rng),
    };
  },
};
