/** Ascending sort of a float32 vector (exact). */
import { checkSchedule, numberKnob, stringKnob } from './codegen';
import { uniformF32, uniformInt } from './random-inputs';
import type { Knob, KernelTask, Schedule } from './task';

/** Bound of the contract's value range. */
const LIMIT = 1e4;

const reference = `function kernel(inputs, dims) {
  const y = inputs.x.slice(0, dims.N);
  y.sort();
  return { y };
}`;

/**
 * LSD radix sort on the float bits: the bits are mapped to unsigned keys whose integer order is the
 * float order (negatives: all bits flipped; positives: sign bit set), three stable 11-bit counting
 * passes, mapped back. Equal values have equal bits, so the output is bit-identical to the reference
 * (−0 before +0 as TypedArray.prototype.sort orders them). Tiny inputs use insertion sort.
 */
const expert = `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  const y = new Float32Array(N);
  if (N <= 32) {
    for (let i = 0; i < N; i++) {
      const v = x[i];
      let k = i - 1;
      while (k >= 0 && y[k] > v) { y[k + 1] = y[k]; k--; }
      y[k + 1] = v;
    }
    return { y };
  }
  const bits = new Int32Array(x.buffer, x.byteOffset, N);
  let a = new Int32Array(N), b = new Int32Array(N);
  const c0 = new Int32Array(2048), c1 = new Int32Array(2048), c2 = new Int32Array(1024);
  for (let i = 0; i < N; i++) {
    const u = bits[i];
    const k = u < 0 ? ~u : u ^ -2147483648;
    a[i] = k;
    c0[k & 2047]++;
    c1[(k >>> 11) & 2047]++;
    c2[k >>> 22]++;
  }
  const counts = [c0, c1, c2], shifts = [0, 11, 22], masks = [2047, 2047, 1023];
  for (let p = 0; p < 3; p++) {
    const c = counts[p], sh = shifts[p], mask = masks[p];
    if (c[(a[0] >>> sh) & mask] === N) continue;
    let run = 0;
    for (let d = 0; d <= mask; d++) { const t = c[d]; c[d] = run; run += t; }
    for (let i = 0; i < N; i++) { const k = a[i]; b[c[(k >>> sh) & mask]++] = k; }
    const t = a; a = b; b = t;
  }
  const out = new Int32Array(y.buffer, y.byteOffset, N);
  for (let i = 0; i < N; i++) { const k = a[i]; out[i] = k < 0 ? k ^ -2147483648 : ~k; }
  return { y };
}`;

const knobs: readonly Knob[] = [
  /** builtin: TypedArray.prototype.sort; radix: LSD radix sort on the float bits. */
  { name: 'method', options: ['builtin', 'radix'] },
  /** Bits per radix pass (8: four passes, 11: three, 16: two). */
  { name: 'bits', options: [8, 11, 16] },
  /** Inputs up to this length use insertion sort instead (0 = never). */
  { name: 'cutoff', options: [0, 32] },
  /** yes: skip a pass whose digit is the same for every key (checked from a histogram made up front). */
  { name: 'skipTrivial', options: ['no', 'yes'] },
];

/** The builtin sort has no radix settings: it takes the first option of every other knob. */
function legal(schedule: Schedule): boolean {
  return schedule.method === 'radix' || (schedule.bits === 8 && schedule.cutoff === 0 && schedule.skipTrivial === 'no');
}

function render(schedule: Schedule): string {
  checkSchedule(knobs, schedule);
  if (!legal(schedule)) throw new Error('sort: builtin takes bits 8, cutoff 0, skipTrivial no');
  if (stringKnob(schedule, 'method') === 'builtin') return reference;
  const bitsPer = numberKnob(schedule, 'bits');
  const cutoff = numberKnob(schedule, 'cutoff');
  const skip = stringKnob(schedule, 'skipTrivial') === 'yes';
  const passes = Math.ceil(32 / bitsPer);
  const radix = 1 << bitsPer;
  const small =
    cutoff > 0
      ? `if (N <= ${cutoff}) {
    for (let i = 0; i < N; i++) {
      const v = x[i];
      let k = i - 1;
      while (k >= 0 && y[k] > v) { y[k + 1] = y[k]; k--; }
      y[k + 1] = v;
    }
    return { y };
  }`
      : '';
  // With skipTrivial, all digit histograms are built in the key pass; otherwise each pass counts its own.
  const pass = skip
    ? `const c = counts[p];
    if (c[(a[0] >>> sh) & ${radix - 1}] === N) continue;`
    : `const c = counts[0];
    c.fill(0);
    for (let i = 0; i < N; i++) c[(a[i] >>> sh) & ${radix - 1}]++;`;
  return `function kernel(inputs, dims) {
  const x = inputs.x;
  const N = dims.N;
  const y = new Float32Array(N);
  ${small}
  const bits = new Int32Array(x.buffer, x.byteOffset, N);
  let a = new Int32Array(N), b = new Int32Array(N);
  const counts = [];
  for (let p = 0; p < ${skip ? passes : 1}; p++) counts.push(new Int32Array(${radix}));
  for (let i = 0; i < N; i++) {
    const u = bits[i];
    const k = u < 0 ? ~u : u ^ -2147483648;
    a[i] = k;
    ${skip ? `for (let p = 0; p < ${passes}; p++) counts[p][(k >>> (p * ${bitsPer})) & ${radix - 1}]++;` : ''}
  }
  for (let p = 0; p < ${passes}; p++) {
    const sh = p * ${bitsPer};
    ${pass}
    let run = 0;
    for (let d = 0; d < ${radix}; d++) { const t = c[d]; c[d] = run; run += t; }
    for (let i = 0; i < N; i++) { const k = a[i]; b[c[(k >>> sh) & ${radix - 1}]++] = k; }
    const t = a; a = b; b = t;
  }
  const out = new Int32Array(y.buffer, y.byteOffset, N);
  for (let i = 0; i < N; i++) { const k = a[i]; out[i] = k < 0 ? k ^ -2147483648 : ~k; }
  return { y };
}`;
}

/** y = x sorted ascending (numeric order) for a float32 vector without NaN. */
export const sortTask: KernelTask = {
  id: 'sort',
  title: 'Ascending sort (f32)',
  description:
    'y = the elements of x in ascending numeric order. x and y are Float32Arrays of length N, ' +
    `1 ≤ N ≤ 2^16; values lie in [-${LIMIT}, ${LIMIT}] (so no NaN and no infinities; duplicates are ` +
    'common; no subnormals). −0 and +0 are both allowed and compare equal: the check is numeric and ' +
    'exact (tolerance 0/0), so their relative order is free (the reference, TypedArray.prototype.sort, ' +
    'puts −0 first).',
  dims: { N: { min: 1, max: 1 << 16 } },
  inputs: [{ name: 'x', dtype: 'f32', shape: ['N'], range: [-LIMIT, LIMIT] }],
  outputs: [{ name: 'y', dtype: 'f32', shape: ['N'] }],
  tolerance: { atol: 0, rtol: 0 },
  edgeShapes: [{ N: 1 }, { N: 2 }, { N: 3 }, { N: 31 }, { N: 32 }, { N: 33 }, { N: 1000 }, { N: 1 << 16 }],
  timingShapes: [{ N: 1 << 15 }, { N: 20000 }],
  heldOutShapes: [{ N: 50000 }, { N: 5000 }],
  reference,
  expert,
  template: { knobs, render, legal },
  generate(dims, rng) {
    // Half the values come from a small set of integers (duplicates, ±0), half uniform over the range.
    const x = uniformF32(dims.N, -LIMIT, LIMIT, rng);
    for (let i = 0; i < dims.N; i++) {
      if (rng.next() < 0.5) {
        const v = uniformInt(-64, 64, rng);
        x[i] = v === 0 && rng.next() < 0.5 ? -0 : v;
      }
    }
    return { x };
  },
};
