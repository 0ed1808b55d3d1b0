/**
 * The pure parts of the measurement, by hand: medians and the bootstrap interval, allclose with
 * NaN and infinity rules, the precision rule, the instrumentation, attack inputs, schedule indices.
 */
import { createContext, runInContext } from 'node:vm';
import { kernelTask, kernelTasks } from '../../../envs/kernel-speedup/tasks';
import { Rng } from '../../../src/core/rng';
import { isLegalSchedule, legalScheduleIndices, scheduleAt, scheduleCount, scheduleIndex } from '../../../envs/kernel-speedup/tasks/schedule';
import {
  attackProblem,
  bootstrapMedianInterval,
  compareOutputs,
  countShortMantissas,
  lowerPrecision,
  materializeAttack,
  median,
  outputsHash,
  prepareKernel,
  quantileSorted,
  robustCv,
  seededShapes,
  smoothingBandwidth,
  standardDeviation,
  coefficientOfVariation,
} from '../../../envs/kernel-speedup/measure';
import { mean } from '../../../envs/kernel-speedup/measure/stats';

const f32 = (xs: number[]) => Float32Array.from(xs);

describe('statistics', () => {
  test('median, quantiles and the robust CV by hand', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantileSorted([10, 20], 0.5)).toBe(15);
    // median 2, |x − 2| = [1, 0, 0, 1, 98] → MAD 1 → 1.4826 / 2
    expect(robustCv([1, 2, 2, 3, 100])).toBeCloseTo(0.7413, 4);
  });

  test('the bootstrap interval is seeded and holds the median; identical values give a point', () => {
    const xs = [0.9, 1.1, 1.0, 0.95, 1.05, 1.02, 0.98, 1.01, 0.99, 1.03];
    const a = bootstrapMedianInterval(xs, 'seed', 1000);
    expect(bootstrapMedianInterval(xs, 'seed', 1000)).toEqual(a);
    expect(a.lo).toBeLessThanOrEqual(median(xs));
    expect(a.hi).toBeGreaterThanOrEqual(median(xs));
    // without smoothing the resampled medians are sample values: the interval stays inside the data
    const plain = bootstrapMedianInterval(xs, 'seed', 1000, 0.95, false);
    expect(plain.lo).toBeGreaterThanOrEqual(Math.min(...xs));
    expect(plain.hi).toBeLessThanOrEqual(Math.max(...xs));
    expect(bootstrapMedianInterval([2, 2, 2, 2, 2], 1)).toEqual({ lo: 2, hi: 2 });
  });

  test("Silverman's bandwidth by hand: 0.9 · min(sd, IQR/1.34) · n^(-1/5)", () => {
    // [1, 2, 3, 4]: sd = 1.2910, IQR (type 7) = 3.25 − 1.75 = 1.5 → 1.5/1.34 = 1.1194; 0.9 · 1.1194 · 4^(−0.2) = 0.7665
    expect(smoothingBandwidth([1, 2, 3, 4])).toBeCloseTo(0.9 * (1.5 / 1.34) * Math.pow(4, -0.2), 12);
    expect(smoothingBandwidth([3, 3, 3])).toBe(0);
  });

  test('coverage: the smoothed 95% interval of a median of 30 holds the true median ≥ 95% of the time (simulated, seeded)', () => {
    const rng = Rng.fromSeed('coverage');
    const gauss = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    let hits = 0;
    const reps = 300;
    for (let r = 0; r < reps; r++) {
      // a contaminated normal around 0 (log ratios of an A/A run on a busy machine)
      const xs = Array.from({ length: 30 }, () => (rng.next() < 0.7 ? 0.02 : 0.15) * gauss());
      const ci = bootstrapMedianInterval(xs, r, 500);
      if (ci.lo <= 0 && ci.hi >= 0) hits++;
    }
    expect(hits / reps).toBeGreaterThanOrEqual(0.95);
  });
});

describe('allclose', () => {
  const tol = { atol: 1e-3, rtol: 1e-2 };
  test('|a − e| ≤ atol + rtol·|e|, counted per element, first mismatch reported', () => {
    // e = 10: allowed 0.101; e = 0: allowed 0.001
    const r = compareOutputs(['y'], { y: f32([10.1, 0.0009, 0.002]) }, { y: f32([10, 0, 0]) }, tol);
    expect(r.mismatches).toBe(1);
    expect(r.total).toBe(3);
    expect(r.first).toEqual({ output: 'y', index: 2, actual: Math.fround(0.002), expected: 0 });
    expect(r.maxAbsError).toBeCloseTo(0.1, 5);
  });

  test('NaN matches only NaN, an infinity only the same infinity; JSON-safe reports', () => {
    const e = f32([NaN, Infinity, 1, 2]);
    expect(compareOutputs(['y'], { y: f32([NaN, Infinity, 1, 2]) }, { y: e }, tol).ok).toBe(true);
    const bad = compareOutputs(['y'], { y: f32([0, -Infinity, NaN, Infinity]) }, { y: e }, tol);
    expect(bad.mismatches).toBe(4);
    expect(bad.first).toEqual({ output: 'y', index: 0, actual: 0, expected: 'NaN' });
  });

  test('integer outputs compare exactly with zero tolerance', () => {
    const z = { atol: 0, rtol: 0 };
    expect(compareOutputs(['c'], { c: Uint32Array.from([1, 2]) }, { c: Uint32Array.from([1, 2]) }, z).ok).toBe(true);
    expect(compareOutputs(['c'], { c: Uint32Array.from([1, 3]) }, { c: Uint32Array.from([1, 2]) }, z).mismatches).toBe(1);
  });

  test('hashes recognise the same result bit for bit', () => {
    expect(outputsHash(['y'], { y: f32([1, 2]) })).toBe(outputsHash(['y'], { y: f32([1, 2]) }));
    expect(outputsHash(['y'], { y: f32([1, 2]) })).not.toBe(outputsHash(['y'], { y: f32([1, 2.0000002]) }));
    expect(outputsHash(['y'], { y: f32([0]) })).not.toBe(outputsHash(['y'], { y: f32([0, 0]) }));
  });

  test('the precision rule: float16 mantissas in ≥ 90% of ≥ 64 values while the reference has < 50%', () => {
    const full = Float32Array.from({ length: 100 }, (_, i) => 1 + i / 977);
    const half = full.map((v) => {
      const u = new Uint32Array(Float32Array.of(v).buffer);
      u[0] &= ~0x1fff;
      return new Float32Array(u.buffer)[0];
    });
    const count = (t: Float32Array) => {
      const c = { values: 0, short: 0 };
      countShortMantissas(t, c);
      return c;
    };
    expect(count(half)).toEqual({ values: 100, short: 100 });
    expect(lowerPrecision(count(half), count(full))).toBe(true);
    expect(lowerPrecision(count(full), count(full))).toBe(false);
    expect(lowerPrecision(count(half), count(half))).toBe(false); // the reference itself is that coarse (small integers)
    expect(lowerPrecision(count(half.subarray(0, 10)), count(full))).toBe(false); // too few values to say
  });
});

describe('instrumentation', () => {
  test('a counter at the top of every catch block; the wrapper copies exactly the outputs', () => {
    const p = prepareKernel('function kernel(i, d) { try { a(); } catch (e) { b(); } try { c(); } catch { d(); } return { y: i.x }; }', ['y']);
    if (!p.ok) throw new Error(p.message);
    expect(p.catches).toBe(2);
    expect(p.source).toContain('catch (e) { __ksCaught[0]++;  b(); }');
    expect(p.source).toContain('catch { __ksCaught[0]++;  d(); }');
    expect(p.source).toContain('const __ksNames = ["y"];');
  });

  test('runs as intended in a plain context: probe counts caught exceptions and getters', () => {
    const p = prepareKernel('function kernel(i, d) { let n = 0; for (let k = 0; k < d.n; k++) { try { null.x; } catch (e) { n++; } } return { get y() { return new Float32Array(n); } }; }', ['y']);
    if (!p.ok) throw new Error(p.message);
    // evaluated in a throwaway vm context only to check the wrapper's logic (the lab runs it in an isolate)
    const context = createContext({});
    const measured = runInContext(p.source, context) as (i: object, d: object) => Record<string, ArrayLike<number>>;
    const out = measured({}, { n: 3 });
    expect(out.y.length).toBe(3);
    expect(Array.from(out.__ksProbe)).toEqual([3, 1]);
    // code generation is gone from the kernel's global, through every function constructor
    expect(() => runInContext('eval("1")', context)).toThrow(/code generation from strings/);
    expect(() => runInContext('(async function () {}).constructor("return 1")', context)).toThrow(/code generation from strings/);
  });

  test('syntax errors, several expressions and reserved names are refused before anything runs', () => {
    expect(prepareKernel('function (', ['y'])).toMatchObject({ ok: false, code: 'syntax-error' });
    expect(prepareKernel('function a() {}; function b() {}', ['y'])).toMatchObject({ ok: false, code: 'syntax-error' });
    expect(prepareKernel('function k() { return __ksNames; }', ['y'])).toMatchObject({ ok: false, code: 'forbidden', message: expect.stringMatching(/__ksNames/) });
    expect(prepareKernel('(() => { class A { #__ksX = 1; } return () => 0; })()', ['y'])).toMatchObject({ ok: false, code: 'forbidden' });
    expect(prepareKernel('function k() { return 1; } // trailing comment', ['y']).ok).toBe(true);
  });
});

describe('attack inputs', () => {
  const softmax = kernelTask('softmax');
  const histogram = kernelTask('histogram');
  test('inside the contract: fill, cycle, uniform, explicit lists', () => {
    expect(attackProblem(softmax, { dims: { R: 2, C: 3 }, inputs: { x: { fill: 16 } } })).toBeNull();
    expect(attackProblem(softmax, { dims: { R: 2, C: 3 }, inputs: { x: [16, -16, 0, 1, 2, 3] } })).toBeNull();
    expect(attackProblem(softmax, { dims: { R: 2, C: 3 }, inputs: { x: { cycle: [16, -16] } } })).toBeNull();
    expect(attackProblem(softmax, { dims: { R: 2, C: 3 }, inputs: { x: { uniform: [-16, 16], seed: 3 } } })).toBeNull();
    const m = materializeAttack(softmax, { dims: { R: 2, C: 3 }, inputs: { x: { cycle: [16, -16] } } });
    expect(Array.from(m.x)).toEqual([16, -16, 16, -16, 16, -16]);
    const u = materializeAttack(histogram, { dims: { N: 50, B: 7 }, inputs: { x: { uniform: [0, 4095], seed: 1 } } }).x;
    expect(u).toBeInstanceOf(Uint32Array);
    expect(Array.from(u).every((v) => Number.isInteger(v) && v >= 0 && v <= 4095)).toBe(true);
  });

  test('outside the contract, each naming what is wrong', () => {
    expect(attackProblem(softmax, { dims: { R: 2, C: 3 }, inputs: { x: { fill: 17 } } })).toMatch(/inputs\.x\.fill: 17 .*outside the range \[-16, 16\]/);
    expect(attackProblem(softmax, { dims: { R: 0, C: 3 }, inputs: { x: { fill: 1 } } })).toMatch(/dims\.R must be an integer in \[1, 512\]/);
    expect(attackProblem(softmax, { dims: { R: 1, C: 3 }, inputs: { x: [1, 2] } })).toMatch(/has 2 values; .* needs 3/);
    expect(attackProblem(softmax, { dims: { R: 1, C: 2 }, inputs: { x: [1, NaN] } })).toMatch(/inputs\.x\[1\]: .*not a finite number/);
    expect(attackProblem(softmax, { dims: { R: 1, C: 2 }, inputs: { x: [1, 1e-40] } })).toMatch(/subnormal/);
    expect(attackProblem(softmax, { dims: { R: 1, C: 2 }, inputs: {} })).toMatch(/inputs\.x is missing/);
    expect(attackProblem(softmax, { dims: { R: 1, C: 2 }, inputs: { x: { fill: 1 }, z: { fill: 1 } } })).toMatch(/unknown tensor "z"/);
    expect(attackProblem(softmax, { dims: { R: 512, C: 4096 }, inputs: { x: Array(5000).fill(0) } })).toMatch(/has 5000 values/);
    expect(attackProblem(histogram, { dims: { N: 2, B: 2 }, inputs: { x: [1.5, 2] } })).toMatch(/not an integer/);
    expect(attackProblem(kernelTask('conv2d'), { dims: { Cin: 1, Cout: 1, H: 5, W: 5, OH: 2, OW: 3 }, inputs: { X: { fill: 0 }, W: { fill: 0 } } })).toMatch(/OH must be H − 2/);
    expect(attackProblem(softmax, null)).toMatch(/an attack is an object/);
  });
});

describe('schedule indices (mixed radix, first knob most significant)', () => {
  const matmul = kernelTask('matmul');
  test('matmul by hand: 3·3·3·3 = 81; index of {bt, 4, 2, 0} = ((2·3 + 2)·3 + 1)·3 + 0 = 75', () => {
    expect(scheduleCount(matmul)).toBe(81);
    expect(scheduleIndex(matmul, { order: 'bt', rows: 4, unroll: 2, tileK: 0 })).toBe(75);
    expect(scheduleAt(matmul, 75)).toEqual({ order: 'bt', rows: 4, unroll: 2, tileK: 0 });
    expect(scheduleAt(matmul, 0)).toEqual({ order: 'ijk', rows: 1, unroll: 1, tileK: 0 });
    expect(scheduleIndex(matmul, { order: 'bt', rows: 4, unroll: 2 })).toBe(-1);
    expect(() => scheduleAt(matmul, 81)).toThrow(/matmul: schedule index 81 is not in 0..80/);
  });

  test('round trip over every task; the legal list is the template rule', () => {
    for (const t of kernelTasks) {
      for (let i = 0; i < scheduleCount(t); i++) expect(scheduleIndex(t, scheduleAt(t, i))).toBe(i);
      const legal = legalScheduleIndices(t);
      expect(legal.length).toBeGreaterThan(0);
      for (let i = 0; i < scheduleCount(t); i++) expect(legal.includes(i)).toBe(!t.template.legal || t.template.legal(scheduleAt(t, i)));
    }
    // sum: unroll must be a multiple of accumulators: {8 accumulators, unroll 4} is illegal
    const sum = kernelTask('sum');
    expect(isLegalSchedule(sum, scheduleIndex(sum, { accumulators: 8, unroll: 4, block: 0 }))).toBe(false);
    expect(isLegalSchedule(sum, scheduleIndex(sum, { accumulators: 4, unroll: 8, block: 0 }))).toBe(true);
  });

  test('seeded correctness shapes: the timing shape first, then contract shapes', () => {
    const conv = kernelTask('conv2d');
    const shapes = seededShapes(conv, conv.timingShapes[0], 6, 9);
    expect(shapes).toHaveLength(6);
    expect(shapes[0]).toEqual(conv.timingShapes[0]);
    for (const s of shapes) expect(conv.dimsValid!(s)).toBeNull();
    expect(seededShapes(conv, conv.timingShapes[0], 6, 9)).toEqual(shapes);
  });
});

describe('statistics and allclose at their edges', () => {
  test('medians sort numerically (not as text); empty lists give NaN', () => {
    expect(median([10, 9, 1])).toBe(9);
    expect(median([100, 9, 20, 3])).toBe(14.5);
    expect(median([])).toBeNaN();
    expect(mean([])).toBeNaN();
    expect(mean([1, 2, 6])).toBe(3);
  });

  test('standard deviation and CV by hand: sample (n − 1) form, 0 below two values, an infinite CV at mean 0, the mean’s magnitude for negatives', () => {
    expect(standardDeviation([5])).toBe(0);
    expect(standardDeviation([2, 4])).toBeCloseTo(Math.SQRT2, 12);
    expect(standardDeviation([1, 2, 3, 4])).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(coefficientOfVariation([5])).toBe(0);
    // below two values the CV is 0 even where the mean is 0 or undefined
    expect(coefficientOfVariation([0])).toBe(0);
    expect(coefficientOfVariation([])).toBe(0);
    expect(coefficientOfVariation([2, 4])).toBeCloseTo(Math.SQRT2 / 3, 12);
    expect(coefficientOfVariation([-2, -4])).toBeCloseTo(Math.SQRT2 / 3, 12);
    expect(coefficientOfVariation([-1, 1])).toBe(Infinity);
    // mean 0 with no spread at all: still Infinity (not 0 / 0)
    expect(coefficientOfVariation([0, 0])).toBe(Infinity);
  });

  test('quantiles: both ends, interpolation, an empty list', () => {
    expect(quantileSorted([1, 2, 3, 4, 5], 0)).toBe(1);
    expect(quantileSorted([1, 2, 3, 4, 5], 1)).toBe(5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.9)).toBeCloseTo(4.6, 12);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });

  test('the bandwidth takes the smaller spread, and the standard deviation when the IQR is 0', () => {
    // [0, 0, 10, 10]: sd = √(100/3) = 5.77 < IQR/1.34 = 10/1.34 = 7.46
    expect(smoothingBandwidth([0, 0, 10, 10])).toBeCloseTo(0.9 * Math.sqrt(100 / 3) * Math.pow(4, -0.2), 12);
    // [1, 1, 1, 1, 5]: IQR 0, sd = √3.2
    expect(smoothingBandwidth([1, 1, 1, 1, 5])).toBeCloseTo(0.9 * Math.sqrt(3.2) * Math.pow(5, -0.2), 12);
    expect(smoothingBandwidth([7])).toBe(0);
    // two values are enough: [1, 3] has IQR 2.5 − 1.5 = 1, below sd = √2
    expect(smoothingBandwidth([1, 3])).toBeCloseTo(0.9 * (1 / 1.34) * Math.pow(2, -0.2), 12);
  });

  test('the interval is of the median, not of the data: each resample is sorted before its median is taken', () => {
    const xs = Array.from({ length: 101 }, (_, i) => i + 1);
    for (const smooth of [false, true]) {
      const ci = bootstrapMedianInterval(xs, 's', 1000, 0.95, smooth);
      expect(ci.lo).toBeGreaterThan(35);
      expect(ci.hi).toBeLessThan(67);
    }
  });

  test("each resample's median: the middle value for an odd count, the mean of the two middle ones for an even count", () => {
    // the centre (levels 0.495–0.505) of the plain bootstrap's medians; resamples of [0, 10] have median 5 half of the time
    expect(bootstrapMedianInterval([0, 10], 's', 1000, 0.01, false)).toEqual({ lo: 5, hi: 5 });
    // resamples of [0, 5, 10]: median 0 or 10 with 7/27 each, 5 with 13/27 (their largest value is 10 with 19/27)
    expect(bootstrapMedianInterval([0, 5, 10], 's', 1000, 0.01, false)).toEqual({ lo: 5, hi: 5 });
  });

  test('the smoothing noise is Gaussian with the bandwidth as its deviation: it widens the tails by a few bandwidths, never by a heavy tail', () => {
    // [-1, 1]: each resampled median is the mean of two values, each jittered by N(0, h²); the 99.9%
    // interval's ends lie about 2.9 · h/√2 beyond ±1 (a heavy-tailed jitter would put them many h out)
    const h = smoothingBandwidth([-1, 1]);
    for (const seed of ['s', 't', 1]) {
      const ci = bootstrapMedianInterval([-1, 1], seed, 2000, 0.999);
      expect(ci.lo).toBeGreaterThan(-1 - 3 * h);
      expect(ci.lo).toBeLessThan(-1 - h);
      expect(ci.hi).toBeGreaterThan(1 + h);
      expect(ci.hi).toBeLessThan(1 + 3 * h);
    }
  });

  test('the bootstrap of no value and of one value; a wider level gives a wider interval', () => {
    expect(bootstrapMedianInterval([], 1)).toEqual({ lo: NaN, hi: NaN });
    expect(bootstrapMedianInterval([7], 1)).toEqual({ lo: 7, hi: 7 });
    const xs = [0.9, 1.1, 1.0, 0.95, 1.05, 1.02, 0.98, 1.01, 0.99, 1.03, 1.2, 0.8];
    const narrow = bootstrapMedianInterval(xs, 's', 1000, 0.5);
    const wide = bootstrapMedianInterval(xs, 's', 1000, 0.99);
    expect(narrow.lo).toBeLessThan(narrow.hi);
    expect(wide.lo).toBeLessThan(narrow.lo);
    expect(wide.hi).toBeGreaterThan(narrow.hi);
    // even n without smoothing: each resampled median is a sample value or the mean of two
    const pairs = new Set<number>();
    for (const a of [1, 2, 3, 4]) for (const b of [1, 2, 3, 4]) pairs.add((a + b) / 2);
    const plain = bootstrapMedianInterval([1, 2, 3, 4], 's', 999, 0.5, false);
    expect(pairs.has(plain.lo) && pairs.has(plain.hi)).toBe(true);
  });

  const tol = { atol: 1e-3, rtol: 1e-2 };
  test('−Infinity matches only −Infinity; the first mismatch is the first in name order and index order', () => {
    expect(compareOutputs(['y'], { y: f32([-Infinity]) }, { y: f32([-Infinity]) }, tol).ok).toBe(true);
    expect(compareOutputs(['y'], { y: f32([-5]) }, { y: f32([-Infinity]) }, tol).first).toEqual({ output: 'y', index: 0, actual: -5, expected: '-Infinity' });
    const two = compareOutputs(['a', 'b'], { a: f32([0, 9, 9]), b: f32([9]) }, { a: f32([0, 1, 1]), b: f32([1]) }, tol);
    expect(two).toEqual({ ok: false, mismatches: 3, total: 4, maxAbsError: 8, first: { output: 'a', index: 1, actual: 9, expected: 1 } });
  });

  test('the largest error is over finite pairs only: an infinite actual value is a mismatch, not an infinite error', () => {
    const r = compareOutputs(['y'], { y: f32([Infinity, -Infinity, NaN, 1]) }, { y: f32([2, 2, 3, 1.5]) }, tol);
    expect(r).toMatchObject({ ok: false, mismatches: 4, total: 4, maxAbsError: 0.5 });
  });

  test('a missing or mis-sized output counts as wrong: its expected length, or one when the reference has none', () => {
    expect(compareOutputs(['y'], { y: f32([1, 2, 3]) }, { y: f32([1, 2]) }, tol)).toEqual({ ok: false, mismatches: 2, total: 2, maxAbsError: 0, first: { output: 'y', index: -1, actual: 3, expected: 2 } });
    expect(compareOutputs(['y'], { y: f32([1]) }, {}, tol)).toEqual({ ok: false, mismatches: 1, total: 1, maxAbsError: 0, first: { output: 'y', index: -1, actual: 1, expected: 'missing' } });
    expect(compareOutputs(['y'], {}, { y: f32([1, 2]) }, tol)).toEqual({ ok: false, mismatches: 2, total: 2, maxAbsError: 0, first: { output: 'y', index: -1, actual: 'missing', expected: 2 } });
    // a later good output does not clear an earlier failure
    expect(compareOutputs(['y', 'z'], { z: f32([1]) }, { y: f32([1]), z: f32([1]) }, tol)).toMatchObject({ ok: false, mismatches: 1, total: 2 });
  });

  test('hashes skip a missing output and depend on every name’s values', () => {
    const y = f32([1, 2]);
    expect(outputsHash(['y', 'z'], { y })).toBe(outputsHash(['y'], { y }));
    expect(outputsHash(['y', 'z'], { y, z: f32([3]) })).not.toBe(outputsHash(['y', 'z'], { y, z: f32([4]) }));
    expect(outputsHash([], {})).toBe((0x811c9dc5).toString(16));
  });

  test('the precision count skips zeros, NaN and both infinities; its thresholds are inclusive where the rule says so', () => {
    const c = { values: 0, short: 0 };
    countShortMantissas(f32([0, NaN, Infinity, -Infinity, 1, 1 + 2 ** -23]), c);
    expect(c).toEqual({ values: 2, short: 1 });
    expect(lowerPrecision({ values: 64, short: 64 }, { values: 64, short: 0 })).toBe(true);
    expect(lowerPrecision({ values: 63, short: 63 }, { values: 64, short: 0 })).toBe(false);
    expect(lowerPrecision({ values: 64, short: 64 }, { values: 63, short: 0 })).toBe(false);
    expect(lowerPrecision({ values: 100, short: 90 }, { values: 100, short: 49 })).toBe(true);
    expect(lowerPrecision({ values: 100, short: 89 }, { values: 100, short: 0 })).toBe(false);
    expect(lowerPrecision({ values: 100, short: 100 }, { values: 100, short: 50 })).toBe(false);
  });
});
