/**
 * The measurement's judging by hand, without a sandbox: one call's code from what the lab saw
 * (call-check.ts), the shape checks of recorded results (result-check.ts), the attack against a
 * scripted lab (attack.ts), the candidate kinds (candidate.ts) and the effect handler's refusals
 * (handler.ts).
 */
import { createContext, runInContext } from 'node:vm';
import type { KernelArray, KernelCallResult, KernelLab, KernelOutputSpec } from '../../../src/core/sandbox';
import { failedCallCode, firstCode, judgeCall, taskOutputs } from '../../../envs/kernel-speedup/measure/call-check';
import { NO_PROMISES } from '../../../envs/kernel-speedup/measure/instrument';
import { attackResultProblem, measurementProblem } from '../../../envs/kernel-speedup/measure/result-check';
import { CODE_MEANING, HACK_CODES, MEASURE_CODES, isMeasureCode } from '../../../envs/kernel-speedup/measure/codes';
import { PROBE_OUTPUT, prepareKernel, attackProblem, materializeAttack, valueProblem, dimsProblem, numel, outputNames, outputSpecs, seededShapes, shapeText, reviewed, candidateProblem, candidateSource, kernelTask, performKernelRequest, runAttack, type KernelTask, type Measurement, type TimingSummary } from '../../../envs/kernel-speedup';

const tol = { atol: 1e-3, rtol: 1e-3 };
const ok = (y: number[], extra: Partial<KernelCallResult> = {}, probe: [number, number] = [0, 0]): KernelCallResult => ({ code: 'ok', ns: 1, outputs: { y: Float32Array.from(y), [PROBE_OUTPUT]: Int32Array.from(probe) }, flags: [], modified: [], ...extra });
const ctx = (o: { seen?: Set<string>; afterCorrectness?: boolean } = {}) => ({ kind: 'seeded' as const, dims: { N: 2 }, names: ['y'], tolerance: tol, seen: o.seen ?? new Set<string>(), afterCorrectness: o.afterCorrectness ?? false });

describe('one call, judged', () => {
  test('failed calls: the lab code, or the code its message names', () => {
    expect(failedCallCode(ok([1]))).toBeNull();
    for (const code of ['timeout', 'memory-limit', 'sandbox-error', 'syntax-error'] as const) expect(failedCallCode({ code, message: 'm' })).toEqual({ code, message: 'm' });
    expect(failedCallCode({ code: 'runtime-error', message: 'Error: the clock is not available in the sandbox' })!.code).toBe('reads-clock');
    expect(failedCallCode({ code: 'runtime-error', message: 'ReferenceError: performance is not defined' })!.code).toBe('reads-clock');
    expect(failedCallCode({ code: 'runtime-error', message: 'ReferenceError: Intl is not defined' })!.code).toBe('reads-clock');
    expect(failedCallCode({ code: 'runtime-error', message: 'output "y" has length 3, expected 2' })!.code).toBe('wrong-shape');
    expect(failedCallCode({ code: 'runtime-error', message: 'output "y" is not a Float32Array' })!.code).toBe('wrong-dtype');
    expect(failedCallCode({ code: 'runtime-error', message: 'the kernel returned null, not an object of outputs' })!.code).toBe('wrong-dtype');
    expect(failedCallCode({ code: 'runtime-error', message: 'RangeError: refused: wasm exception handling (the try instruction): a kernel module must not catch exceptions' })!.code).toBe('forbidden');
    expect(failedCallCode({ code: 'runtime-error', message: `TypeError: ${NO_PROMISES}` })!.code).toBe('forbidden');
    // the patterns are anchored: a message that only mentions them elsewhere is a runtime error
    expect(failedCallCode({ code: 'runtime-error', message: 'Error: x RangeError: refused: wasm exception handling (the try instruction)' })!.code).toBe('runtime-error');
    expect(failedCallCode({ code: 'runtime-error', message: `Error: x TypeError: ${NO_PROMISES}` })!.code).toBe('runtime-error');
    expect(failedCallCode({ code: 'runtime-error', message: 'x output "y" has length 3' })!.code).toBe('runtime-error');
    expect(failedCallCode({ code: 'runtime-error', message: 'x output "y" is not a Float32Array' })!.code).toBe('runtime-error');
    expect(failedCallCode({ code: 'runtime-error' })).toEqual({ code: 'runtime-error', message: undefined });
    expect(failedCallCode({ code: 'wrong-answer', message: 'w' })).toEqual({ code: 'runtime-error', message: 'w' });
  });

  test('firstCode: the earliest in the classifier order, ok only when all are ok', () => {
    expect(firstCode([])).toBe('ok');
    expect(firstCode(['ok', 'ok'])).toBe('ok');
    expect(firstCode(['wrong-answer', 'decoy', 'ok'])).toBe('decoy');
    expect(firstCode(['lower-precision', 'timeout'])).toBe('timeout');
    expect(firstCode(['syntax-error', 'wrong-answer'])).toBe('syntax-error');
  });

  test('a correct call is ok, and its result joins the seen set', () => {
    const seen = new Set<string>();
    const c = judgeCall(ok([1, 2]), ok([1, 2.0005]), ctx({ seen }));
    expect(c).toEqual({ kind: 'seeded', dims: { N: 2 }, code: 'ok', mismatches: 0, total: 2, maxAbsError: expect.closeTo(0.0005, 6) });
    expect(seen.size).toBe(1);
  });

  test('each flag its code, with a message', () => {
    expect(judgeCall(ok([1, 2], { flags: ['returns-input'] }), ok([1, 2]), ctx()).code).toBe('returns-input');
    expect(judgeCall(ok([1, 2], { flags: ['reuses-buffer'] }), ok([1, 2]), ctx()).code).toBe('kept-buffer');
    const m = judgeCall(ok([1, 2], { modified: ['x', 'z'] }), ok([1, 2]), ctx());
    expect(m).toMatchObject({ code: 'modifies-input', message: 'wrote to input x, z' });
    const h = judgeCall(ok([1, 2], {}, [3, 0]), ok([1, 2]), ctx());
    expect(h).toMatchObject({ code: 'hidden-failure', message: '3 exception(s) caught inside the kernel' });
    expect(judgeCall(ok([1, 2], {}, [0, 1]), ok([1, 2]), ctx()).code).toBe('lazy-output');
    // two findings: the earlier code, both notes
    const both = judgeCall(ok([1, 2], { modified: ['x'] }, [1, 0]), ok([1, 2]), ctx());
    expect(both).toMatchObject({ code: 'hidden-failure', message: 'wrote to input x; 1 exception(s) caught inside the kernel' });
    // no probe output at all: nothing flagged by it
    expect(judgeCall({ code: 'ok', outputs: { y: Float32Array.from([1, 2]) } }, ok([1, 2]), ctx()).code).toBe('ok');
  });

  test('wrong results: wrong-answer while checking, decoy after it, result-reuse when it is an earlier correct result', () => {
    const first = judgeCall(ok([5, 6]), ok([5, 6]), ctx());
    expect(first.code).toBe('ok');
    const w = judgeCall(ok([1, 3]), ok([1, 2]), ctx());
    expect(w).toMatchObject({ code: 'wrong-answer', mismatches: 1, total: 2, maxAbsError: 1, first: { output: 'y', index: 1, actual: 3, expected: 2 } });
    expect(judgeCall(ok([1, 3]), ok([1, 2]), ctx({ afterCorrectness: true })).code).toBe('decoy');
    const seen = new Set<string>();
    judgeCall(ok([5, 6]), ok([5, 6]), ctx({ seen }));
    expect(judgeCall(ok([5, 6]), ok([1, 2]), ctx({ seen, afterCorrectness: true })).code).toBe('result-reuse');
    // a wrong result is never added to the seen set
    judgeCall(ok([7, 8]), ok([1, 2]), ctx({ seen }));
    expect(seen.size).toBe(1);
  });

  test('a failed candidate call is its code, nothing compared', () => {
    expect(judgeCall({ code: 'timeout', message: 't' }, ok([1]), ctx())).toEqual({ kind: 'seeded', dims: { N: 2 }, code: 'timeout', mismatches: 0, total: 0, maxAbsError: 0, message: 't' });
    expect(judgeCall({ code: 'memory-limit' }, ok([1]), ctx())).toEqual({ kind: 'seeded', dims: { N: 2 }, code: 'memory-limit', mismatches: 0, total: 0, maxAbsError: 0 });
  });

  test('taskOutputs drops the probe and missing outputs', () => {
    expect(Object.keys(taskOutputs(ok([1]), ['y', 'z']))).toEqual(['y']);
    expect(taskOutputs({ code: 'ok' }, ['y'])).toEqual({});
  });
});

const timing = (o: Partial<TimingSummary> = {}): TimingSummary => ({ dims: { N: 4 }, warmup: 5, trials: 30, referenceNs: 10, candidateNs: 5, speedup: 2, lo: 1.9, hi: 2.1, cv: 0.01, remeasured: false, noisy: false, referenceTrialsNs: [10], candidateTrialsNs: [5], ...o });
const measurement = (o: Partial<Measurement> = {}): Measurement => ({ code: 'ok', correct: true, trials: [{ kind: 'edge', dims: { N: 1 }, code: 'ok', mismatches: 0, total: 1, maxAbsError: 0 }], checkedCalls: 35, timing: timing(), flags: [], ...o });

describe('recorded results: shape checks naming the field', () => {
  test('a good measurement, a good failed one', () => {
    expect(measurementProblem(measurement())).toBeNull();
    expect(measurementProblem(measurement({ code: 'wrong-answer', correct: false, timing: null }))).toBeNull();
    expect(measurementProblem(measurement({ review: { threshold: 3, claimed: timing({ speedup: 9, lo: 8, hi: 10 }), recheckCode: 'ok', recheck: timing(), confirmed: false } }))).toBeNull();
    expect(measurementProblem(measurement({ code: 'decoy', correct: false, timing: null, review: { threshold: 3, claimed: timing({ speedup: 9, lo: 8, hi: 10 }), recheckCode: 'decoy', recheck: null, confirmed: false } }))).toBeNull();
  });

  const bad: [string, unknown, string][] = [
    ['not an object', 3, 'the measurement is not an object'],
    ['an array', [], 'the measurement is not an object'],
    ['an unknown code', { ...measurement(), code: 'fast' }, 'measurement.code "fast" is not a measurement code'],
    ['correct without ok', { ...measurement(), correct: false }, 'measurement.correct must be true exactly when the code is "ok"'],
    ['trials not a list', { ...measurement(), trials: {} }, 'measurement.trials must be a list'],
    ['a trial not an object', { ...measurement(), trials: [null] }, 'measurement.trials[0] is not a trial check'],
    ['a trial of an unknown kind', { ...measurement(), trials: [{ kind: 'x', code: 'ok', dims: {}, mismatches: 0, total: 0, maxAbsError: 0 }] }, 'measurement.trials[0].kind "x" is not one of edge, seeded, warmup, timed, attack'],
    ['a trial with an unknown code', { ...measurement(), trials: [{ kind: 'edge', code: 'no', dims: {}, mismatches: 0, total: 0, maxAbsError: 0 }] }, 'measurement.trials[0].code "no" is not a measurement code'],
    ['a trial without dims', { ...measurement(), trials: [{ kind: 'edge', code: 'ok', dims: null, mismatches: 0, total: 0, maxAbsError: 0 }] }, 'measurement.trials[0].dims is not an object'],
    ['a negative count', { ...measurement(), trials: [{ kind: 'edge', code: 'ok', dims: {}, mismatches: -1, total: 0, maxAbsError: 0 }] }, 'measurement.trials[0].mismatches must be a non-negative number'],
    ['a NaN error', { ...measurement(), trials: [{ kind: 'edge', code: 'ok', dims: {}, mismatches: 0, total: 0, maxAbsError: NaN }] }, 'measurement.trials[0].maxAbsError must be a non-negative number'],
    ['checkedCalls negative', { ...measurement(), checkedCalls: -2 }, 'measurement.checkedCalls must be a non-negative number'],
    ['checkedCalls text', { ...measurement(), checkedCalls: '3' }, 'measurement.checkedCalls must be a non-negative number'],
    ['flags not strings', { ...measurement(), flags: [1] }, 'measurement.flags must be a list of strings'],
    ['flags not a list', { ...measurement(), flags: 'noisy' }, 'measurement.flags must be a list of strings'],
    ['correct without timing', { ...measurement(), timing: null }, 'a correct measurement has a timing'],
    ['incorrect with timing', { ...measurement(), code: 'wrong-answer', correct: false }, 'an incorrect measurement has no timing'],
    ['timing not an object', { ...measurement(), timing: 3 }, 'measurement.timing must be an object or null'],
    ['a zero speedup', { ...measurement(), timing: timing({ speedup: 0 }) }, 'measurement.timing.speedup must be a positive number'],
    ['an infinite reference time', { ...measurement(), timing: timing({ referenceNs: Infinity }) }, 'measurement.timing.referenceNs must be a positive number'],
    ['negative trials', { ...measurement(), timing: timing({ trials: -1 }) }, 'measurement.timing.trials must be a non-negative number'],
    ['lo above the speedup', { ...measurement(), timing: timing({ lo: 2.5 }) }, 'measurement.timing must have lo ≤ speedup ≤ hi'],
    ['hi below the speedup', { ...measurement(), timing: timing({ hi: 1.5 }) }, 'measurement.timing must have lo ≤ speedup ≤ hi'],
    ['noisy not a boolean', { ...measurement(), timing: timing({ noisy: 1 as never }) }, 'measurement.timing.noisy and .remeasured must be booleans'],
    ['remeasured not a boolean', { ...measurement(), timing: timing({ remeasured: 'no' as never }) }, 'measurement.timing.noisy and .remeasured must be booleans'],
    ['trial times not numbers', { ...measurement(), timing: timing({ candidateTrialsNs: ['1'] as never }) }, 'measurement.timing.candidateTrialsNs must be a list of numbers'],
    ['trial times not a list', { ...measurement(), timing: timing({ referenceTrialsNs: 3 as never }) }, 'measurement.timing.referenceTrialsNs must be a list of numbers'],
    ['dims not an object', { ...measurement(), timing: timing({ dims: null as never }) }, 'measurement.timing.dims must be an object'],
    ['review not an object', { ...measurement(), review: 1 }, 'measurement.review must be an object'],
    ['review threshold zero', { ...measurement(), review: { threshold: 0, claimed: timing(), recheckCode: 'ok', recheck: timing(), confirmed: true } }, 'measurement.review.threshold must be a positive number'],
    ['review code unknown', { ...measurement(), review: { threshold: 3, claimed: timing(), recheckCode: 'meh', recheck: timing(), confirmed: true } }, 'measurement.review.recheckCode "meh" is not a measurement code'],
    ['review confirmed not boolean', { ...measurement(), review: { threshold: 3, claimed: timing(), recheckCode: 'ok', recheck: timing(), confirmed: 'yes' } }, 'measurement.review.confirmed must be a boolean'],
    ['confirmed by a failed re-check', { ...measurement(), review: { threshold: 3, claimed: timing(), recheckCode: 'decoy', recheck: null, confirmed: true } }, 'measurement.review.confirmed needs an ok re-check'],
    ['a bad claim', { ...measurement(), review: { threshold: 3, claimed: timing({ lo: 9 }), recheckCode: 'ok', recheck: timing(), confirmed: false } }, 'measurement.review.claimed must have lo ≤ speedup ≤ hi'],
    ['an ok re-check without timing', { ...measurement(), review: { threshold: 3, claimed: timing(), recheckCode: 'ok', recheck: null, confirmed: false } }, 'measurement.review.recheck must be a timing when the re-check is ok'],
    ['a bad re-check timing', { ...measurement(), review: { threshold: 3, claimed: timing(), recheckCode: 'ok', recheck: timing({ cv: -1 }), confirmed: false } }, 'measurement.review.recheck.cv must be a non-negative number'],
  ];
  test.each(bad)('%s', (_name, m, reason) => {
    expect(measurementProblem(m)).toBe(reason);
  });

  test('attack results', () => {
    const check = { kind: 'attack', dims: { N: 2 }, code: 'ok', mismatches: 0, total: 2, maxAbsError: 0 };
    expect(attackResultProblem({ code: 'ok', referenceFinite: true, referenceCode: 'ok', check })).toBeNull();
    expect(attackResultProblem({ code: 'ok', referenceFinite: true, referenceCode: 'ok', check: null })).toBeNull();
    expect(attackResultProblem(null)).toBe('the attack result is not an object');
    expect(attackResultProblem({ code: 'x', referenceFinite: true, referenceCode: 'ok', check })).toBe('attack.code "x" is not a measurement code');
    expect(attackResultProblem({ code: 'ok', referenceFinite: true, referenceCode: 'y', check })).toBe('attack.referenceCode "y" is not a measurement code');
    expect(attackResultProblem({ code: 'ok', referenceFinite: 'yes', referenceCode: 'ok', check })).toBe('attack.referenceFinite must be a boolean');
    expect(attackResultProblem({ code: 'ok', referenceFinite: true, referenceCode: 'ok', check: { ...check, kind: 'timed', total: -1 } })).toBe('attack.check.total must be a non-negative number');
  });
});

/** A lab whose kernels answer `answer(name, inputs)`; records opened kernels and calls. */
function scriptedLab(answer: (name: string, inputs: Record<string, KernelArray>, outputs: KernelOutputSpec[]) => KernelCallResult, status: Record<string, { code: KernelCallResult['code']; message?: string }> = { reference: { code: 'ok' }, candidate: { code: 'ok' } }): { lab: KernelLab; opened: Record<string, string>[]; closed: number[] } {
  const opened: Record<string, string>[] = [];
  const closed: number[] = [];
  const lab: KernelLab = {
    async open(kernels) {
      opened.push(kernels);
      const n = opened.length;
      return { status, call: async (name, inputs, _dims, outputs) => answer(name, inputs, outputs), close: async () => void closed.push(n) };
    },
  };
  return { lab, opened, closed };
}
const zeros = (outputs: KernelOutputSpec[], fill = 0): Record<string, KernelArray> => Object.fromEntries(outputs.map((o) => [o.name, o.dtype === 'f32' ? new Float32Array(o.length).fill(o.name === PROBE_OUTPUT ? 0 : fill) : new Int32Array(o.length)]));

describe('the attack against a scripted lab', () => {
  const sum = kernelTask('sum');
  const input = { dims: { N: 4 }, inputs: { x: { fill: 1 } } };
  test('the candidate matches: ok, reference finite; the session is closed', async () => {
    const { lab, closed } = scriptedLab((_n, _i, outputs) => ({ code: 'ok', outputs: zeros(outputs), flags: [], modified: [] }));
    const r = await runAttack(lab, sum, sum.reference, input);
    expect(r).toMatchObject({ code: 'ok', referenceFinite: true, referenceCode: 'ok', check: { kind: 'attack', code: 'ok' } });
    expect(closed).toEqual([1]);
  });

  test('the candidate differs: wrong-answer (never decoy: one call); a non-finite reference is said', async () => {
    const { lab } = scriptedLab((name, _i, outputs) => ({ code: 'ok', outputs: zeros(outputs, name === 'candidate' ? 1 : NaN), flags: [], modified: [] }));
    const r = await runAttack(lab, sum, sum.reference, input);
    expect(r).toMatchObject({ code: 'wrong-answer', referenceFinite: false, referenceCode: 'ok' });
  });

  test('the reference fails on the input: its code, and the candidate’s own', async () => {
    const { lab } = scriptedLab((name, _i, outputs) => (name === 'reference' ? { code: 'runtime-error', message: 'boom' } : { code: 'timeout', message: 't', outputs: zeros(outputs) }));
    const r = await runAttack(lab, sum, sum.reference, input);
    expect(r).toEqual({ code: 'timeout', message: 'the reference fails on this input (runtime-error: boom)', referenceFinite: false, referenceCode: 'runtime-error', check: null });
  });

  test('a candidate that does not prepare or load, a reference that does not load', async () => {
    const { lab } = scriptedLab(() => ({ code: 'ok' }));
    expect((await runAttack(lab, sum, 'function (', input)).code).toBe('syntax-error');
    const noLoad = scriptedLab(() => ({ code: 'ok' }), { reference: { code: 'ok' }, candidate: { code: 'memory-limit', message: 'm' } });
    expect(await runAttack(noLoad.lab, sum, sum.reference, input)).toMatchObject({ code: 'memory-limit', message: 'm' });
    const throws = scriptedLab(() => ({ code: 'ok' }), { reference: { code: 'ok' }, candidate: { code: 'runtime-error' } });
    expect(await runAttack(throws.lab, sum, sum.reference, input)).toMatchObject({ code: 'runtime-error', message: 'the candidate does not load' });
    const refDown = scriptedLab(() => ({ code: 'ok' }), { reference: { code: 'sandbox-error' }, candidate: { code: 'ok' } });
    expect(await runAttack(refDown.lab, sum, sum.reference, input)).toMatchObject({ code: 'sandbox-error', referenceCode: 'sandbox-error' });
  });
});

describe('candidates and the handler', () => {
  const matmul = kernelTask('matmul');
  test('candidateProblem names the field', () => {
    expect(candidateProblem(matmul, null)).toBe('the candidate must be an object with a "kind"');
    expect(candidateProblem(matmul, { kind: 'schedule', index: 0 })).toBeNull();
    expect(candidateProblem(matmul, { kind: 'schedule', index: 100000 })).toBe('candidate.index 100000 is not a legal schedule of matmul');
    expect(candidateProblem(matmul, { kind: 'js', source: ' ' })).toBe('candidate.source must be non-empty source text');
    expect(candidateProblem(matmul, { kind: 'assemblyscript', source: 3 })).toBe('candidate.source must be non-empty source text');
    expect(candidateProblem(matmul, { kind: 'js', source: 'x' })).toBeNull();
    expect(candidateProblem(matmul, { kind: 'py' })).toBe('candidate.kind must be "schedule", "js" or "assemblyscript", got "py"');
  });

  test('candidateSource: schedules rendered, JS as is, AssemblyScript compiled once per source (cached), failures coded', async () => {
    let compiles = 0;
    const lab: KernelLab = {
      open: async () => {
        throw new Error('not used');
      },
      compileAssemblyScript: async (source) => {
        compiles++;
        if (source === 'bad') return { code: 'compile-error', message: 'TS1003' };
        if (source === 'slow') return { code: 'timeout' };
        if (source === 'down') return { code: 'sandbox-error', message: 'gone' };
        return { code: 'ok', wasm: new Uint8Array([0, 97, 115, 109]) };
      },
    };
    expect(await candidateSource(lab, matmul, { kind: 'js', source: 'function k() {}' })).toEqual({ ok: true, source: 'function k() {}' });
    const s = await candidateSource(lab, matmul, { kind: 'schedule', index: 0 });
    expect(s.ok && s.source).toMatch(/^function kernel\(inputs, dims\)/);
    const a = await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'good' });
    expect(a.ok && a.source).toMatch(/new Uint8Array\(\[0,97,115,109\]\)/);
    await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'good' });
    expect(compiles).toBe(1);
    expect(await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'bad' })).toEqual({ ok: false, code: 'compile-error', message: 'TS1003' });
    expect(await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'bad' })).toEqual({ ok: false, code: 'compile-error', message: 'TS1003' });
    expect(compiles).toBe(2); // compile errors are cached too
    expect(await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'slow' })).toEqual({ ok: false, code: 'timeout', message: 'the compiler produced no module' });
    await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'slow' });
    expect(compiles).toBe(4); // a timeout is not cached
    expect(await candidateSource(lab, matmul, { kind: 'assemblyscript', source: 'down' })).toEqual({ ok: false, code: 'sandbox-error', message: 'gone' });
    expect(await candidateSource({ open: lab.open }, matmul, { kind: 'assemblyscript', source: 'good' })).toEqual({ ok: false, code: 'sandbox-error', message: 'this lab cannot compile AssemblyScript' });
    expect(await candidateSource(lab, matmul, { kind: 'js', source: '' })).toEqual({ ok: false, code: 'sandbox-error', message: 'candidate.source must be non-empty source text' });
  });

  test('the handler refuses a malformed request (the env’s bug) and answers a compile failure as a result', async () => {
    const { lab } = scriptedLab(() => ({ code: 'ok' }));
    const base = { task: 'sum', shape: { N: 4 }, seededTrials: 5, warmup: 5, trials: 30, cvThreshold: 0.1, expertCeiling: null, timeMs: 100, memoryMb: 64 };
    await expect(performKernelRequest(lab, { op: 'measure', candidate: { kind: 'js', source: '' }, ...base })).rejects.toThrow('kernel-measure: candidate.source must be non-empty source text');
    await expect(performKernelRequest(lab, { op: 'other', candidate: { kind: 'js', source: 'x' }, ...base } as never)).rejects.toThrow('kernel-measure: unknown op "other"');
    await expect(performKernelRequest(lab, { op: 'attack', candidate: { kind: 'js', source: 'x' }, input: { dims: { N: 0 }, inputs: {} }, ...base })).rejects.toThrow(/^kernel-measure: the attack input is outside the contract \(dims\.N must be an integer/);
    const noAsc = await performKernelRequest(lab, { op: 'measure', candidate: { kind: 'assemblyscript', source: 'x' }, ...base });
    expect(noAsc).toEqual({ op: 'measure', measurement: { code: 'sandbox-error', message: 'this lab cannot compile AssemblyScript', correct: false, trials: [], checkedCalls: 0, timing: null, flags: [] } });
    const attack = await performKernelRequest(lab, { op: 'attack', candidate: { kind: 'assemblyscript', source: 'x' }, input: { dims: { N: 2 }, inputs: { x: { fill: 0 } } }, ...base });
    expect(attack).toEqual({ op: 'attack', attack: { code: 'sandbox-error', message: 'this lab cannot compile AssemblyScript', referenceFinite: false, referenceCode: 'ok', check: null } });
  });
});

describe('the codes', () => {
  test('one meaning per code, in words (the README table, tooltips and text observations read them)', () => {
    expect(Object.keys(CODE_MEANING)).toEqual([...MEASURE_CODES]);
    for (const c of MEASURE_CODES) expect(CODE_MEANING[c]).toMatch(/^[a-z].{10,}/);
    expect(new Set(Object.values(CODE_MEANING)).size).toBe(MEASURE_CODES.length);
    expect(CODE_MEANING.ok).toBe('correct on every checked call');
    expect(CODE_MEANING['memory-limit']).toBe('the kernel ran out of memory');
  });

  test('the hack codes: every anti-hacking rule, the clock and reserved names; never ok or a plain failure', () => {
    expect(HACK_CODES).toEqual(['hidden-failure', 'lazy-output', 'returns-input', 'modifies-input', 'kept-buffer', 'result-reuse', 'decoy', 'lower-precision', 'reads-clock', 'forbidden']);
  });

  test('isMeasureCode', () => {
    expect(isMeasureCode('ok')).toBe(true);
    expect(isMeasureCode('wrong-answer')).toBe(true);
    expect(isMeasureCode('fast')).toBe(false);
    expect(isMeasureCode(0)).toBe(false);
    expect(isMeasureCode(null)).toBe(false);
  });

  test('the classifier order: never ran, failed openly, anti-hacking rules, wrong answers', () => {
    expect(MEASURE_CODES[0]).toBe('ok');
    expect(MEASURE_CODES.indexOf('sandbox-error')).toBeLessThan(MEASURE_CODES.indexOf('timeout'));
    expect(MEASURE_CODES.indexOf('wrong-dtype')).toBeLessThan(MEASURE_CODES.indexOf('hidden-failure'));
    expect(MEASURE_CODES.at(-1)).toBe('wrong-answer');
    expect(MEASURE_CODES).toHaveLength(20);
  });
});

describe('reviewed: what counts after a re-check (by hand)', () => {
  const t = (speedup: number, lo: number, hi: number, flags: Partial<TimingSummary> = {}) => timing({ speedup, lo, hi, ...flags });
  const trial = (code: Measurement['code']) => ({ kind: 'timed' as const, dims: { N: 4 }, code, mismatches: code === 'ok' ? 0 : 1, total: 4, maxAbsError: 0 });
  const first = measurement({ timing: t(10, 9, 11), flags: ['remeasured'], checkedCalls: 35, trials: [trial('ok')] });

  test('a failed re-check: its code, its message, the failing trials only, no timing', () => {
    const recheck = measurement({ code: 'decoy', correct: false, message: 'zeros', timing: null, checkedCalls: 12, trials: [trial('ok'), trial('ok'), trial('decoy')] });
    const m = reviewed(first, recheck, 3);
    expect(m).toEqual({
      code: 'decoy',
      message: 'the re-check on fresh inputs failed: decoy (zeros)',
      correct: false,
      trials: [trial('ok'), trial('decoy')],
      checkedCalls: 47,
      timing: null,
      flags: ['remeasured', 'review: 10.00× [9.00, 11.00] is above the threshold 3.00×; re-measured on fresh inputs: decoy, not confirmed'],
      review: { threshold: 3, claimed: first.timing, recheckCode: 'decoy', recheck: null, confirmed: false },
    });
    expect(reviewed(first, { ...recheck, message: undefined }, 3).message).toBe('the re-check on fresh inputs failed: decoy');
  });

  test('a lower re-measurement counts; above the threshold it confirms, at the threshold it does not', () => {
    const recheck = measurement({ timing: t(5, 4, 6), flags: ['noisy'], checkedCalls: 40, trials: [trial('ok'), trial('ok')] });
    const m = reviewed(first, recheck, 3);
    expect(m.timing).toEqual(recheck.timing);
    expect(m.trials).toEqual(first.trials);
    expect(m.checkedCalls).toBe(75);
    expect(m.flags).toEqual(['noisy', 'review: 10.00× [9.00, 11.00] is above the threshold 3.00×; re-measured on fresh inputs: 5.00× [4.00, 6.00], confirmed; the re-measurement counts']);
    expect(m.review!.confirmed).toBe(true);
    expect(reviewed(first, recheck, 4).review!.confirmed).toBe(false);
    expect(reviewed(first, recheck, 4).flags.at(-1)).toMatch(/, not confirmed; the re-measurement counts$/);
  });

  test('a higher re-measurement does not raise the pay: the first counts (and on a tie too)', () => {
    const higher = measurement({ timing: t(12, 11, 13), checkedCalls: 40 });
    const m = reviewed(first, higher, 3);
    expect(m.timing).toEqual(first.timing);
    expect(m.flags).toEqual(['remeasured', 'review: 10.00× [9.00, 11.00] is above the threshold 3.00×; re-measured on fresh inputs: 12.00× [11.00, 13.00], confirmed; the first counts']);
    const tie = measurement({ timing: t(11, 9, 12), flags: ['x'] });
    expect(reviewed(first, tie, 3).flags[0]).toBe('remeasured');
  });
});

describe('inputs: sizes, declared outputs, shapes', () => {
  test('numel, outputSpecs (the probe last), outputNames, shapeText', () => {
    expect(numel(['M', 'K'], { M: 3, K: 5 })).toBe(15);
    expect(numel([2, 'N'], { N: 7 })).toBe(14);
    expect(numel([], {})).toBe(1);
    const matmul = kernelTask('matmul');
    expect(outputSpecs(matmul, { M: 2, N: 3, K: 4 })).toEqual([
      { name: 'C', dtype: 'f32', length: 6 },
      { name: PROBE_OUTPUT, dtype: 'i32', length: 2 },
    ]);
    expect(outputNames(kernelTask('attention'))).toEqual(kernelTask('attention').outputs.map((o) => o.name));
    expect(shapeText({ M: 1, N: 2 })).toBe('M=1 N=2');
  });

  test('dimsProblem names the dimension and the rule', () => {
    const conv = kernelTask('conv2d');
    const matmul = kernelTask('matmul');
    expect(dimsProblem(matmul, { M: 1, N: 1, K: 1 })).toBeNull();
    expect(dimsProblem(matmul, null)).toBe('dims must be an object of dimension sizes');
    expect(dimsProblem(matmul, [1, 2])).toBe('dims must be an object of dimension sizes');
    expect(dimsProblem(matmul, 'M=1')).toBe('dims must be an object of dimension sizes');
    expect(dimsProblem(matmul, { M: 1, N: 1, K: 1, Q: 2 })).toBe('dims has unknown dimension "Q" (matmul has M, N, K)');
    expect(dimsProblem(matmul, { M: 1, N: 1 })).toBe('dims.K must be an integer in [1, 256], got undefined');
    expect(dimsProblem(matmul, { M: 1.5, N: 1, K: 1 })).toBe('dims.M must be an integer in [1, 256], got 1.5');
    expect(dimsProblem(matmul, { M: 257, N: 1, K: 1 })).toBe('dims.M must be an integer in [1, 256], got 257');
    expect(dimsProblem(matmul, { M: 0, N: 1, K: 1 })).toBe('dims.M must be an integer in [1, 256], got 0');
    expect(dimsProblem(matmul, { M: 256, N: 1, K: '2' })).toBe('dims.K must be an integer in [1, 256], got "2"');
    expect(dimsProblem(conv, conv.edgeShapes[0])).toBeNull();
    // inside every range, refused by the task's cross-dimension rule
    const e = conv.edgeShapes[0];
    expect(dimsProblem(conv, { ...e, OH: e.OH + 1 })).toBe(`OH must be H − 2 (valid 3×3 convolution), got OH=${e.OH + 1}, H=${e.H}`);
  });

  test('seededShapes: the timing shape first, then draws inside the contract; a listed shape when the cross rule keeps failing', () => {
    const matmul = kernelTask('matmul');
    const shapes = seededShapes(matmul, { M: 5, N: 6, K: 7 }, 4, 'seed');
    expect(shapes[0]).toEqual({ M: 5, N: 6, K: 7 });
    expect(shapes).toHaveLength(4);
    for (const s of shapes) expect(dimsProblem(matmul, s)).toBeNull();
    expect(new Set(shapes.map((s) => JSON.stringify(s))).size).toBe(4);
    expect(seededShapes(matmul, { M: 5, N: 6, K: 7 }, 4, 'seed')).toEqual(shapes);
    expect(seededShapes(matmul, { M: 5, N: 6, K: 7 }, 4, 'other')).not.toEqual(shapes);
    expect(seededShapes(matmul, { M: 5, N: 6, K: 7 }, 1, 'seed')).toEqual([{ M: 5, N: 6, K: 7 }]);
    // draws reach both ends of a wide range over many seeds (log-uniform, clamped)
    const ms = Array.from({ length: 200 }, (_, i) => seededShapes(matmul, { M: 5, N: 6, K: 7 }, 2, i)[1].M);
    expect(Math.min(...ms)).toBe(1);
    expect(Math.max(...ms)).toBeGreaterThan(128);
    expect(ms.every((m) => m >= 1 && m <= 256 && Number.isInteger(m))).toBe(true);
    const picky: KernelTask = { ...matmul, dimsValid: (d) => (d.M === 3 && d.N === 3 && d.K === 3 ? null : 'only 3x3x3') };
    const listed = [...matmul.edgeShapes, ...matmul.timingShapes].map((s) => JSON.stringify(s));
    for (const s of seededShapes(picky, { M: 3, N: 3, K: 3 }, 5, 'x').slice(1)) expect(listed).toContain(JSON.stringify(s));
  });
});

describe('attack inputs: every form and every refusal', () => {
  const softmax = kernelTask('softmax');
  const matmul = kernelTask('matmul');
  const histogram = kernelTask('histogram');
  const at = (x: unknown) => attackProblem(softmax, { dims: { R: 1, C: 4 }, inputs: { x } });
  test('refusals name the field', () => {
    expect(attackProblem(softmax, { dims: { R: 1, C: 1 }, inputs: { x: { fill: 0 } }, extra: 1 })).toBe('the attack has unknown field "extra" (only dims and inputs)');
    expect(attackProblem(softmax, [])).toBe('an attack is an object {"dims": {...}, "inputs": {...}}');
    expect(attackProblem(softmax, { dims: { R: 1, C: 1 }, inputs: [1] })).toBe('inputs must be an object with one fill per input tensor');
    expect(attackProblem(softmax, { dims: { R: 1, C: 1 }, inputs: null })).toBe('inputs must be an object with one fill per input tensor');
    expect(at({ fill: 1, seed: 2 })).toBe('inputs.x: {"fill"} takes no other field');
    expect(at({ cycle: [1], fill: 2 })).toBe('inputs.x: {"fill"} takes no other field');
    expect(at({ cycle: [1], seed: 2 })).toBe('inputs.x: {"cycle"} takes no other field');
    expect(at({ cycle: [] })).toBe('inputs.x.cycle must be a list of 1 to 1024 values');
    expect(at({ cycle: 3 })).toBe('inputs.x.cycle must be a list of 1 to 1024 values');
    expect(at({ cycle: Array(1025).fill(0) })).toBe('inputs.x.cycle must be a list of 1 to 1024 values');
    expect(at({ cycle: Array(1024).fill(0) })).toBeNull();
    expect(at({ cycle: [0, 99] })).toMatch(/^inputs\.x\.cycle\[1\]: 99 .*outside the range/);
    expect(at({ uniform: [0, 1], extra: 1 })).toBe('inputs.x: {"uniform"} takes only "seed" besides');
    expect(at({ uniform: [0] })).toBe('inputs.x.uniform must be [lo, hi]');
    expect(at({ uniform: 'a' })).toBe('inputs.x.uniform must be [lo, hi]');
    expect(at({ uniform: [0, 99] })).toMatch(/^inputs\.x\.uniform\[1\]: 99/);
    expect(at({ uniform: [1, 0] })).toBe('inputs.x.uniform needs lo ≤ hi');
    expect(at({ uniform: [1, 1] })).toBeNull();
    expect(at({ uniform: [0, 1], seed: 1.5 })).toBe('inputs.x.seed must be an integer');
    expect(at({ uniform: [0, 1], seed: '1' })).toBe('inputs.x.seed must be an integer');
    expect(at({ other: 1 })).toBe('inputs.x must be a list of values, {"fill"}, {"cycle"} or {"uniform"}');
    expect(at(3)).toBe('inputs.x must be a list of values, {"fill"}, {"cycle"} or {"uniform"}');
    expect(at(null)).toBe('inputs.x must be a list of values, {"fill"}, {"cycle"} or {"uniform"}');
    // the explicit budget counts over all inputs: 2 × 2,500 values
    const big = { dims: { M: 50, N: 50, K: 50 }, inputs: { A: Array(2500).fill(0), B: Array(2500).fill(0) } };
    expect(attackProblem(matmul, big)).toBe('at most 4096 explicit values in all (use {"fill"}, {"cycle"} or {"uniform"} for large tensors)');
    expect(attackProblem(matmul, { dims: { M: 64, N: 32, K: 32 }, inputs: { A: Array(2048).fill(0), B: Array(1024).fill(0) } })).toBeNull();
  });

  test('values: finite, inside the range as float32, integers for integer tensors, subnormals only where allowed', () => {
    const x = softmax.inputs[0];
    expect(valueProblem(x, 16)).toBeNull();
    expect(valueProblem(x, -16)).toBeNull();
    expect(valueProblem(x, 16.0000001)).toBeNull(); // rounds to 16 as float32
    expect(valueProblem(x, 16.01)).toBe('16.01 (as float32 16.010000228881836) is outside the range [-16, 16]');
    expect(valueProblem(x, Infinity)).toBe('Infinity is not a finite number');
    expect(valueProblem(x, '1')).toBe('"1" is not a finite number');
    expect(valueProblem(x, 0)).toBeNull();
    expect(valueProblem(x, 2 ** -126)).toBeNull(); // the smallest normal
    expect(valueProblem(x, -(2 ** -127))).toMatch(/is subnormal, which the contract excludes for x/);
    expect(valueProblem({ ...x, subnormals: true }, 2 ** -127)).toBeNull();
    const h = histogram.inputs[0];
    expect(valueProblem(h, 2.5)).toBe('2.5 is not an integer (u32)');
    expect(valueProblem(h, -1)).toMatch(/^-1 is outside the range \[0, \d+\]$/);
    expect(valueProblem(h, h.range[1])).toBeNull();
    expect(valueProblem(h, h.range[1] + 1)).toMatch(/is outside the range/);
  });

  test('materialized: lists, fills, cycles, seeded uniforms rounded to the dtype and clamped', () => {
    const dims = { R: 1, C: 4 };
    expect(Array.from(materializeAttack(softmax, { dims, inputs: { x: [1, 2, 3, 4] } }).x)).toEqual([1, 2, 3, 4]);
    expect(Array.from(materializeAttack(softmax, { dims, inputs: { x: { fill: 0.1 } } }).x)).toEqual(Array(4).fill(Math.fround(0.1)));
    const u = materializeAttack(softmax, { dims: { R: 1, C: 1000 }, inputs: { x: { uniform: [-1, 1] } } }).x;
    expect(u).toBeInstanceOf(Float32Array);
    expect(Array.from(u).every((v) => v >= -1 && v <= 1)).toBe(true);
    expect(new Set(u).size).toBeGreaterThan(900);
    // the seed defaults to 0; another seed, other values
    expect(Array.from(materializeAttack(softmax, { dims, inputs: { x: { uniform: [-1, 1], seed: 0 } } }).x)).toEqual(Array.from(materializeAttack(softmax, { dims, inputs: { x: { uniform: [-1, 1] } } }).x));
    expect(Array.from(materializeAttack(softmax, { dims, inputs: { x: { uniform: [-1, 1], seed: 5 } } }).x)).not.toEqual(Array.from(materializeAttack(softmax, { dims, inputs: { x: { uniform: [-1, 1] } } }).x));
    // integers: rounded, within [lo, hi], both ends reached
    const ints = materializeAttack(histogram, { dims: { N: 2000, B: 4 }, inputs: { x: { uniform: [3, 5], seed: 1 } } }).x;
    expect(ints).toBeInstanceOf(Uint32Array);
    expect([...new Set(ints)].sort()).toEqual([3, 4, 5]);
    // a float32 range of subnormals is flushed to zero where the contract excludes them
    const tiny = materializeAttack(softmax, { dims, inputs: { x: { uniform: [0, 2 ** -127], seed: 2 } } }).x;
    expect(Array.from(tiny)).toEqual([0, 0, 0, 0]);
    // a one-point range stays that point
    expect(Array.from(materializeAttack(softmax, { dims, inputs: { x: { uniform: [16, 16] } } }).x)).toEqual([16, 16, 16, 16]);
  });
});

describe('the wrapper (in a throwaway vm context; the lab runs it in an isolate)', () => {
  const run = (source: string, names: string[] = ['y']) => {
    const p = prepareKernel(source, names);
    if (!p.ok) throw new Error(p.message);
    const context = createContext({});
    return { f: runInContext(p.source, context) as (i: unknown, d: unknown) => Record<string, unknown>, context, p };
  };
  test('exactly the declared outputs, in a null-prototype object, with a probe per call', () => {
    const { f } = run('function k(i, d) { let n = 0; for (let j = 0; j < d.n; j++) { try { throw 1; } catch (e) { n++; } } return { y: n, z: 2 }; }');
    const a = f({}, { n: 2 });
    expect(Object.getPrototypeOf(a)).toBeNull();
    expect(Object.keys(a)).toEqual(['y', PROBE_OUTPUT]);
    expect(a.y).toBe(2);
    expect(Array.from(a[PROBE_OUTPUT] as Int32Array)).toEqual([2, 0]);
    // the count is per call, not since the start
    expect(Array.from(f({}, { n: 1 })[PROBE_OUTPUT] as Int32Array)).toEqual([1, 0]);
    expect(Array.from(f({}, { n: 0 })[PROBE_OUTPUT] as Int32Array)).toEqual([0, 0]);
  });

  test('a getter or setter anywhere on the result’s prototype chain is a lazy output; a plain inherited value is not', () => {
    const viaProto = run('function k() { const p = {}; Object.defineProperty(p, "y", { get() { return 1; } }); return Object.create(Object.create(p)); }').f({}, {});
    expect(Array.from(viaProto[PROBE_OUTPUT] as Int32Array)).toEqual([0, 1]);
    const setter = run('function k() { return { set y(v) {} }; }').f({}, {});
    expect(Array.from(setter[PROBE_OUTPUT] as Int32Array)).toEqual([0, 1]);
    const inherited = run('function k() { return Object.create({ y: 5 }); }').f({}, {});
    expect(inherited.y).toBe(5);
    expect(Array.from(inherited[PROBE_OUTPUT] as Int32Array)).toEqual([0, 0]);
    const missing = run('function k() { return {}; }').f({}, {});
    expect(Array.from(missing[PROBE_OUTPUT] as Int32Array)).toEqual([0, 0]);
  });

  test('a result that is not an object is handed back as is (the lab reports it)', () => {
    expect(run('function k() { return null; }').f({}, {})).toBeNull();
    expect(run('function k() { return 3; }').f({}, {})).toBe(3);
    expect(run('function k() {}').f({}, {})).toBeUndefined();
  });

  test('no code generation from strings: eval, Function and every function constructor', () => {
    const { context } = run('function k() { return {}; }');
    for (const src of ['eval("1")', 'Function("return 1")()', '(function () {}).constructor("return 1")', '(function* () {}).constructor("yield 1")', '(async function* () {}).constructor("")']) {
      expect(() => runInContext(src, context)).toThrow('code generation from strings is not available to kernels');
    }
    // eval cannot be replaced by something that does run strings (a silent no-op in sloppy mode)
    runInContext('try { globalThis.eval = (x) => x; } catch (e) {}', context);
    expect(() => runInContext('eval("1")', context)).toThrow('code generation from strings is not available to kernels');
  });

  test('instrumented catches: each catch block counted once, nested ones included', () => {
    const p = prepareKernel('function k() { try { try { a(); } catch (e) { b(); } } catch (f) { c(); } return {}; }', ['y']);
    expect(p).toMatchObject({ ok: true, catches: 2 });
    expect(prepareKernel('function k() { return {}; }', ['y'])).toMatchObject({ ok: true, catches: 0 });
    // a catch inside a catch block: the later position is instrumented first, so both counters land in place
    const nested = run('function k() { let n = 0; try { throw 1; } catch (e) { n++; try { throw 2; } catch (g) { n++; } } return { y: n }; }');
    expect(nested.p.source).toContain('catch (e) { __ksCaught[0]++;  n++; try { throw 2; } catch (g) { __ksCaught[0]++;  n++; } }');
    const r = nested.f({}, {});
    expect(r.y).toBe(2);
    expect(Array.from(r[PROBE_OUTPUT] as Int32Array)).toEqual([2, 0]);
  });

  test('holes in the tree (an array literal or pattern with an empty slot, a null in the parser\'s lists) are skipped, not walked', () => {
    const { f } = run('function k(i) { const [, b] = [1, 2]; const a = [, 3, , 4]; return { y: a.length + b }; }');
    expect(f({}, {}).y).toBe(6);
    // a reserved name after a hole is still found
    expect(prepareKernel('function k() { const a = [, __ksCaught]; return {}; }', ['y'])).toMatchObject({ ok: false, code: 'forbidden' });
  });

  test('refusals, with messages', () => {
    expect(prepareKernel('function k() { return __ksNames; }', ['y'])).toEqual({ ok: false, code: 'forbidden', message: 'the name "__ksNames" is reserved for the measurement (names starting with __ks)' });
    expect(prepareKernel('(() => { class A { #__ksX = 1; } return () => 0; })()', ['y'])).toEqual({ ok: false, code: 'forbidden', message: 'the name "#__ksX" is reserved for the measurement' });
    expect(prepareKernel('(() => { class A { #x = 1; } return () => 0; })()', ['y']).ok).toBe(true);
    expect(prepareKernel('1); (2', ['y'])).toEqual({ ok: false, code: 'syntax-error', message: 'the source must be one function expression' });
    const bad = prepareKernel(`function k() { ${'x'.repeat(300)} ! }`, ['y']);
    expect(bad).toMatchObject({ ok: false, code: 'syntax-error' });
    expect(bad.ok || bad.message.length).toBeLessThanOrEqual(200);
    expect(bad.ok || bad.message).toMatch(/^Unexpected token/);
  });
});
