/**
 * The edges of judging that mutation testing found unpinned (issue 23, "Safety code under
 * mutation"): the attacker's input at its boundaries (attack.ts), the attack's every early exit
 * and what it hands the lab, the classification of a failed call's message (call-check.ts), the
 * boundaries of the shape checks of recorded results (result-check.ts), and the candidate kinds
 * and the compiled-glue cache (candidate.ts). Each test names the rule it pins; none needs a
 * sandbox.
 */
import type { KernelArray, KernelCallResult, KernelLab, KernelLabSession, KernelOutputSpec } from '../../../src/core/sandbox';
import { failedCallCode, judgeCall } from '../../../envs/kernel-speedup/measure/call-check';
import { attackResultProblem, measurementProblem } from '../../../envs/kernel-speedup/measure/result-check';
import { PROBE_OUTPUT, attackProblem, candidateProblem, candidateSource, kernelTask, materializeAttack, prepareKernel, runAttack, valueProblem, type Measurement, type TimingSummary } from '../../../envs/kernel-speedup';

type Status = KernelLabSession['status'];

/** A lab that answers every call with `answer(name, outputs)` and records what it was given. */
function recordingLab(answer: (name: string, outputs: KernelOutputSpec[]) => KernelCallResult, status: Status = { reference: { code: 'ok' }, candidate: { code: 'ok' } }) {
  const opened: { kernels: Record<string, string>; options: unknown; signal: AbortSignal | undefined }[] = [];
  const calls: string[] = [];
  let closed = 0;
  const lab: KernelLab = {
    async open(kernels, options, signal) {
      opened.push({ kernels, options, signal });
      return {
        status,
        call: async (name, _inputs, _dims, outputs) => {
          calls.push(name);
          return answer(name, outputs);
        },
        close: async () => void closed++,
      };
    },
  };
  return { lab, opened, calls, closed: () => closed };
}

/** Outputs of the declared specs, each filled with `fill` (the probe with zeros). */
const filled = (outputs: KernelOutputSpec[], fill = 0): Record<string, KernelArray> =>
  Object.fromEntries(outputs.map((o) => [o.name, o.name === PROBE_OUTPUT ? new Int32Array(o.length) : new Float32Array(o.length).fill(fill)]));
const okCall = (outputs: KernelOutputSpec[], extra: Partial<KernelCallResult> = {}): KernelCallResult => ({ code: 'ok', outputs: filled(outputs), flags: [], modified: [], ...extra });

describe('attack inputs at their boundaries', () => {
  const softmax = kernelTask('softmax');
  const matmul = kernelTask('matmul');
  const histogram = kernelTask('histogram');

  test('an attack or its inputs that is a string or a number is refused as such (not read as an object of its characters)', () => {
    expect(attackProblem(softmax, 'dims')).toBe('an attack is an object {"dims": {...}, "inputs": {...}}');
    expect(attackProblem(softmax, 3)).toBe('an attack is an object {"dims": {...}, "inputs": {...}}');
    expect(attackProblem(softmax, { dims: { R: 1, C: 1 }, inputs: 'x' })).toBe('inputs must be an object with one fill per input tensor');
    expect(attackProblem(softmax, { dims: { R: 1, C: 1 }, inputs: 7 })).toBe('inputs must be an object with one fill per input tensor');
  });

  test('an unknown tensor is named with every tensor the task takes', () => {
    expect(attackProblem(matmul, { dims: { M: 1, N: 1, K: 1 }, inputs: { A: { fill: 0 }, B: { fill: 0 }, C: { fill: 0 } } })).toBe('inputs has unknown tensor "C" (matmul takes A, B)');
  });

  test('exactly 4096 explicit values over all inputs is allowed', () => {
    // A is M×K = 64×32 = 2048 values, B is K×N = 32×64 = 2048
    expect(attackProblem(matmul, { dims: { M: 64, N: 64, K: 32 }, inputs: { A: Array(2048).fill(0), B: Array(2048).fill(0) } })).toBeNull();
  });

  test('float tensors: a value below the range is outside, as one above is', () => {
    expect(valueProblem(softmax.inputs[0], -16.5)).toBe('-16.5 (as float32 -16.5) is outside the range [-16, 16]');
  });

  test('seeded uniforms near the smallest normal float32: kept at it, flushed only below it, kept where the contract allows subnormals', () => {
    const MIN = 2 ** -126;
    const dims = { R: 1, C: 64 };
    const values = (task: typeof softmax, uniform: [number, number]) => Array.from(materializeAttack(task, { dims, inputs: { x: { uniform, seed: 4 } } }).x);
    expect(values(softmax, [MIN, MIN])).toEqual(Array(64).fill(MIN));
    // every number of this range rounds to the smallest normal (as the contract check reads it): that value, not a flushed 0
    const lo = MIN - 2 ** -160;
    const hi = MIN - 2 ** -170;
    expect(attackProblem(softmax, { dims, inputs: { x: { uniform: [lo, hi] } } })).toBeNull();
    expect(values(softmax, [lo, hi])).toEqual(Array(64).fill(MIN));
    // subnormals: flushed to 0 where the contract excludes them, kept where it allows them
    expect(values(softmax, [0, 2 ** -127]).every((v) => v === 0)).toBe(true);
    const allowing = { ...softmax, inputs: [{ ...softmax.inputs[0], subnormals: true }] };
    const kept = values(allowing, [0, 2 ** -127]);
    expect(kept.filter((v) => v > 0 && v < MIN).length).toBeGreaterThan(32);
    // −0 is a value of its own in a Float32Array: a uniform over [−0, −0] gives it, as {"fill": −0} does
    expect(values(softmax, [-0, -0]).every((v) => Object.is(v, -0))).toBe(true);
    expect(Array.from(materializeAttack(softmax, { dims, inputs: { x: { fill: -0 } } }).x).every((v) => Object.is(v, -0))).toBe(true);
  });

  test('integer tensors: both ends of the range are inside', () => {
    const h = histogram.inputs[0];
    expect(valueProblem(h, 0)).toBeNull();
    expect(valueProblem(h, h.range[1])).toBeNull();
    expect(attackProblem(histogram, { dims: { N: 2, B: 2 }, inputs: { x: [0, h.range[1]] } })).toBeNull();
  });
});

describe('runAttack: every early exit, and what the lab is given', () => {
  const sum = kernelTask('sum');
  const input = { dims: { N: 4 }, inputs: { x: { fill: 1 } } };

  test('limits and the abort signal reach the lab; the candidate and the reference run in one session, the reference first', async () => {
    const r = recordingLab((_n, outputs) => okCall(outputs));
    const signal = new AbortController().signal;
    expect(await runAttack(r.lab, sum, sum.reference, input, { timeMs: 123, memoryMb: 45, signal })).toMatchObject({ code: 'ok' });
    expect(r.opened).toHaveLength(1);
    expect(r.opened[0].options).toEqual({ timeMs: 123, memoryMb: 45 });
    expect(r.opened[0].signal).toBe(signal);
    expect(Object.keys(r.opened[0].kernels).sort()).toEqual(['candidate', 'reference']);
    expect(r.calls).toEqual(['reference', 'candidate']);
    expect(r.closed()).toBe(1);
  });

  test('a candidate that does not prepare: its code and message, the reference unblamed, no session opened', async () => {
    const r = recordingLab((_n, outputs) => okCall(outputs));
    const prepared = prepareKernel('function (', ['out']);
    expect(prepared.ok).toBe(false);
    const res = await runAttack(r.lab, sum, 'function (', input);
    expect(res).toStrictEqual({ code: 'syntax-error', message: (prepared as { message: string }).message, referenceFinite: false, referenceCode: 'ok', check: null });
    expect(r.opened).toHaveLength(0);
  });

  test('a reference that does not prepare is our fault (sandbox-error on both sides), no session opened', async () => {
    const r = recordingLab((_n, outputs) => okCall(outputs));
    const broken = { ...sum, reference: 'function (' };
    const res = await runAttack(r.lab, broken, sum.reference, input);
    expect(res).toMatchObject({ code: 'sandbox-error', referenceFinite: false, referenceCode: 'sandbox-error', check: null });
    expect(res.message).toMatch(/\S/);
    expect(r.opened).toHaveLength(0);
  });

  test('a reference that does not load, or has no load status at all: sandbox-error, said in words, the session closed', async () => {
    const statuses: Status[] = [{ reference: { code: 'runtime-error' }, candidate: { code: 'ok' } }, { candidate: { code: 'ok' } }];
    for (const status of statuses) {
      const r = recordingLab((_n, outputs) => okCall(outputs), status);
      expect(await runAttack(r.lab, sum, sum.reference, input)).toStrictEqual({ code: 'sandbox-error', message: 'the reference does not load', referenceFinite: false, referenceCode: 'sandbox-error', check: null });
      expect(r.calls).toEqual([]);
      expect(r.closed()).toBe(1);
    }
  });

  test('a candidate that does not load: syntax-error, timeout and memory-limit pass through; any other code, or none, is a runtime error', async () => {
    const load = async (candidate?: { code: KernelCallResult['code']; message?: string }) => {
      const r = recordingLab((_n, outputs) => okCall(outputs), candidate ? { reference: { code: 'ok' }, candidate } : { reference: { code: 'ok' } });
      const res = await runAttack(r.lab, sum, sum.reference, input);
      expect(r.calls).toEqual([]);
      return res;
    };
    expect(await load({ code: 'syntax-error', message: 's' })).toStrictEqual({ code: 'syntax-error', message: 's', referenceFinite: false, referenceCode: 'ok', check: null });
    expect(await load({ code: 'timeout', message: 't' })).toMatchObject({ code: 'timeout', message: 't' });
    expect(await load({ code: 'exited', message: 'e' })).toMatchObject({ code: 'runtime-error', message: 'e' });
    expect(await load({ code: 'sandbox-error' })).toMatchObject({ code: 'runtime-error', message: 'the candidate does not load' });
    expect(await load()).toStrictEqual({ code: 'runtime-error', message: 'the candidate does not load', referenceFinite: false, referenceCode: 'ok', check: null });
  });

  test('the reference fails on the input: its own code (not always runtime-error), its message only when it has one; a candidate that ran is ok', async () => {
    const r = recordingLab((name, outputs) => (name === 'reference' ? { code: 'timeout' } : okCall(outputs)));
    expect(await runAttack(r.lab, sum, sum.reference, input)).toStrictEqual({ code: 'ok', message: 'the reference fails on this input (timeout)', referenceFinite: false, referenceCode: 'timeout', check: null });
  });

  test('a finding of the candidate carries its message; a clean result has no message field', async () => {
    const modifies = recordingLab((name, outputs) => okCall(outputs, name === 'candidate' ? { modified: ['x'] } : {}));
    expect(await runAttack(modifies.lab, sum, sum.reference, input)).toMatchObject({ code: 'modifies-input', message: 'wrote to input x', referenceFinite: true, check: { code: 'modifies-input' } });
    const clean = recordingLab((_n, outputs) => okCall(outputs));
    const res = await runAttack(clean.lab, sum, sum.reference, input);
    expect(res.code).toBe('ok');
    expect(res).not.toHaveProperty('message');
  });

  test('a reference whose output is missing (or that returned none) is not finite', async () => {
    const missing = recordingLab((name, outputs) => (name === 'reference' ? { code: 'ok', outputs: { [PROBE_OUTPUT]: new Int32Array(2) } } : okCall(outputs)));
    expect(await runAttack(missing.lab, sum, sum.reference, input)).toMatchObject({ referenceFinite: false, referenceCode: 'ok' });
    const none = recordingLab((name, outputs) => (name === 'reference' ? { code: 'ok' } : okCall(outputs)));
    expect(await runAttack(none.lab, sum, sum.reference, input)).toMatchObject({ referenceFinite: false, referenceCode: 'ok' });
  });
});

describe('a failed call’s message, classified', () => {
  test('the clock and Intl only as whole names; output names of any length', () => {
    expect(failedCallCode({ code: 'runtime-error', message: 'ReferenceError: myperformance is not defined' })!.code).toBe('runtime-error');
    expect(failedCallCode({ code: 'runtime-error', message: 'ReferenceError: myIntl is not defined' })!.code).toBe('runtime-error');
    expect(failedCallCode({ code: 'runtime-error', message: 'output "counts" has length 3, expected 2' })!.code).toBe('wrong-shape');
    expect(failedCallCode({ code: 'runtime-error', message: 'output "counts" is not a Int32Array' })!.code).toBe('wrong-dtype');
  });

  test('a judged call has a message or a first mismatch only when there is one', () => {
    const ctx = { kind: 'seeded' as const, dims: { N: 1 }, names: ['y'], tolerance: { atol: 0, rtol: 0 }, seen: new Set<string>(), afterCorrectness: false };
    expect(judgeCall({ code: 'memory-limit' }, { code: 'ok', outputs: { y: new Float32Array(1) } }, ctx)).not.toHaveProperty('message');
    const good = judgeCall({ code: 'ok', outputs: { y: new Float32Array(1) } }, { code: 'ok', outputs: { y: new Float32Array(1) } }, ctx);
    expect(good.code).toBe('ok');
    expect(good).not.toHaveProperty('first');
    expect(good).not.toHaveProperty('message');
  });

  test('a call that says ok but returned no outputs at all is a wrong answer (judged, not a crash)', () => {
    const ctx = { kind: 'seeded' as const, dims: { N: 1 }, names: ['y'], tolerance: { atol: 0, rtol: 0 }, seen: new Set<string>(), afterCorrectness: false };
    expect(judgeCall({ code: 'ok' }, { code: 'ok', outputs: { y: new Float32Array(1) } }, ctx)).toMatchObject({ code: 'wrong-answer', first: { output: 'y', index: -1, actual: 'missing', expected: 1 } });
  });
});

describe('recorded results at their boundaries', () => {
  const timing = (o: Partial<TimingSummary> = {}): TimingSummary => ({ dims: { N: 4 }, warmup: 5, trials: 30, referenceNs: 10, candidateNs: 5, speedup: 2, lo: 1.9, hi: 2.1, cv: 0.01, remeasured: false, noisy: false, referenceTrialsNs: [10], candidateTrialsNs: [5], ...o });
  const measurement = (o: Partial<Measurement> = {}): Measurement => ({ code: 'ok', correct: true, trials: [], checkedCalls: 35, timing: timing(), flags: [], ...o });

  test('zero is a valid count: no checked calls (a kernel that never ran), no warm-up, a zero CV; a point interval is valid', () => {
    expect(measurementProblem(measurement({ code: 'syntax-error', correct: false, checkedCalls: 0, timing: null }))).toBeNull();
    expect(measurementProblem(measurement({ timing: timing({ cv: 0, warmup: 0 }) }))).toBeNull();
    expect(measurementProblem(measurement({ timing: timing({ speedup: 2, lo: 2, hi: 2 }) }))).toBeNull();
  });

  test('a measurement with flags, and one whose review confirmed the speedup, are valid', () => {
    expect(measurementProblem(measurement({ flags: ['noisy', 'remeasured'] }))).toBeNull();
    const confirmed = { threshold: 3, claimed: timing({ speedup: 9, lo: 8, hi: 10 }), recheckCode: 'ok' as const, recheck: timing({ speedup: 8, lo: 7, hi: 9 }), confirmed: true };
    expect(measurementProblem(measurement({ timing: timing({ speedup: 8, lo: 7, hi: 9 }), review: confirmed }))).toBeNull();
  });

  test('a valid review does not vouch for the rest: the timing is still checked after it', () => {
    const review = { threshold: 3, claimed: timing({ speedup: 9, lo: 8, hi: 10 }), recheckCode: 'ok' as const, recheck: timing(), confirmed: false };
    expect(measurementProblem(measurement({ review, timing: null }))).toBe('a correct measurement has a timing');
    expect(measurementProblem(measurement({ review, timing: timing({ cv: -1 }) }))).toBe('measurement.timing.cv must be a non-negative number');
  });

  test('one bad trial time among good ones is refused', () => {
    expect(measurementProblem(measurement({ timing: timing({ referenceTrialsNs: [10, '11' as never, 12] }) }))).toBe('measurement.timing.referenceTrialsNs must be a list of numbers');
  });

  test('a review threshold that is not a number is refused (not compared as text)', () => {
    const review = { threshold: '3', claimed: timing(), recheckCode: 'ok', recheck: timing(), confirmed: false };
    expect(measurementProblem({ ...measurement(), review })).toBe('measurement.review.threshold must be a positive number');
    expect(measurementProblem({ ...measurement(), review: { ...review, threshold: NaN } })).toBe('measurement.review.threshold must be a positive number');
  });

  test('an attack result with a check of every kind', () => {
    for (const kind of ['edge', 'seeded', 'warmup', 'timed', 'attack']) {
      expect(attackResultProblem({ code: 'ok', referenceFinite: true, referenceCode: 'ok', check: { kind, dims: {}, code: 'ok', mismatches: 0, total: 0, maxAbsError: 0 } })).toBeNull();
    }
  });
});

describe('candidates at their edges', () => {
  const matmul = kernelTask('matmul');
  const sum = kernelTask('sum');
  /** A lab whose compiler answers `answer(source)` and counts its compiles. */
  const compilingLab = (answer: (source: string) => Awaited<ReturnType<NonNullable<KernelLab['compileAssemblyScript']>>>) => {
    const compiled: string[] = [];
    const lab: KernelLab = {
      open: async () => {
        throw new Error('not used');
      },
      compileAssemblyScript: async (source) => {
        compiled.push(source);
        return answer(source);
      },
    };
    return { lab, compiled };
  };
  const wasm = new Uint8Array([0, 97, 115, 109]);

  test('a candidate that is a string or a number is not an object', () => {
    expect(candidateProblem(matmul, 'js')).toBe('the candidate must be an object with a "kind"');
    expect(candidateProblem(matmul, 3)).toBe('the candidate must be an object with a "kind"');
  });

  test('a compiler that says ok without a module is a sandbox error', async () => {
    const { lab } = compilingLab(() => ({ code: 'ok' }));
    expect(await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'k' })).toEqual({ ok: false, code: 'sandbox-error', message: 'the compiler produced no module' });
  });

  test('a module that comes with a failed compile is not used', async () => {
    const { lab } = compilingLab(() => ({ code: 'compile-error', message: 'TS1005', wasm }));
    expect(await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'k' })).toEqual({ ok: false, code: 'compile-error', message: 'TS1005' });
  });

  test('compiled glue is cached per task and source, at most 64 entries per lab, the oldest dropped first', async () => {
    const { lab, compiled } = compilingLab(() => ({ code: 'ok', wasm }));
    for (let i = 0; i < 65; i++) expect((await candidateSource(lab, matmul, { kind: 'assemblyscript', source: `k${i}` })).ok).toBe(true);
    expect(compiled).toHaveLength(65);
    await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'k64' });
    await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'k1' });
    expect(compiled).toHaveLength(65); // both still cached
    await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'k0' });
    expect(compiled).toHaveLength(66); // the oldest was dropped
    await candidateSource(lab, sum, { kind: 'assemblyscript', source: 'k64' });
    expect(compiled).toHaveLength(67); // another task: its own glue
  });
});
