/**
 * The reward formulas of kernel-speedup-v1 by hand (README "Rewards" has the same examples), and
 * the reading of every seat's actions.
 */
import { attackScore, kernelTask, logSpeedupReward, outcomeClass, predictionScore, tierReward, OUTCOMES, type AttackResult, type Measurement } from '../../../envs/kernel-speedup';
import { readAttack, readPrediction, readSubmission } from '../../../envs/kernel-speedup/actions';
import { defenderReward } from '../../../envs/kernel-speedup/rewards';

function timed(speedup: number, lo: number, hi: number): Measurement {
  return {
    code: 'ok',
    correct: true,
    trials: [],
    checkedCalls: 35,
    timing: { dims: {}, warmup: 5, trials: 30, referenceNs: 1e6, candidateNs: 1e6 / speedup, speedup, lo, hi, cv: 0.05, remeasured: false, noisy: false, referenceTrialsNs: [], candidateTrialsNs: [] },
    flags: [],
  };
}
const wrong: Measurement = { code: 'result-reuse', correct: false, trials: [], checkedCalls: 12, timing: null, flags: [] };

describe('defender: tiers on the lower bound (Dr.Kernel)', () => {
  test.each([
    // [speedup, lo, hi, tier reward, outcome class]
    [3.4, 3.1, 3.6, 1.0, 6], // lo ≥ 3
    [3.4, 2.9, 3.9, 0.8, 5], // the median is above 3 but the lower bound only clears 2
    [2.1, 2.0, 2.2, 0.8, 5],
    [1.7, 1.55, 1.8, 0.6, 4],
    [1.3, 1.21, 1.4, 0.4, 3],
    [1.1, 1.02, 1.2, 0.2, 2],
    [1.1, 0.97, 1.25, 0, 1], // the interval holds 1: no tier
    [0.8, 0.7, 0.95, -0.1, 1], // demonstrably slower: the small penalty
  ])('speedup %p [%p, %p] → %p', (s, lo, hi, reward, cls) => {
    expect(tierReward(timed(s, lo, hi), 0.1)).toBe(reward);
    expect(outcomeClass(timed(s, lo, hi))).toBe(cls);
  });

  test('incorrect (any code but ok, hacks included) is −1 and class "incorrect"', () => {
    expect(tierReward(wrong, 0.1)).toBe(-1);
    expect(logSpeedupReward(wrong)).toBe(-1);
    expect(outcomeClass(wrong)).toBe(0);
    expect(OUTCOMES[0]).toBe('incorrect');
  });

  test('slowPenalty is the penalty', () => {
    expect(tierReward(timed(0.5, 0.4, 0.6), 0.25)).toBe(-0.25);
    expect(defenderReward(timed(0.5, 0.4, 0.6), 'tiers', 0)).toBe(0);
  });
});

describe('defender: log-speedup of the interval point nearest 1', () => {
  test.each([
    [2, 1.8, 2.2, Math.log(1.8)], // lo > 1: ln lo
    [1.05, 0.98, 1.1, 0], // holds 1: 0
    [0.8, 0.75, 0.9, Math.log(0.9)], // hi < 1: ln hi = −0.105
    [0.2, 0.15, 0.3, -0.5], // ln 0.3 = −1.2, clipped to −0.5 (never as bad as incorrect)
    [40, 30, 50, Math.log(10)], // clipped to ln 10
  ])('speedup %p [%p, %p] → %p', (s, lo, hi, r) => {
    expect(logSpeedupReward(timed(s, lo, hi))).toBeCloseTo(r, 12);
  });
});

describe('attacker and evaluator', () => {
  const res = (code: AttackResult['code'], referenceFinite = true): AttackResult => ({ code, referenceFinite, referenceCode: 'ok', check: null });
  test('attack: −1 outside the contract; +1 kernel wrong with a finite reference; 0 otherwise', () => {
    expect(attackScore(false, null)).toBe(-1);
    expect(attackScore(true, res('wrong-answer'))).toBe(1);
    expect(attackScore(true, res('modifies-input'))).toBe(1);
    expect(attackScore(true, res('ok'))).toBe(0);
    expect(attackScore(true, res('wrong-answer', false))).toBe(0); // the reference overflows: proves nothing
    expect(attackScore(true, { ...res('runtime-error'), referenceCode: 'runtime-error' })).toBe(0);
  });

  test('prediction score 1 − ½ Σ (p − o)², by hand', () => {
    // truth "2x" (index 5); p = 0.5 on 2x, 0.5 on 1.5x: 1 − ½((0.5 − 1)² + 0.5²) = 0.75
    expect(predictionScore([0, 0, 0, 0, 0.5, 0.5, 0], 5)).toBeCloseTo(0.75, 12);
    expect(predictionScore([0, 0, 0, 0, 0, 1, 0], 5)).toBe(1);
    expect(predictionScore([1, 0, 0, 0, 0, 0, 0], 5)).toBe(0);
    // uniform over 7: 1 − ½((6/7)² + 6·(1/7)²) = 1 − ½·(42/49) = 4/7
    expect(predictionScore(new Array(7).fill(1 / 7), 2)).toBeCloseTo(4 / 7, 12);
  });

  test('the score is proper: reporting the true distribution maximizes the expected score', () => {
    const q = [0.1, 0.2, 0.3, 0.2, 0.1, 0.05, 0.05];
    const expected = (p: number[]) => q.reduce((s, qk, k) => s + qk * predictionScore(p, k), 0);
    const truthful = expected(q);
    for (const p of [[0, 0, 1, 0, 0, 0, 0], new Array(7).fill(1 / 7), [0.2, 0.2, 0.2, 0.2, 0.1, 0.05, 0.05]]) expect(expected(p)).toBeLessThan(truthful);
  });
});

describe('reading actions', () => {
  const matmul = kernelTask('matmul');
  test('defender: indices, schedules, code by fence or content, stop', () => {
    expect(readSubmission(matmul, 'any', 0, 75)).toEqual({ ok: true, value: { kind: 'schedule', index: 75 } });
    expect(readSubmission(matmul, 'any', 0, ' 75 ')).toEqual({ ok: true, value: { kind: 'schedule', index: 75 } });
    expect(readSubmission(matmul, 'any', 0, { schedule: { order: 'bt', rows: 4, unroll: 2, tileK: 0 } })).toEqual({ ok: true, value: { kind: 'schedule', index: 75 } });
    expect(readSubmission(matmul, 'any', 0, '```js\nfunction k(i, d) { return {}; }\n```')).toEqual({ ok: true, value: { kind: 'js', source: 'function k(i, d) { return {}; }' } });
    expect(readSubmission(matmul, 'any', 0, '```assemblyscript\nexport function kernel(): void {}\n```')).toMatchObject({ ok: true, value: { kind: 'assemblyscript' } });
    expect(readSubmission(matmul, 'any', 0, 'export function kernel(A: usize): void {}')).toMatchObject({ ok: true, value: { kind: 'assemblyscript' } });
    expect(readSubmission(matmul, 'any', 1, 'stop')).toEqual({ ok: true, value: 'stop' });
    expect(readSubmission(matmul, 'any', 0, 'stop')).toMatchObject({ ok: false, reason: expect.stringMatching(/submit one first/) });
    expect(readSubmission(matmul, 'any', 0, 81)).toMatchObject({ ok: false, reason: expect.stringMatching(/81 is not a legal schedule index of matmul/) });
    expect(readSubmission(matmul, 'schedule', 0, 'function k() {}')).toMatchObject({ ok: false, reason: expect.stringMatching(/schedules only/) });
    expect(readSubmission(matmul, 'code', 0, 3)).toMatchObject({ ok: false, reason: expect.stringMatching(/code only/) });
    expect(readSubmission(matmul, 'any', 0, '```py\nx\n```')).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown code fence language "py"/) });
    expect(readSubmission(matmul, 'any', 0, { schedule: { order: 'bt' } })).toMatchObject({ ok: false, reason: expect.stringMatching(/order ∈ \{ijk, ikj, bt\}/) });
  });

  test('evaluator: a list or an object over the classes, summing to 1', () => {
    expect(readPrediction([0, 0, 0, 0, 0, 1, 0])).toEqual({ ok: true, value: [0, 0, 0, 0, 0, 1, 0] });
    expect(readPrediction('{"incorrect": 0.25, "2x": 0.75}')).toEqual({ ok: true, value: [0.25, 0, 0, 0, 0, 0.75, 0] });
    expect(readPrediction({ '2x': 0.5 })).toMatchObject({ ok: false, reason: expect.stringMatching(/sum to 0.5/) });
    expect(readPrediction({ '4x': 1 })).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown outcome "4x"/) });
    expect(readPrediction([1, 0])).toMatchObject({ ok: false, reason: expect.stringMatching(/lists 7 probabilities/) });
  });

  test('attacker: JSON text or an object with dims and inputs', () => {
    expect(readAttack('{"dims": {"M": 1}, "inputs": {}}')).toMatchObject({ ok: true });
    expect(readAttack({ dims: 3, inputs: {} })).toMatchObject({ ok: false, reason: expect.stringMatching(/"dims"/) });
    expect(readAttack('not json')).toMatchObject({ ok: false, reason: expect.stringMatching(/must be JSON/) });
  });
});
