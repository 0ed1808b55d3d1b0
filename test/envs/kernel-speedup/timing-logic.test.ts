/**
 * The timing protocol's logic against a scripted lab (a fake KernelLab: no sandbox, no clock, the
 * "times" are numbers the test chooses): alternating order, fresh inputs every trial, the same
 * inputs for both kernels of a trial, warm-up counts, the median and its interval by hand, and
 * the re-measure rule (a noisy first batch is followed by a second one; both noisy → flagged).
 */
import type { KernelArray, KernelCallResult, KernelLab, KernelOutputSpec } from '../../../src/core/sandbox';
import { kernelTask, measureKernel, outputsHash } from '../../../envs/kernel-speedup';

interface Call {
  name: string;
  dims: Record<string, number>;
  inputs: string;
}

/** A lab whose calls return zeros (so every output agrees) after `ns(name, timedIndex)` nanoseconds. */
function scriptedLab(ns: (name: string, timed: number) => number, timingDims: Record<string, number>): { lab: KernelLab; calls: Call[] } {
  const calls: Call[] = [];
  const seenTiming = { reference: 0, candidate: 0 } as Record<string, number>;
  const lab: KernelLab = {
    async open() {
      return {
        status: { reference: { code: 'ok' }, candidate: { code: 'ok' } },
        async call(name: string, inputs: Record<string, KernelArray>, dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
          calls.push({ name, dims, inputs: outputsHash(Object.keys(inputs), inputs) });
          const isTiming = Object.entries(timingDims).every(([k, v]) => dims[k] === v);
          // the timing shape's first call is the seeded correctness trial, then 5 warm-up calls
          const timed = isTiming ? seenTiming[name]++ - 6 : -1;
          const out: Record<string, KernelArray> = {};
          for (const o of outputs) out[o.name] = o.dtype === 'f32' ? new Float32Array(o.length) : o.dtype === 'i32' ? new Int32Array(o.length) : new Uint32Array(o.length);
          return { code: 'ok', ns: timed >= 0 ? ns(name, timed) : 1000, outputs: out, flags: [], modified: [] };
        },
        async close() {},
      };
    },
  };
  return { lab, calls };
}

// sort: the task with the fewest input elements over its edge and drawn shapes (fast measurements)
const task = kernelTask('sort');
const shape = { N: 777 };

describe('timing protocol (scripted lab)', () => {
  test('a steady 1.25×: median 1.25, interval = the point widened by the 2% resolution; ABAB order; fresh inputs', async () => {
    const { lab, calls } = scriptedLab((name) => (name === 'reference' ? 1.25e6 : 1e6), shape);
    const m = await measureKernel(lab, task, task.reference, { secret: 's1', shape });
    expect(m.code).toBe('ok');
    const t = m.timing!;
    expect(t.speedup).toBe(1.25);
    expect(t.lo).toBeCloseTo(1.25 / 1.02, 12);
    expect(t.hi).toBeCloseTo(1.25 * 1.02, 12);
    expect(t).toMatchObject({ trials: 30, warmup: 5, referenceNs: 1.25e6, candidateNs: 1e6, remeasured: false, noisy: false, cv: 0 });
    expect(m.flags).toEqual([]);
    // correctness calls: every edge shape, then 5 seeded shapes; then 5 warm-up and 30 timed pairs
    expect(calls).toHaveLength(2 * (task.edgeShapes.length + 5 + 5 + 30));
    // correctness: the reference first; warm-up alternates like the timed trials (A B, B A, …)
    const correctness = calls.slice(0, 2 * (task.edgeShapes.length + 5));
    expect(correctness.every((c, i) => c.name === (i % 2 ? 'candidate' : 'reference'))).toBe(true);
    const warmup = calls.slice(2 * (task.edgeShapes.length + 5), 2 * (task.edgeShapes.length + 5 + 5));
    expect(warmup.map((c) => c.name)).toEqual(['reference', 'candidate', 'candidate', 'reference', 'reference', 'candidate', 'candidate', 'reference', 'reference', 'candidate']);
    expect(warmup.every((c) => c.dims.N === shape.N)).toBe(true);
    const timed = calls.slice(2 * (task.edgeShapes.length + 5 + 5));
    for (let t2 = 0; t2 < 30; t2++) {
      const [a, b] = [timed[2 * t2], timed[2 * t2 + 1]];
      expect([a.name, b.name]).toEqual(t2 % 2 === 0 ? ['reference', 'candidate'] : ['candidate', 'reference']);
      expect(a.inputs).toBe(b.inputs); // both kernels of a trial get the same (fresh) inputs
    }
    const perTrial = new Set(timed.map((c) => c.inputs));
    expect(perTrial.size).toBe(30); // fresh inputs every trial
    expect(m.checkedCalls).toBe(35);
  });

  test('a noisy first batch is followed by a second: figures pool both, the interval spans both', async () => {
    // batch 0: ratios alternate 0.5 and 2 (robust CV far above 0.1); batch 1: a steady 1.1
    const { lab } = scriptedLab((name, k) => (name === 'candidate' ? 1e6 : k < 30 ? (k % 2 ? 2e6 : 0.5e6) : 1.1e6), shape);
    const m = await measureKernel(lab, task, task.reference, { secret: 's2', shape });
    const t = m.timing!;
    expect(t).toMatchObject({ trials: 60, remeasured: true, noisy: false, cv: 0 });
    expect(m.flags).toEqual(['remeasured']);
    expect(t.referenceTrialsNs).toHaveLength(60);
    // the second batch alone would give [1.1/1.02, 1.1·1.02]; the first one's wide interval is spanned too
    expect(t.lo).toBeLessThan(0.75);
    expect(t.hi).toBeGreaterThan(1.5);
    expect(m.checkedCalls).toBe(65);
  });

  test('both batches noisy: flagged noisy, the interval widened by the robust CV each side', async () => {
    const { lab } = scriptedLab((name, k) => (name === 'candidate' ? 1e6 : k % 2 ? 2e6 : 0.5e6), shape);
    const m = await measureKernel(lab, task, task.reference, { secret: 's3', shape });
    // two batches at most: 60 trials, 5 warm-up calls and 60 timed ones checked
    expect(m.timing).toMatchObject({ remeasured: true, noisy: true, trials: 60 });
    expect(m.checkedCalls).toBe(65);
    expect(m.flags).toEqual(['remeasured', 'noisy']);
    // ratios 0.5 and 2: median 1.25, MAD 0.75, robust CV 1.4826 · 0.75 / 1.25 = 0.8896
    const t = m.timing!;
    expect(t.cv).toBeCloseTo(0.8896, 4);
    // the bootstrap alone stays within the ratios [0.5, 2] (plus smoothing); widened by 1.02 · 1.89 each side
    expect(t.lo).toBeLessThan(0.3);
    expect(t.hi).toBeGreaterThan(3);
  });

  test('a CV exactly at the threshold is calm: a steady batch with a threshold of 0 is not re-measured', async () => {
    const { lab } = scriptedLab((name) => (name === 'reference' ? 1.25e6 : 1e6), shape);
    const m = await measureKernel(lab, task, task.reference, { secret: 's5', shape, cvThreshold: 0 });
    expect(m.timing).toMatchObject({ cv: 0, trials: 30, remeasured: false, noisy: false });
  });

  test('a slowdown common to both kernels of a trial cancels in the ratio: a steady 2× is calm, its CV 0', async () => {
    // trial k: both kernels 1, 2 or 3 times slower (the machine, not the kernels); the ratio stays 2
    const { lab } = scriptedLab((name, k) => (name === 'reference' ? 2e6 : 1e6) * (1 + (k % 3)), shape);
    const m = await measureKernel(lab, task, task.reference, { secret: 's6', shape });
    expect(m.timing).toMatchObject({ speedup: 2, cv: 0, trials: 30, remeasured: false, noisy: false });
    expect(m.flags).toEqual([]);
  });

  test('a calm first batch is not re-measured even when the threshold is low for the other', async () => {
    const { lab } = scriptedLab((name, k) => (name === 'candidate' ? 1e6 : 1e6 * (1 + 0.01 * (k % 3))), shape);
    const m = await measureKernel(lab, task, task.reference, { secret: 's4', shape });
    expect(m.timing).toMatchObject({ trials: 30, remeasured: false });
  });
});
