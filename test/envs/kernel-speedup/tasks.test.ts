import { kernelTask, kernelTasks } from '../../../envs/kernel-speedup/tasks';
import type { DType, Dims, KernelTask, Schedule, TypedArrayOf } from '../../../envs/kernel-speedup/tasks/task';
import { Rng } from '../../../src/core/rng';

type Tensors = Record<string, TypedArrayOf>;
type Kernel = (inputs: Tensors, dims: Dims) => Tensors;

/** Compiles a kernel source the way the tests do until the sandbox exists (strict mode: no stray globals). */
function compile(src: string): Kernel {
  const make = new Function(`"use strict"; return (${src});`) as () => Kernel;
  const kernel = make();
  expect(typeof kernel).toBe('function');
  return kernel;
}

const CTOR: Record<DType, new (n: number) => TypedArrayOf> = { f32: Float32Array, i32: Int32Array, u32: Uint32Array };

function numel(shape: readonly (string | number)[], dims: Dims): number {
  return shape.reduce<number>((n, d) => n * (typeof d === 'number' ? d : dims[d]), 1);
}

/** Every schedule of the template (mixed radix over the knobs), legal ones only. */
function legalSchedules(task: KernelTask): Schedule[] {
  let all: Schedule[] = [{}];
  for (const knob of task.template.knobs) {
    all = all.flatMap((s) => knob.options.map((o) => ({ ...s, [knob.name]: o })));
  }
  return all.filter((s) => !task.template.legal || task.template.legal(s));
}

// Bound once: global lookups inside hot loops are very slow in jest's vm context.
const abs = Math.abs;

/** First failing element of allclose(actual, expected), or null. */
function mismatch(actual: TypedArrayOf, expected: TypedArrayOf, atol: number, rtol: number): string | null {
  if (actual.constructor !== expected.constructor) return `dtype ${actual.constructor.name} ≠ ${expected.constructor.name}`;
  if (actual.length !== expected.length) return `length ${actual.length} ≠ ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (!(abs(a - e) <= atol + rtol * abs(e))) return `element ${i}: got ${a}, expected ${e}`;
  }
  return null;
}

function copyOf(tensors: Tensors): Tensors {
  const out: Tensors = {};
  for (const [name, t] of Object.entries(tensors)) out[name] = t.slice();
  return out;
}

/** Runs `kernel` and checks output dtypes and lengths against the task's declared outputs. */
function runChecked(task: KernelTask, kernel: Kernel, inputs: Tensors, dims: Dims): Tensors {
  const before = copyOf(inputs);
  const out = kernel(inputs, dims);
  for (const [name, t] of Object.entries(before)) expect(mismatch(inputs[name], t, 0, 0)).toBeNull();
  for (const spec of task.outputs) {
    const t = out[spec.name];
    expect(t).toBeInstanceOf(CTOR[spec.dtype]);
    expect(t.length).toBe(numel(spec.shape, dims));
  }
  return out;
}

const f32 = (xs: number[]) => Float32Array.from(xs);

describe('kernel task catalogue', () => {
  test('at least ten tasks with unique ids, found by kernelTask', () => {
    expect(kernelTasks.length).toBeGreaterThanOrEqual(10);
    const ids = kernelTasks.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of kernelTasks) expect(kernelTask(t.id)).toBe(t);
  });

  test('kernelTask names the unknown id and the known ones', () => {
    expect(() => kernelTask('nope')).toThrow(/"nope".*matmul.*softmax/);
  });
});

describe.each(kernelTasks.map((t) => [t.id, t] as const))('%s', (_id, task) => {
  const allShapes = [...task.edgeShapes, ...task.timingShapes, ...task.heldOutShapes];

  test('contract is well formed and every listed shape is inside it', () => {
    expect(task.title.length).toBeGreaterThan(0);
    expect(task.description.length).toBeGreaterThan(40);
    for (const r of Object.values(task.dims)) {
      expect(Number.isInteger(r.min) && Number.isInteger(r.max) && r.min >= 1 && r.min <= r.max).toBe(true);
    }
    for (const spec of [...task.inputs, ...task.outputs]) {
      for (const d of spec.shape) if (typeof d === 'string') expect(task.dims[d]).toBeDefined();
    }
    expect(task.tolerance.atol).toBeGreaterThanOrEqual(0);
    expect(task.tolerance.rtol).toBeGreaterThanOrEqual(0);
    expect(task.timingShapes.length).toBeGreaterThanOrEqual(1);
    expect(task.timingShapes.length).toBeLessThanOrEqual(3);
    expect(task.heldOutShapes.length).toBeGreaterThanOrEqual(2);
    for (const shape of allShapes) {
      expect(Object.keys(shape).sort()).toEqual(Object.keys(task.dims).sort());
      for (const [name, r] of Object.entries(task.dims)) {
        expect(Number.isInteger(shape[name]) && shape[name] >= r.min && shape[name] <= r.max).toBe(true);
      }
      expect(task.dimsValid ? task.dimsValid(shape) : null).toBeNull();
    }
  });

  test('template space has 12–200 combinations, every knob at least two options', () => {
    let size = 1;
    for (const knob of task.template.knobs) {
      expect(knob.options.length).toBeGreaterThanOrEqual(2);
      size *= knob.options.length;
    }
    expect(task.template.knobs.length).toBeGreaterThanOrEqual(2);
    expect(task.template.knobs.length).toBeLessThanOrEqual(4);
    expect(size).toBeGreaterThanOrEqual(12);
    expect(size).toBeLessThanOrEqual(200);
    // Every option of every knob appears in some legal schedule.
    const legal = legalSchedules(task);
    for (const knob of task.template.knobs) {
      for (const o of knob.options) expect(legal.some((s) => s[knob.name] === o)).toBe(true);
    }
    const bad: Schedule = { ...legal[0], [task.template.knobs[0].name]: '__nope__' };
    expect(() => task.template.render(bad)).toThrow(/__nope__/);
  });

  test('generate is seeded and stays inside the declared dtypes, lengths and ranges', () => {
    for (const dims of task.edgeShapes.slice(0, 6)) {
      const a = task.generate(dims, Rng.fromSeed(5));
      const b = task.generate(dims, Rng.fromSeed(5));
      expect(Object.keys(a).sort()).toEqual(task.inputs.map((s) => s.name).sort());
      for (const spec of task.inputs) {
        const t = a[spec.name];
        expect(t).toBeInstanceOf(CTOR[spec.dtype]);
        expect(t.length).toBe(numel(spec.shape, dims));
        expect(mismatch(t, b[spec.name], 0, 0)).toBeNull();
        const [lo, hi] = spec.range;
        let outside = 0;
        let subnormal = 0;
        for (let i = 0; i < t.length; i++) {
          const v = t[i];
          if (!(v >= lo && v <= hi)) outside++;
          if (v !== 0 && abs(v) < 2 ** -126) subnormal++;
        }
        expect(outside).toBe(0);
        if (!spec.subnormals) expect(subnormal).toBe(0);
      }
    }
  });

  test('expert and every legal template schedule match the reference on edge shapes and a timing shape', () => {
    const reference = compile(task.reference);
    const candidates: [string, Kernel][] = [
      ['expert', compile(task.expert)],
      ...legalSchedules(task).map((s): [string, Kernel] => [JSON.stringify(s), compile(task.template.render(s))]),
    ];
    const { atol, rtol } = task.tolerance;
    for (const dims of [...task.edgeShapes, task.timingShapes[0]]) {
      const inputs = task.generate(dims, Rng.fromSeed(`${task.id}:${JSON.stringify(dims)}`));
      const expected = runChecked(task, reference, inputs, dims);
      for (const [name, kernel] of candidates) {
        const out = runChecked(task, kernel, inputs, dims);
        for (const spec of task.outputs) {
          const bad = mismatch(out[spec.name], expected[spec.name], atol, rtol);
          if (bad) throw new Error(`${task.id} ${name} on ${JSON.stringify(dims)}: ${spec.name} ${bad}`);
        }
      }
    }
  });
});

describe('references agree with independent checks', () => {
  const run = (id: string, inputs: Tensors, dims: Dims): Tensors => compile(kernelTask(id).reference)(inputs, dims);
  const near = (actual: TypedArrayOf, expected: number[], tol = 1e-6) => {
    expect(actual.length).toBe(expected.length);
    expected.forEach((e, i) => expect(Math.abs(actual[i] - e)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(e))));
  };

  test('matmul: 2×2 and 2×3·3×1 by hand', () => {
    near(run('matmul', { A: f32([1, 2, 3, 4]), B: f32([5, 6, 7, 8]) }, { M: 2, N: 2, K: 2 }).C, [19, 22, 43, 50]);
    near(run('matmul', { A: f32([1, 0, -1, 0.5, 0.5, 0.5]), B: f32([2, 3, 4]) }, { M: 2, N: 1, K: 3 }).C, [-2, 4.5]);
  });

  test('softmax: rows sum to 1, [0, ln 2] → [1/3, 2/3], shift invariant', () => {
    near(run('softmax', { x: f32([0, Math.LN2, 5, 5]) }, { R: 2, C: 2 }).y, [1 / 3, 2 / 3, 0.5, 0.5]);
    const dims = { R: 4, C: 33 };
    const x = kernelTask('softmax').generate(dims, Rng.fromSeed(1)).x as Float32Array;
    const y = run('softmax', { x }, dims).y;
    for (let r = 0; r < dims.R; r++) {
      let s = 0;
      for (let c = 0; c < dims.C; c++) s += y[r * dims.C + c];
      expect(Math.abs(s - 1)).toBeLessThan(1e-5);
    }
    const shifted = run('softmax', { x: x.map((v) => v - 3) }, dims).y;
    near(shifted, Array.from(y), 1e-5);
  });

  test('rmsnorm: [3, 4] with weights [1, 2] by hand', () => {
    const rms = Math.sqrt((9 + 16) / 2 + 1e-5);
    near(run('rmsnorm', { x: f32([3, 4]), w: f32([1, 2]) }, { R: 1, C: 2 }).y, [3 / rms, 8 / rms]);
  });

  test('conv2d: box filter by hand and an independent nested-array convolution', () => {
    const ones = new Float32Array(9).fill(1);
    const x = f32([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]); // 1×3×4
    near(run('conv2d', { X: x, W: ones }, { Cin: 1, Cout: 1, H: 3, W: 4, OH: 1, OW: 2 }).Y, [54, 63]);
    const dims = { Cin: 2, Cout: 3, H: 5, W: 6, OH: 3, OW: 4 };
    const { X, W } = kernelTask('conv2d').generate(dims, Rng.fromSeed(2));
    const img = (ci: number, y: number, xx: number) => X[(ci * dims.H + y) * dims.W + xx];
    const wt = (co: number, ci: number, ky: number, kx: number) => W[co * dims.Cin * 9 + ci * 9 + ky * 3 + kx];
    const expected: number[] = [];
    for (let co = 0; co < dims.Cout; co++) {
      for (let y = 0; y < dims.OH; y++) {
        for (let xx = 0; xx < dims.OW; xx++) {
          let s = 0;
          for (const ci of [0, 1]) for (const ky of [0, 1, 2]) for (const kx of [0, 1, 2]) s += img(ci, y + ky, xx + kx) * wt(co, ci, ky, kx);
          expected.push(s);
        }
      }
    }
    near(run('conv2d', { X, W }, dims).Y, expected, 1e-5);
  });

  test('transpose: 2×3 by hand', () => {
    expect(Array.from(run('transpose', { x: f32([1, 2, 3, 4, 5, 6]) }, { R: 2, C: 3 }).y)).toEqual([1, 4, 2, 5, 3, 6]);
  });

  test('sum: by hand and against a float64 sum', () => {
    near(run('sum', { x: f32([1, 2, 3.5]) }, { N: 3 }).out, [6.5]);
    const x = kernelTask('sum').generate({ N: 1000 }, Rng.fromSeed(3)).x;
    near(run('sum', { x }, { N: 1000 }).out, [Array.from(x).reduce((a, b) => a + b, 0)], 1e-6);
  });

  test('prefix-sum: by hand; last element equals the sum', () => {
    near(run('prefix-sum', { x: f32([1, 2, 3, -4]) }, { N: 4 }).y, [1, 3, 6, 2]);
    const x = kernelTask('prefix-sum').generate({ N: 999 }, Rng.fromSeed(4)).x;
    const y = run('prefix-sum', { x }, { N: 999 }).y;
    expect(Math.abs(y[998] - Array.from(x).reduce((a, b) => a + b, 0))).toBeLessThan(1e-4);
  });

  test('histogram: by hand; counts sum to the number of in-range values', () => {
    const x = Uint32Array.from([0, 1, 1, 3, 5, 4095, 3]);
    expect(Array.from(run('histogram', { x }, { N: 7, B: 4 }).counts)).toEqual([1, 2, 0, 2]);
    const dims = { N: 5000, B: 37 };
    const g = kernelTask('histogram').generate(dims, Rng.fromSeed(5)).x;
    const inRange = Array.from(g).filter((v) => v < dims.B).length;
    expect(inRange).toBeLessThan(dims.N); // generated data includes values ≥ B, which must be ignored
    const counts = run('histogram', { x: g }, dims).counts;
    expect(Array.from(counts).reduce((a, b) => a + b, 0)).toBe(inRange);
    for (let b = 0; b < dims.B; b++) expect(counts[b]).toBe(Array.from(g).filter((v) => v === b).length);
  });

  test('sort: equals Array.sort with a numeric comparator, duplicates and ±0 included', () => {
    near(run('sort', { x: f32([3, -1, 2, -1, 0]) }, { N: 5 }).y, [-1, -1, 0, 2, 3]);
    const dims = { N: 3000 };
    const x = kernelTask('sort').generate(dims, Rng.fromSeed(6)).x;
    expect(new Set(Array.from(x)).size).toBeLessThan(dims.N);
    const plus = (xs: ArrayLike<number>) => Array.from(xs, (v) => v + 0); // −0 and +0 compare equal
    expect(plus(run('sort', { x }, dims).y)).toEqual(plus(Array.from(x).sort((a, b) => a - b)));
  });

  test('attention: T = 1 gives V; a 2×1 case by hand; an independent 2-D array version', () => {
    near(run('attention', { Q: f32([0.3, -0.2]), K: f32([0.9, 0.1]), V: f32([0.25, -0.5]) }, { T: 1, D: 2 }).O, [0.25, -0.5]);
    // T = 2, D = 1: scores q·k, weights softmax per row.
    const q = [1, -1];
    const k = [0.5, -0.5];
    const v = [1, -1];
    const expected = q.map((qi) => {
      const e = k.map((kj) => Math.exp(qi * kj));
      return (e[0] * v[0] + e[1] * v[1]) / (e[0] + e[1]);
    });
    near(run('attention', { Q: f32(q), K: f32(k), V: f32(v) }, { T: 2, D: 1 }).O, expected);
    const dims = { T: 9, D: 5 };
    const { Q, K, V } = kernelTask('attention').generate(dims, Rng.fromSeed(7));
    const row = (a: TypedArrayOf, i: number) => Array.from(a.subarray(i * dims.D, (i + 1) * dims.D));
    const out: number[] = [];
    for (let i = 0; i < dims.T; i++) {
      const scores = Array.from({ length: dims.T }, (_, j) => row(Q, i).reduce((s, qc, c) => s + qc * row(K, j)[c], 0) / Math.sqrt(dims.D));
      const m = Math.max(...scores);
      const w = scores.map((s) => Math.exp(s - m));
      const z = w.reduce((a, b) => a + b, 0);
      for (let c = 0; c < dims.D; c++) out.push(w.reduce((s, wj, j) => s + wj * V[j * dims.D + c], 0) / z);
    }
    near(run('attention', { Q, K, V }, dims).O, out, 1e-5);
  });
});
