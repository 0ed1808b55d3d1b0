/** Inclusive prefix sum (scan) of a float32 vector. */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, unrolled } from './codegen';
import { uniformF32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

/** Largest N of the contract. */
const MAX_N = 1 << 20;

const reference = `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  const y = new Float32Array(N);
  let s = 0;
  for (let i = 0; i < N; i++) {
    s += x[i];
    y[i] = s;
  }
  return { y };
}`;

/**
 * Groups of four: the local prefix of a group does not depend on the running total, so the
 * dependency chain carries one add per four elements instead of one per element. The N mod 4
 * leftover is scanned first, so the hot loop comes last.
 */
const expert = `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  const y = new Float32Array(N);
  let s = 0, i = 0;
  const head = N & 3;
  for (; i < head; i++) { s += x[i]; y[i] = s; }
  for (; i < N; i += 4) {
    const p0 = x[i], p1 = p0 + x[i + 1], p2 = p1 + x[i + 2], p3 = p2 + x[i + 3];
    y[i] = s + p0; y[i + 1] = s + p1; y[i + 2] = s + p2; y[i + 3] = s + p3;
    s += p3;
  }
  return { y };
}`;

const knobs: readonly Knob[] = [
  /**
   * serial: one running total, unrolled; local: prefix within groups of `unroll` elements, then add the
   * carry; twoPass: block totals first, their scan, then each block scanned from its offset.
   */
  { name: 'method', options: ['serial', 'local', 'twoPass'] },
  /** Elements per loop step. */
  { name: 'unroll', options: [1, 2, 4, 8] },
  /** Block length of the two-pass scan (meaningful only for twoPass). */
  { name: 'block', options: [256, 4096] },
];

/** The block length only matters for the two-pass scan; other methods take the first option. */
function legal(schedule: Schedule): boolean {
  return schedule.method === 'twoPass' || schedule.block === 256;
}

/** Scan of x[i .. end) continuing the running total `s`, grouped by `u` (leftover first). */
function scanLoop(method: string, u: number, end: string): string {
  const group =
    method === 'serial'
      ? unrolled(u, (t) => `s += x[i + ${t}]; y[i + ${t}] = s;`)
      : `const p0 = x[i];
        ${unrolled(u - 1, (t) => `const p${t + 1} = p${t} + x[i + ${t + 1}];`)}
        ${unrolled(u, (t) => `y[i + ${t}] = s + p${t};`)}
        s += p${u - 1};`;
  return peeledLoop('i', end, u, 's += x[i]; y[i] = s;', group);
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  if (!legal(schedule)) throw new Error('prefix-sum: block applies to twoPass only');
  const method = stringKnob(schedule, 'method');
  const u = numberKnob(schedule, 'unroll');
  const block = numberKnob(schedule, 'block');
  const body =
    method === 'twoPass'
      ? `const NB = Math.ceil(N / ${block});
  const offs = new Float64Array(NB);
  let run = 0;
  for (let b = 0; b < NB; b++) {
    const b1 = Math.min(N, (b + 1) * ${block});
    let t = 0;
    for (let i = b * ${block}; i < b1; i++) t += x[i];
    offs[b] = run;
    run += t;
  }
  for (let b = 0; b < NB; b++) {
    const b1 = Math.min(N, (b + 1) * ${block});
    let s = offs[b], i = b * ${block};
    ${scanLoop('local', u, 'b1')}
  }`
      : `let s = 0, i = 0;
  ${scanLoop(method, u, 'N')}`;
  return `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  const y = new Float32Array(N);
  ${body}
  return { y };
}`;
}

/** y[i] = Σ_{k ≤ i} x[k] (inclusive scan) for a float32 vector. */
export const prefixSumTask: KernelTask = {
  id: 'prefix-sum',
  title: 'Inclusive prefix sum (f32)',
  description:
    'y[i] = Σ_{k=0..i} x[k] (inclusive scan). x and y are Float32Arrays of length N, 1 ≤ N ≤ 2^20, x in ' +
    '[-1, 1]. Any association order is accepted: the check is allclose with atol 1e-3 ' +
    '(= 8·sqrt(2^20)·max|x|·eps32, the error scale of a reordered or blocked float32 sum) and rtol 1e-5; ' +
    'a running total kept in float32 over 2^20 terms can exceed it, one kept in float64 cannot.',
  dims: { N: { min: 1, max: MAX_N } },
  inputs: [{ name: 'x', dtype: 'f32', shape: ['N'], range: [-1, 1] }],
  outputs: [{ name: 'y', dtype: 'f32', shape: ['N'] }],
  tolerance: { atol: 1e-3, rtol: 1e-5 },
  edgeShapes: [{ N: 1 }, { N: 2 }, { N: 3 }, { N: 7 }, { N: 257 }, { N: 4099 }, { N: 65537 }, { N: MAX_N }],
  timingShapes: [{ N: 1 << 19 }, { N: 200000 }],
  heldOutShapes: [{ N: 100003 }, { N: 1000000 }],
  reference,
  expert,
  template: { knobs, render, legal },
  generate(dims, rng) {
    return { x: uniformF32(dims.N, -1, 1, rng) };
  },
};
