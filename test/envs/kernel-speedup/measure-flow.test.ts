/**
 * The measurement's control flow against a programmable lab (no sandbox): what stops it early
 * (a kernel that does not prepare or load, a reference that fails), the order and kinds of calls,
 * the option floors, the precision rule, failures in warm-up and timing, the session always
 * closed. Codes and counts only; the timing figures are timing-logic.test.ts's.
 */
import type { KernelArray, KernelCallResult, KernelLab, KernelOutputSpec, RunCode } from '../../../src/core/sandbox';
import { MEASURE_DEFAULTS, PROBE_OUTPUT, kernelTask, measureKernel, robustCv, type KernelTask } from '../../../envs/kernel-speedup';

interface Call {
  name: string;
  dims: Record<string, number>;
}

type Answer = (name: string, index: number, outputs: KernelOutputSpec[], dims: Record<string, number>) => KernelCallResult | null;

/** A lab answering zeros in 1 µs unless `answer` says otherwise (index: the call's number per kernel). */
function lab(o: { answer?: Answer; status?: Record<string, { code: RunCode; message?: string }> } = {}) {
  const calls: Call[] = [];
  const opened: { kernels: Record<string, string>; options: unknown }[] = [];
  let closed = 0;
  const count: Record<string, number> = {};
  const l: KernelLab = {
    async open(kernels, options) {
      opened.push({ kernels, options });
      return {
        status: o.status ?? { reference: { code: 'ok' }, candidate: { code: 'ok' } },
        async call(name: string, _inputs: Record<string, KernelArray>, dims: Record<string, number>, outputs: KernelOutputSpec[]) {
          calls.push({ name, dims });
          const i = (count[name] = (count[name] ?? 0) + 1) - 1;
          const custom = o.answer?.(name, i, outputs, dims);
          if (custom) return custom;
          return { code: 'ok', ns: 1000, outputs: zeros(outputs), flags: [], modified: [] };
        },
        async close() {
          closed++;
        },
      };
    },
  };
  return { lab: l, calls, opened, closed: () => closed };
}
function zeros(outputs: KernelOutputSpec[], fill?: (i: number) => number): Record<string, KernelArray> {
  return Object.fromEntries(outputs.map((s) => {
    const t = s.dtype === 'f32' ? new Float32Array(s.length) : s.dtype === 'i32' ? new Int32Array(s.length) : new Uint32Array(s.length);
    if (fill && s.name !== PROBE_OUTPUT) for (let i = 0; i < t.length; i++) t[i] = fill(i);
    return [s.name, t];
  }));
}

const sort = kernelTask('sort');
const shape = { N: 777 };
const edges = sort.edgeShapes.length;

describe('what stops a measurement early', () => {
  test('a candidate that does not prepare: its code, no session opened', async () => {
    const l = lab();
    expect(await measureKernel(l.lab, sort, 'function (', { shape })).toMatchObject({ code: 'syntax-error', correct: false, trials: [], checkedCalls: 0, timing: null, flags: [] });
    expect(await measureKernel(l.lab, sort, 'function k() { return __ksCaught; }', { shape })).toMatchObject({ code: 'forbidden' });
    expect(l.opened).toEqual([]);
  });

  test('a reference that does not prepare: sandbox-error (not the candidate’s fault)', async () => {
    const broken: KernelTask = { ...sort, reference: 'function (' };
    const m = await measureKernel(lab().lab, broken, sort.reference, { shape });
    expect(m).toMatchObject({ code: 'sandbox-error', correct: false });
    expect(m.message).toMatch(/^the reference does not prepare: /);
  });

  test('a reference that does not load: sandbox-error naming its code; the session is closed', async () => {
    const l = lab({ status: { reference: { code: 'memory-limit', message: 'oom' }, candidate: { code: 'ok' } } });
    expect(await measureKernel(l.lab, sort, sort.reference, { shape })).toMatchObject({ code: 'sandbox-error', message: 'the reference does not load (memory-limit: oom)' });
    expect(l.closed()).toBe(1);
    const quiet = lab({ status: { reference: { code: 'timeout' }, candidate: { code: 'ok' } } });
    expect((await measureKernel(quiet.lab, sort, sort.reference, { shape })).message).toBe('the reference does not load (timeout)');
    const missing = lab({ status: { candidate: { code: 'ok' } } });
    expect((await measureKernel(missing.lab, sort, sort.reference, { shape })).message).toBe('the reference does not load (undefined)');
  });

  test('a candidate that does not load: its load error read like a call’s', async () => {
    const clock = lab({ status: { reference: { code: 'ok' }, candidate: { code: 'runtime-error', message: 'Error: the clock is not available in the sandbox' } } });
    expect(await measureKernel(clock.lab, sort, sort.reference, { shape })).toMatchObject({ code: 'reads-clock', message: 'Error: the clock is not available in the sandbox' });
    const oom = lab({ status: { reference: { code: 'ok' }, candidate: { code: 'memory-limit', message: 'm' } } });
    expect(await measureKernel(oom.lab, sort, sort.reference, { shape })).toMatchObject({ code: 'memory-limit', message: 'm' });
    const none = lab({ status: { reference: { code: 'ok' } } });
    expect(await measureKernel(none.lab, sort, sort.reference, { shape })).toMatchObject({ code: 'sandbox-error', message: 'the candidate did not load' });
    expect(clock.calls).toEqual([]);
  });

  test('a reference call that fails: sandbox-error with its reason — unless the candidate failed first (a timeout takes the worker down)', async () => {
    const refFails = lab({ answer: (name) => (name === 'reference' ? { code: 'runtime-error', message: 'boom' } : null) });
    const m = await measureKernel(refFails.lab, sort, sort.reference, { shape });
    expect(m).toMatchObject({ code: 'sandbox-error', message: 'the reference failed (runtime-error: boom)' });
    expect(m.trials).toHaveLength(1);
    const silent = lab({ answer: (name) => (name === 'reference' ? { code: 'sandbox-error' } : null) });
    expect((await measureKernel(silent.lab, sort, sort.reference, { shape })).message).toBe('the reference failed (sandbox-error)');
    const both = lab({ answer: (name) => (name === 'reference' ? { code: 'sandbox-error', message: 'worker lost' } : { code: 'timeout', message: 'Script execution timed out.' }) });
    expect(await measureKernel(both.lab, sort, sort.reference, { shape })).toMatchObject({ code: 'timeout', message: 'Script execution timed out.' });
    const bothQuiet = lab({ answer: (name) => (name === 'reference' ? { code: 'sandbox-error' } : { code: 'timeout' }) });
    const q = await measureKernel(bothQuiet.lab, sort, sort.reference, { shape });
    expect(q.code).toBe('timeout');
    expect(q.trials[0]).not.toHaveProperty('message');
  });
});

describe('the calls a measurement makes', () => {
  test('every edge shape then the seeded shapes, reference first in correctness; options reach the lab', async () => {
    const l = lab();
    const m = await measureKernel(l.lab, sort, sort.reference, { shape, secret: 'a', time: false, timeMs: 123, memoryMb: 77 });
    expect(m).toMatchObject({ code: 'ok', correct: true, timing: null, checkedCalls: 0, flags: [] });
    expect(l.opened[0].options).toEqual({ timeMs: 123, memoryMb: 77 });
    expect(Object.keys(l.opened[0].kernels)).toEqual(['reference', 'candidate']);
    expect(m.trials.map((t) => t.kind)).toEqual([...Array(edges).fill('edge'), ...Array(MEASURE_DEFAULTS.seededTrials).fill('seeded')]);
    expect(m.trials.slice(0, edges).map((t) => t.dims)).toEqual(sort.edgeShapes);
    expect(m.trials[edges].dims).toEqual(shape);
    expect(l.calls.filter((_, i) => i % 2 === 0).every((c) => c.name === 'reference')).toBe(true);
    expect(l.closed()).toBe(1);
  });

  test('"timing-shape": the timing shape only', async () => {
    const l = lab();
    const m = await measureKernel(l.lab, sort, sort.reference, { shape, secret: 'a', time: false, check: 'timing-shape' });
    expect(m.trials.map((t) => [t.kind, t.dims])).toEqual([['seeded', shape]]);
  });

  test('floors: at least 1 seeded shape, 0 warm-up calls, 2 timed trials; the defaults otherwise', async () => {
    const l = lab();
    const m = await measureKernel(l.lab, sort, sort.reference, { shape, secret: 'a', seededTrials: 0, warmup: -3, trials: 1 });
    expect(m.trials.filter((t) => t.kind === 'seeded')).toHaveLength(1);
    expect(m.timing).toMatchObject({ warmup: 0, trials: 2 });
    expect(m.checkedCalls).toBe(2);
    expect(MEASURE_DEFAULTS).toEqual({ seededTrials: 5, warmup: 5, trials: 30, cvThreshold: 0.1, resamples: 2000, resolution: 0.02 });
    const d = await measureKernel(lab().lab, sort, sort.reference, { shape, secret: 'a' });
    expect(d.trials.filter((t) => t.kind === 'seeded')).toHaveLength(5);
    expect(d.timing).toMatchObject({ warmup: 5, trials: 30 });
    expect(d.checkedCalls).toBe(35);
  });

  test('a fatal code stops correctness at once; other failures let every shape be checked', async () => {
    const fatal = lab({ answer: (name, i) => (name === 'candidate' && i === 2 ? { code: 'memory-limit', message: 'm' } : null) });
    const m = await measureKernel(fatal.lab, sort, sort.reference, { shape, secret: 'a' });
    expect(m).toMatchObject({ code: 'memory-limit', checkedCalls: 0, timing: null });
    expect(m.trials).toHaveLength(3);
    for (const code of ['timeout', 'sandbox-error'] as const) {
      const l = lab({ answer: (name, i) => (name === 'candidate' && i === 0 ? { code } : null) });
      expect((await measureKernel(l.lab, sort, sort.reference, { shape, secret: 'a' })).trials).toHaveLength(1);
    }
    const wrong = lab({ answer: (name, i, outputs) => (name === 'candidate' && i === 2 ? { code: 'ok', outputs: zeros(outputs, () => 1), flags: [], modified: [] } : null) });
    const w = await measureKernel(wrong.lab, sort, sort.reference, { shape, secret: 'a' });
    expect(w.code).toBe('wrong-answer');
    expect(w.trials).toHaveLength(edges + 5);
    expect(w.trials.filter((t) => t.code !== 'ok')).toHaveLength(1);
  });

  test('the measurement tells the message of the trial that gave its code, not of the first trial', async () => {
    const l = lab({ answer: (name, i) => (name === 'candidate' && i === 3 ? { code: 'runtime-error', message: 'boom on the fourth shape' } : null) });
    const m = await measureKernel(l.lab, sort, sort.reference, { shape, secret: 'a', time: false });
    expect(m).toMatchObject({ code: 'runtime-error', message: 'boom on the fourth shape' });
    expect(m.trials.map((t) => t.code).indexOf('runtime-error')).toBe(3);
  });

  test('the precision rule over the correctness calls: float16-like outputs are lower-precision, with the counts', async () => {
    // every candidate output 1.5 (float16 mantissa), the reference 1 + 2^-20 (a full float32 one)
    const l = lab({ answer: (name, _i, outputs) => ({ code: 'ok', ns: 1, outputs: zeros(outputs, () => (name === 'candidate' ? 1.5 : 1 + 2 ** -20)), flags: [], modified: [] }) });
    const loose: KernelTask = { ...sort, tolerance: { atol: 1, rtol: 0 } };
    const m = await measureKernel(l.lab, loose, sort.reference, { shape, secret: 'a' });
    expect(m.code).toBe('lower-precision');
    expect(m.message).toMatch(/^(\d+) of \1 float32 outputs have float16 mantissas \(the reference: 0 of (\d+)\)$/);
    expect(m.timing).toBeNull();
    // the same with full-precision candidate outputs is fine
    const fine = lab({ answer: (_n, _i, outputs) => ({ code: 'ok', ns: 1, outputs: zeros(outputs, () => 1 + 2 ** -20), flags: [], modified: [] }) });
    expect((await measureKernel(fine.lab, loose, sort.reference, { shape, secret: 'a' })).code).toBe('ok');
  });

  test('a warm-up failure: its code and message, the calls so far, the failing check', async () => {
    const first = edges + 5; // the candidate's first warm-up call
    const l = lab({ answer: (name, i, outputs) => (name === 'candidate' && i === first + 2 ? { code: 'ok', outputs: zeros(outputs, () => 9), flags: ['reuses-buffer'], modified: [] } : null) });
    const m = await measureKernel(l.lab, sort, sort.reference, { shape, secret: 'a' });
    expect(m).toMatchObject({ code: 'kept-buffer', correct: false, timing: null, checkedCalls: 3 });
    expect(m.trials.at(-1)).toMatchObject({ kind: 'warmup', code: 'kept-buffer' });
    // a wrong answer after correctness passed is a decoy, in warm-up as in timing
    const decoy = lab({ answer: (name, i, outputs) => (name === 'candidate' && i === first + 1 ? { code: 'ok', outputs: zeros(outputs, () => 2), flags: [], modified: [] } : null) });
    expect(await measureKernel(decoy.lab, sort, sort.reference, { shape, secret: 'a' })).toMatchObject({ code: 'decoy', checkedCalls: 2 });
    const msg = lab({ answer: (name, i) => (name === 'candidate' && i === first ? { code: 'ok', outputs: zeros([{ name: 'y', dtype: 'f32', length: 777 }, { name: PROBE_OUTPUT, dtype: 'i32', length: 2 }]), flags: [], modified: ['x'] } : null) });
    expect(await measureKernel(msg.lab, sort, sort.reference, { shape, secret: 'a' })).toMatchObject({ code: 'modifies-input', message: 'wrote to input x', checkedCalls: 1 });
  });

  test('a timed failure: its code, every call counted (warm-up, the first batch, the failing trial)', async () => {
    const first = edges + 5 + 5; // the candidate's first timed call
    const l = lab({ answer: (name, i, outputs) => (name === 'candidate' && i === first + 3 ? { code: 'ok', outputs: zeros(outputs, () => 2), flags: [], modified: [] } : null) });
    const m = await measureKernel(l.lab, sort, sort.reference, { shape, secret: 'a' });
    expect(m).toMatchObject({ code: 'decoy', correct: false, timing: null, checkedCalls: 5 + 4 });
    expect(m.trials.at(-1)).toMatchObject({ kind: 'timed', code: 'decoy' });
    const second = lab({
      // a noisy first batch, then a failure in the second
      answer: (name, i, outputs) => {
        if (name === 'reference' && i >= first && i < first + 30) return { code: 'ok', ns: i % 2 ? 3000 : 500, outputs: zeros(outputs), flags: [], modified: [] };
        if (name === 'candidate' && i === first + 31) return { code: 'ok', outputs: zeros(outputs, () => 2), flags: [], modified: [] };
        return null;
      },
    });
    const s = await measureKernel(second.lab, sort, sort.reference, { shape, secret: 'a' });
    expect(s).toMatchObject({ code: 'decoy', checkedCalls: 5 + 30 + 2 });
    const msg = lab({ answer: (name, i) => (name === 'candidate' && i === first ? { code: 'runtime-error', message: 'late' } : null) });
    expect(await measureKernel(msg.lab, sort, sort.reference, { shape, secret: 'a' })).toMatchObject({ code: 'runtime-error', message: 'late' });
  });

  test('a failure without a message gives a measurement without a message field (warm-up, timed); so does a good one', async () => {
    const warm = lab({ answer: (name, i) => (name === 'candidate' && i === edges + 5 ? { code: 'timeout' } : null) });
    const w = await measureKernel(warm.lab, sort, sort.reference, { shape, secret: 'a' });
    expect(w).toMatchObject({ code: 'timeout', checkedCalls: 1 });
    expect(w).not.toHaveProperty('message');
    const timed = lab({ answer: (name, i) => (name === 'candidate' && i === edges + 5 + 5 ? { code: 'timeout' } : null) });
    const t = await measureKernel(timed.lab, sort, sort.reference, { shape, secret: 'a' });
    expect(t).toMatchObject({ code: 'timeout', checkedCalls: 5 + 1 });
    expect(t).not.toHaveProperty('message');
    const good = await measureKernel(lab().lab, sort, sort.reference, { shape, secret: 'a' });
    expect(good.code).toBe('ok');
    expect(good).not.toHaveProperty('message');
  });
});

describe('robustCv', () => {
  test('1.4826 · MAD / median; Infinity when the median is not positive', () => {
    expect(robustCv([1, 1, 1])).toBe(0);
    expect(robustCv([1, 2, 3])).toBeCloseTo(1.4826 / 2, 12);
    expect(robustCv([0, 0, 1])).toBe(Infinity);
    expect(robustCv([-1, -2, -3])).toBe(Infinity);
  });
});
