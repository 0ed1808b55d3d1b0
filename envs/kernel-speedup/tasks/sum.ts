/** Sum reduction of a float32 vector to one element. */
import { checkSchedule, numberKnob, peeledLoop, sumOf, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

/** Largest N of the contract. */
const MAX_N = 1 << 20;

/**
 * atol = 8·sqrt(MAX_N)·max|x|·eps32 = 8·1024·1·2⁻²³ ≈ 9.8e-4, rounded to 1e-3: room for any
 * reordering of a float64 sum, and for blocked / pairwise float32 sums, whose error grows like
 * sqrt(n)·max|x|·eps; a plain sequential float32 sum of 2²⁰ terms does not fit.
 */
const ATOL = 1e-3;

const reference = `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  let s = 0;
  for (let i = 0; i < N; i++) s += x[i];
  const out = new Float32Array(1);
  out[0] = s;
  return { out };
}`;

/**
 * Eight elements per step into four float64 accumulators (pairs added first, which breaks the
 * add-latency chain); the N mod 8 leftover is summed before the main loop so the hot loop comes last.
 */
const expert = `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, i = 0;
  const head = N & 7;
  for (; i < head; i++) s0 += x[i];
  for (; i < N; i += 8) {
    s0 += x[i] + x[i + 4];
    s1 += x[i + 1] + x[i + 5];
    s2 += x[i + 2] + x[i + 6];
    s3 += x[i + 3] + x[i + 7];
  }
  const out = new Float32Array(1);
  out[0] = (s0 + s1) + (s2 + s3);
  return { out };
}`;

const knobs: readonly Knob[] = [
  /** Independent accumulators. */
  { name: 'accumulators', options: [1, 2, 4, 8] },
  /** Elements per loop step (a multiple of the accumulator count). */
  { name: 'unroll', options: [1, 2, 4, 8, 16] },
  /** Elements summed into a block total before it joins the running total (0 = no blocking). */
  { name: 'block', options: [0, 4096] },
];

/** unroll must be a multiple of accumulators (each accumulator gets the same number of lanes). */
function legal(schedule: Schedule): boolean {
  const a = Number(schedule.accumulators);
  const u = Number(schedule.unroll);
  return u >= a && u % a === 0;
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  if (!legal(schedule)) throw new Error('sum: unroll must be a multiple of accumulators');
  const a = numberKnob(schedule, 'accumulators');
  const u = numberKnob(schedule, 'unroll');
  const block = numberKnob(schedule, 'block');
  const loop = (end: string) => `let ${unrolled(a, (t) => `s${t} = 0`, ', ')};
    ${peeledLoop('i', end, u, 's0 += x[i];', unrolled(u, (t) => `s${t % a} += x[i + ${t}];`))}`;
  const body =
    block > 0
      ? `for (let b0 = 0; b0 < N; b0 += ${block}) {
    const b1 = Math.min(N, b0 + ${block});
    let i = b0;
    ${loop('b1')}
    total += ${sumOf(a, (t) => `s${t}`)};
  }`
      : `let i = 0;
  {
    ${loop('N')}
    total = ${sumOf(a, (t) => `s${t}`)};
  }`;
  return `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  let total = 0;
  ${body}
  const out = new Float32Array(1);
  out[0] = total;
  return { out };
}`;
}

/** out[0] = Σ_i x[i] for a float32 vector of length N. */
export const sumTask: KernelTask = {
  id: 'sum',
  title: 'Sum reduction (f32)',
  description:
    'out[0] = Σ_i x[i]. x is a Float32Array of length N with values in [-1, 1], 1 ≤ N ≤ 2^20; out is a ' +
    'Float32Array of length 1. Any summation order is accepted: the check is allclose with ' +
    'atol 1e-3 (= 8·sqrt(2^20)·max|x|·eps32, the error scale of a reordered or blocked float32 sum) ' +
    'and rtol 1e-5. A plain sequential float32 accumulation over 2^20 terms can exceed it.',
  dims: { N: { min: 1, max: MAX_N } },
  inputs: [{ name: 'x', dtype: 'f32', shape: ['N'], range: [-1, 1] }],
  outputs: [{ name: 'out', dtype: 'f32', shape: [1] }],
  tolerance: { atol: ATOL, rtol: 1e-5 },
  edgeShapes: [{ N: 1 }, { N: 2 }, { N: 3 }, { N: 15 }, { N: 17 }, { N: 4097 }, { N: 65521 }, { N: MAX_N }],
  timingShapes: [{ N: 1 << 20 }, { N: 300000 }],
  heldOutShapes: [{ N: 100000 }, { N: 777777 }],
  reference,
  expert,
  template: { knobs, render, legal },
  generate(dims, rng) {
    return { x: uniformF32(dims.N, -1, 1, rng) };
  },
};
