/**
 * `arena replay --rerun` of kernel measurements: a rerun draws a fresh secret, so it measures other
 * inputs; the comparison judges verdicts (the code; overlapping intervals), not figures.
 */
import type { JsonValue } from '../../../src/core/json';
import { compareKernelResults, kernelMeasureHandler, type KernelEffectResult, type Measurement, type TimingSummary } from '../../../envs/kernel-speedup';
import type { KernelLab } from '../../../src/core/sandbox';

const timing = (speedup: number, lo: number, hi: number): TimingSummary => ({ dims: { N: 8 }, warmup: 5, trials: 30, referenceNs: 1000, candidateNs: 1000 / speedup, speedup, lo, hi, cv: 0.01, remeasured: false, noisy: false, referenceTrialsNs: [1000], candidateTrialsNs: [1000 / speedup] });
const measured = (code: Measurement['code'], t: TimingSummary | null, mismatches = 0): JsonValue =>
  ({ op: 'measure', measurement: { code, correct: code === 'ok', trials: [{ kind: 'edge', dims: { N: 1 }, code, mismatches, total: 1, maxAbsError: 0 }], checkedCalls: 35, timing: t, flags: [] } }) as unknown as JsonValue;
const attacked = (code: Measurement['code'], maxAbsError = 0, referenceFinite = true): JsonValue =>
  ({ op: 'attack', attack: { code, referenceFinite, referenceCode: 'ok', check: { kind: 'attack', dims: { N: 1 }, code, mismatches: 0, total: 1, maxAbsError } } }) as KernelEffectResult as unknown as JsonValue;

describe('kernel-measure rerun verdicts', () => {
  test('equal results are the same', () => {
    expect(compareKernelResults(measured('ok', timing(2, 1.9, 2.1)), measured('ok', timing(2, 1.9, 2.1)))).toEqual({ verdict: 'same' });
  });

  test('correct both times with overlapping intervals: the figures vary (not a failure)', () => {
    expect(compareKernelResults(measured('ok', timing(2, 1.9, 2.1)), measured('ok', timing(2.05, 2.0, 2.2)))).toEqual({
      verdict: 'varies',
      detail: 'speedup recorded 2.00× [1.90, 2.10], now 2.05× [2.00, 2.20] (fresh inputs; the intervals overlap)',
    });
    // touching intervals overlap, either way round
    expect(compareKernelResults(measured('ok', timing(2, 1.9, 2.1)), measured('ok', timing(2.2, 2.1, 2.3))).verdict).toBe('varies');
    expect(compareKernelResults(measured('ok', timing(2.2, 2.1, 2.3)), measured('ok', timing(2, 1.9, 2.1))).verdict).toBe('varies');
  });

  test('disjoint intervals are different: the seed oracle of an old log shows here (recorded 40×, the reference now)', () => {
    expect(compareKernelResults(measured('ok', timing(40, 13, 117)), measured('ok', timing(1, 0.97, 1.03)))).toEqual({
      verdict: 'different',
      detail: 'speedup recorded 40.00× [13.00, 117.00], now 1.00× [0.97, 1.03]: the intervals do not overlap',
    });
    expect(compareKernelResults(measured('ok', timing(1, 0.97, 1.03)), measured('ok', timing(40, 13, 117))).verdict).toBe('different');
  });

  test('another code is different (correct when recorded, wrong on fresh inputs)', () => {
    expect(compareKernelResults(measured('ok', timing(2, 1.9, 2.1)), measured('wrong-answer', null))).toEqual({ verdict: 'different', detail: 'code: recorded "ok", now "wrong-answer" (on fresh inputs)' });
  });

  test('the same failing code on other inputs varies', () => {
    expect(compareKernelResults(measured('wrong-answer', null, 3), measured('wrong-answer', null, 5))).toEqual({ verdict: 'varies', detail: 'the same code (wrong-answer) on fresh inputs' });
  });

  test('attacks: the input is fixed, so codes must agree; other details vary', () => {
    expect(compareKernelResults(attacked('ok'), attacked('wrong-answer'))).toEqual({ verdict: 'different', detail: 'attack code: recorded "ok", now "wrong-answer"' });
    expect(compareKernelResults(attacked('ok', 0, true), attacked('ok', 0, false))).toEqual({ verdict: 'different', detail: 'attack referenceFinite: recorded true, now false' });
    expect(compareKernelResults(attacked('ok', 0), attacked('ok', 1e-7))).toEqual({ verdict: 'varies', detail: 'the same verdict (ok); details differ' });
  });

  test('results of different kinds, or malformed ones, are different (never a throw)', () => {
    const kinds = { verdict: 'different', detail: 'the results are of different kinds' };
    expect(compareKernelResults(measured('ok', timing(2, 1.9, 2.1)), attacked('ok'))).toEqual(kinds);
    expect(compareKernelResults(null, measured('ok', timing(2, 1.9, 2.1)))).toEqual(kinds);
    expect(compareKernelResults(measured('ok', timing(2, 1.9, 2.1)), null)).toEqual(kinds);
    expect(compareKernelResults(3, 4)).toEqual(kinds);
    expect(compareKernelResults('a', 'b')).toEqual(kinds);
    expect(compareKernelResults({ op: 'other' }, { op: 'other', x: 1 })).toEqual({ verdict: 'different', detail: 'unknown result kind' });
    expect(compareKernelResults({ op: 'attack' }, attacked('ok'))).toEqual({ verdict: 'different', detail: 'attack code: recorded undefined, now "ok"' });
    expect(compareKernelResults(attacked('ok'), { op: 'attack' })).toEqual({ verdict: 'different', detail: 'attack code: recorded "ok", now undefined' });
    expect(compareKernelResults({ op: 'measure' }, measured('ok', null))).toEqual({ verdict: 'different', detail: 'code: recorded undefined, now "ok" (on fresh inputs)' });
    expect(compareKernelResults(measured('ok', null), { op: 'measure' })).toEqual({ verdict: 'different', detail: 'code: recorded "ok", now undefined (on fresh inputs)' });
    // a correct measurement without a timing (malformed) on either side: the same code, nothing to compare
    expect(compareKernelResults(measured('ok', timing(2, 1.9, 2.1)), measured('ok', null))).toEqual({ verdict: 'varies', detail: 'the same code (ok) on fresh inputs' });
    expect(compareKernelResults(measured('ok', null), measured('ok', timing(2, 1.9, 2.1)))).toEqual({ verdict: 'varies', detail: 'the same code (ok) on fresh inputs' });
  });

  test("the env's handler carries this comparison", () => {
    expect(kernelMeasureHandler({} as KernelLab).compare).toBe(compareKernelResults);
  });
});
