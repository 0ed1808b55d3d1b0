/**
 * Measurement inputs no kernel can predict (issue 23): every input and drawn shape comes from a
 * per-measurement secret, never from the match seed; timed inputs are independent of correctness
 * inputs; a speedup above the review threshold is re-measured in a fresh session on fresh inputs
 * and only what that confirms counts. Against a recording lab (no sandbox: outputs and "times"
 * are what the test says).
 */
import type { KernelArray, KernelCallResult, KernelLab, KernelOutputSpec } from '../../../src/core/sandbox';
import { Rng } from '../../../src/core/rng';
import { PROBE_OUTPUT, freshSecret, kernelMeasureHandler, kernelTask, measureKernel, outputsHash, performKernelRequest, reviewThreshold, streamSeed, trialInputs, type MeasureRequest } from '../../../envs/kernel-speedup';

interface Call {
  session: number;
  name: string;
  dims: Record<string, number>;
  /** Hash of the inputs. */
  inputs: string;
}

/**
 * A lab whose reference answers zeros; the candidate answers zeros too, or ones where
 * `wrong(session)`; every call takes `ns(name, session)` nanoseconds.
 */
function recordingLab(o: { ns?: (name: string, session: number) => number; wrong?: (session: number) => boolean } = {}): { lab: KernelLab; calls: Call[]; sessions: () => number } {
  const calls: Call[] = [];
  let sessions = 0;
  const lab: KernelLab = {
    async open() {
      const session = sessions++;
      return {
        status: { reference: { code: 'ok' }, candidate: { code: 'ok' } },
        async call(name: string, inputs: Record<string, KernelArray>, dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
          calls.push({ session, name, dims, inputs: outputsHash(Object.keys(inputs), inputs) });
          const out: Record<string, KernelArray> = {};
          for (const s of outputs) {
            const t = s.dtype === 'f32' ? new Float32Array(s.length) : s.dtype === 'i32' ? new Int32Array(s.length) : new Uint32Array(s.length);
            if (name === 'candidate' && s.name !== PROBE_OUTPUT && o.wrong?.(session)) t.fill(1);
            out[s.name] = t;
          }
          return { code: 'ok', ns: o.ns ? o.ns(name, session) : 1000, outputs: out, flags: [], modified: [] };
        },
        async close() {},
      };
    },
  };
  return { lab, calls, sessions: () => sessions };
}

// sort: the task with the fewest input elements over its edge and drawn shapes (fast measurements)
const task = kernelTask('sort');
const shape = { N: 777 };

describe('the secret', () => {
  test('streams: 64 hex digits of HMAC-SHA256, the same for the same secret and labels, different otherwise', () => {
    const s = streamSeed('k', 'timed', 0, 3);
    expect(s).toMatch(/^[0-9a-f]{64}$/);
    expect(streamSeed('k', 'timed', 0, 3)).toBe(s);
    expect(streamSeed('k2', 'timed', 0, 3)).not.toBe(s);
    expect(streamSeed('k', 'timed', 0, 4)).not.toBe(s);
    // labels are separated: ("timed", 0, 3) is not ("timed0", 3)
    expect(streamSeed('k', 'timed0', 3)).not.toBe(s);
    // the generator gets the whole digest, not a 32-bit seed a kernel could search
    const a = trialInputs(task, shape, s).x;
    expect(Array.from(a)).toEqual(Array.from(task.generate(shape, Rng.fromSeed(s)).x));
  });

  test('fresh secrets: 32 random bytes, never the same twice', () => {
    const xs = new Set(Array.from({ length: 50 }, freshSecret));
    expect(xs.size).toBe(50);
    for (const x of xs) expect(x).toMatch(/^[0-9a-f]{64}$/);
  });

  test('without a secret, two measurements of the same kernel see entirely different inputs and shapes', async () => {
    const { lab, calls } = recordingLab();
    await measureKernel(lab, task, task.reference, { shape });
    await measureKernel(lab, task, task.reference, { shape });
    const first = calls.filter((c) => c.session === 0 && c.name === 'candidate');
    const second = calls.filter((c) => c.session === 1 && c.name === 'candidate');
    expect(first.length).toBe(second.length);
    const seen = new Set(first.map((c) => c.inputs));
    expect(second.filter((c) => seen.has(c.inputs))).toEqual([]);
    // the drawn correctness shapes (after the edge shapes and the timing shape) differ too
    const drawn = (xs: Call[]) => JSON.stringify(xs.slice(task.edgeShapes.length + 1, task.edgeShapes.length + 5).map((c) => c.dims));
    expect(drawn(first)).not.toBe(drawn(second));
  });

  test('the same secret gives the same inputs (tests and benches are reproducible); every call of a measurement gets inputs of its own', async () => {
    const a = recordingLab();
    const b = recordingLab();
    await measureKernel(a.lab, task, task.reference, { shape, secret: 'fixed' });
    await measureKernel(b.lab, task, task.reference, { shape, secret: 'fixed' });
    expect(a.calls.map((c) => c.inputs)).toEqual(b.calls.map((c) => c.inputs));
    const cand = a.calls.filter((c) => c.name === 'candidate' && c.dims.N === shape.N);
    // the timing shape's correctness call, 5 warm-up calls and 30 timed trials: all distinct inputs
    expect(new Set(cand.map((c) => c.inputs)).size).toBe(cand.length);
    expect(cand.length).toBe(36);
  });

  test('every correctness call draws from a stream of its own: no two shapes start with the same inputs', async () => {
    // sum's inputs are uniform draws in order: one stream for every shape would start every x alike
    const sum = kernelTask('sum');
    const firsts: number[] = [];
    const lab: KernelLab = {
      async open() {
        return {
          status: { reference: { code: 'ok' }, candidate: { code: 'ok' } },
          async call(name: string, inputs: Record<string, KernelArray>, _dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
            if (name === 'candidate') firsts.push(inputs.x[0]);
            return { code: 'ok', ns: 1000, outputs: Object.fromEntries(outputs.map((o) => [o.name, o.dtype === 'f32' ? new Float32Array(o.length) : new Int32Array(o.length)])), flags: [], modified: [] };
          },
          async close() {},
        };
      },
    };
    await measureKernel(lab, sum, sum.reference, { shape: { N: 777 }, secret: 'streams', time: false });
    expect(firsts).toHaveLength(sum.edgeShapes.length + 5);
    expect(new Set(firsts).size).toBe(firsts.length);
  });

  test('the effect handler draws a fresh secret per measurement: the same context seed gives different inputs', async () => {
    const { lab, calls } = recordingLab();
    const handler = kernelMeasureHandler(lab);
    const req: MeasureRequest = { op: 'measure', task: 'sort', candidate: { kind: 'js', source: task.reference }, shape, seededTrials: 5, warmup: 5, trials: 30, cvThreshold: 0.1, expertCeiling: null, timeMs: 1000, memoryMb: 64 };
    const ctx = { matchId: 'm', env: 'kernel-speedup-v1', step: 2, seed: 12345, signal: new AbortController().signal };
    await handler(req as never, ctx);
    await handler(req as never, ctx);
    const first = new Set(calls.filter((c) => c.session === 0).map((c) => c.inputs));
    expect(calls.filter((c) => c.session === 1 && first.has(c.inputs))).toEqual([]);
  });
});

describe('review: a claim too good to be true is re-checked, not paid', () => {
  const req = (expertCeiling: number | null): MeasureRequest => ({ op: 'measure', task: 'sort', candidate: { kind: 'js', source: task.reference }, shape, seededTrials: 5, warmup: 5, trials: 30, cvThreshold: 0.1, expertCeiling, timeMs: 1000, memoryMb: 64 });

  test('the threshold is 2× the expert (2× when no expert is recorded)', () => {
    expect(reviewThreshold(1.5)).toBe(3);
    expect(reviewThreshold(null)).toBe(2);
    expect(reviewThreshold(0)).toBe(2);
  });

  test('below the threshold: one session, no review', async () => {
    const { lab, sessions } = recordingLab({ ns: (name) => (name === 'reference' ? 2.5e6 : 1e6) });
    const r = await performKernelRequest(lab, req(1.5));
    if (r.op !== 'measure') throw new Error('expected a measurement');
    expect(r.measurement.timing!.speedup).toBe(2.5);
    expect(r.measurement.review).toBeUndefined();
    expect(sessions()).toBe(1);
  });

  test('10× claimed, 1× on fresh inputs: the re-measurement is paid, not confirmed', async () => {
    const { lab, calls, sessions } = recordingLab({ ns: (name, session) => (name === 'reference' ? 1e6 : session === 0 ? 1e5 : 1e6) });
    const r = await performKernelRequest(lab, req(1.5));
    if (r.op !== 'measure') throw new Error('expected a measurement');
    const m = r.measurement;
    expect(sessions()).toBe(2);
    expect(m.code).toBe('ok');
    expect(m.timing!.speedup).toBe(1);
    expect(m.review).toMatchObject({ threshold: 3, recheckCode: 'ok', confirmed: false });
    expect(m.review!.claimed.speedup).toBe(10);
    expect(m.flags.at(-1)).toMatch(/^review: 10\.00× \[9\.80, 10\.20\] is above the threshold 3\.00×; re-measured on fresh inputs: 1\.00× \[0\.98, 1\.02\], not confirmed; the re-measurement counts$/);
    expect(m.checkedCalls).toBe(70);
    // the re-check's inputs share nothing with the first run's
    const first = new Set(calls.filter((c) => c.session === 0).map((c) => c.inputs));
    expect(calls.filter((c) => c.session === 1 && first.has(c.inputs))).toEqual([]);
  });

  test('10× claimed, wrong on the fresh inputs: the measurement takes the failure (reward of an incorrect kernel)', async () => {
    const { lab } = recordingLab({ ns: (name) => (name === 'reference' ? 1e6 : 1e5), wrong: (session) => session === 1 });
    const r = await performKernelRequest(lab, req(1.5));
    if (r.op !== 'measure') throw new Error('expected a measurement');
    const m = r.measurement;
    expect(m).toMatchObject({ code: 'wrong-answer', correct: false, timing: null });
    expect(m.message).toMatch(/^the re-check on fresh inputs failed: wrong-answer/);
    expect(m.review).toMatchObject({ recheckCode: 'wrong-answer', recheck: null, confirmed: false });
    expect(m.trials.at(-1)!.code).toBe('wrong-answer');
    expect(m.flags.at(-1)).toMatch(/re-measured on fresh inputs: wrong-answer, not confirmed$/);
  });

  test('10× claimed and 10× again: confirmed, the lower of the two lower bounds counts', async () => {
    const { lab } = recordingLab({ ns: (name, session) => (name === 'reference' ? 1e6 : session === 0 ? 1e5 : 1.1e5) });
    const r = await performKernelRequest(lab, req(1.5));
    if (r.op !== 'measure') throw new Error('expected a measurement');
    const m = r.measurement;
    expect(m.code).toBe('ok');
    expect(m.review!.confirmed).toBe(true);
    expect(m.timing!.speedup).toBeCloseTo(1 / 0.11, 9);
    expect(m.flags.at(-1)).toMatch(/confirmed; the re-measurement counts$/);
  });
});
