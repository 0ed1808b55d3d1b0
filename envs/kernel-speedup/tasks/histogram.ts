/** Histogram of small unsigned integers into B bins (exact counts). */
import { checkSchedule, numberKnob, peeledLoop, stringKnob, unrolled } from './codegen';
import { uniformInt, uniformU32 } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

/** Largest value of the contract (and the largest bin count). */
const MAX_VALUE = 4095;

const reference = `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N, B = dims.B;
  const counts = new Int32Array(B);
  for (let i = 0; i < N; i++) {
    const v = x[i];
    if (v < B) counts[v]++;
  }
  return { counts };
}`;

/**
 * Two private count arrays padded to every value of the contract (no bounds test; values ≥ B land
 * in padding), alternating between them over an 8-way unrolled loop so repeated values do not
 * serialize on one counter, then merged; the N mod 8 leftover is counted first so the hot loop
 * comes last.
 */
const expert = `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N, B = dims.B;
  const S = ${MAX_VALUE + 1};
  const c = new Int32Array(2 * S);
  let i = 0;
  const head = N & 7;
  for (; i < head; i++) c[x[i]]++;
  for (; i < N; i += 8) {
    c[x[i]]++;
    c[S + x[i + 1]]++;
    c[x[i + 2]]++;
    c[S + x[i + 3]]++;
    c[x[i + 4]]++;
    c[S + x[i + 5]]++;
    c[x[i + 6]]++;
    c[S + x[i + 7]]++;
  }
  const counts = new Int32Array(B);
  for (let b = 0; b < B; b++) counts[b] = c[b] + c[S + b];
  return { counts };
}`;

const knobs: readonly Knob[] = [
  /** Private count arrays (element i counts into copy i mod copies), merged at the end. */
  { name: 'copies', options: [1, 2, 4, 8] },
  /** Elements per loop step (a multiple of copies). */
  { name: 'unroll', options: [1, 2, 4, 8] },
  /** branch: test v < B before counting; padded: size the counts for every contract value, no test. */
  { name: 'guard', options: ['branch', 'padded'] },
];

/** unroll must be a multiple of copies. */
function legal(schedule: Schedule): boolean {
  const c = Number(schedule.copies);
  const u = Number(schedule.unroll);
  return u >= c && u % c === 0;
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  if (!legal(schedule)) throw new Error('histogram: unroll must be a multiple of copies');
  const copies = numberKnob(schedule, 'copies');
  const u = numberKnob(schedule, 'unroll');
  const padded = stringKnob(schedule, 'guard') === 'padded';
  const add = (copy: number, v: string) => {
    const off = copy === 0 ? '' : `${copy} * S + `;
    return padded ? `c[${off}${v}]++;` : `{ const v = ${v}; if (v < B) c[${off}v]++; }`;
  };
  return `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N, B = dims.B;
  const S = ${padded ? MAX_VALUE + 1 : 'B'};
  const c = new Int32Array(${copies} * S);
  let i = 0;
  ${peeledLoop('i', 'N', u, add(0, 'x[i]'), unrolled(u, (t) => add(t % copies, `x[i + ${t}]`)))}
  ${
    copies === 1
      ? 'const counts = S === B ? c : c.slice(0, B);'
      : `const counts = new Int32Array(B);
  for (let b = 0; b < B; b++) counts[b] = ${unrolled(copies, (k) => (k === 0 ? 'c[b]' : `c[${k} * S + b]`), ' + ')};`
  }
  return { counts };
}`;
}

/** counts[b] = #{ i : x[i] = b } for b < B; values ≥ B are not counted. */
export const histogramTask: KernelTask = {
  id: 'histogram',
  title: 'Histogram (u32 → i32 counts)',
  description:
    'counts[b] = number of i with x[i] = b, for 0 ≤ b < B. x is a Uint32Array of length N with values ' +
    `in [0, ${MAX_VALUE}]; values ≥ B are ignored (not counted anywhere). counts is an Int32Array of ` +
    'length B. 1 ≤ N ≤ 2^20, 1 ≤ B ≤ 4096. Exact (tolerance 0/0). Generated inputs are uniform over ' +
    'the bins with about one value in eight drawn from [B, 4095] instead (when B < 4096).',
  dims: { N: { min: 1, max: 1 << 20 }, B: { min: 1, max: MAX_VALUE + 1 } },
  inputs: [{ name: 'x', dtype: 'u32', shape: ['N'], range: [0, MAX_VALUE] }],
  outputs: [{ name: 'counts', dtype: 'i32', shape: ['B'] }],
  tolerance: { atol: 0, rtol: 0 },
  edgeShapes: [
    { N: 1, B: 1 },
    { N: 1, B: 4096 },
    { N: 7, B: 1 },
    { N: 13, B: 3 },
    { N: 1000, B: 4096 },
    { N: 65537, B: 17 },
    { N: 1 << 20, B: 4096 },
  ],
  timingShapes: [
    { N: 1 << 19, B: 16 },
    { N: 1 << 19, B: 1024 },
  ],
  heldOutShapes: [
    { N: 300000, B: 256 },
    { N: 1 << 20, B: 5 },
  ],
  reference,
  expert,
  template: { knobs, render, legal },
  generate(dims, rng) {
    // Uniform over the bins, except that (when B < 4096) about one value in eight is drawn uniformly
    // from [B, 4095]: the contract allows those and every check should see them ignored.
    const x = uniformU32(dims.N, 0, dims.B - 1, rng);
    if (dims.B <= MAX_VALUE) {
      for (let i = 0; i < x.length; i++) if (rng.next() < 0.125) x[i] = uniformInt(dims.B, MAX_VALUE, rng);
    }
    return { x };
  },
};
