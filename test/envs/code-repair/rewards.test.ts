import { auditScore, brierReward, cureTestReward, fixerReturn, mean, zscores } from '../../../envs/code-repair/rewards';

describe('code-repair reward formulas (hand-computed)', () => {
  test('FixAudit auditor: +1 valid and failed, 0 valid and passed, -1 invalid; the return is the mean', () => {
    expect([auditScore(true, false), auditScore(true, true), auditScore(false, false), auditScore(false, true)]).toEqual([1, 0, -1, -1]);
    // a round of 4 tests: valid-failed, valid-passed, invalid, valid-failed -> (1 + 0 - 1 + 1) / 4
    expect(mean([1, 0, -1, 1])).toBe(0.25);
    expect(mean([])).toBe(0);
  });

  test('FixAudit fixer: hidden pass share minus the penalty per failed valid auditor test', () => {
    expect(fixerReturn(7, 10, 0, 0.1)).toBeCloseTo(0.7);
    expect(fixerReturn(7, 10, 2, 0.1)).toBeCloseTo(0.5);
    expect(fixerReturn(10, 10, 3, 0.25)).toBeCloseTo(0.25);
    expect(fixerReturn(0, 0, 1, 0.1)).toBeCloseTo(-0.1);
  });

  test('CURE tester: +share of wrong programs rejected when every correct program passes, else -share let through', () => {
    // programs: P0 correct, P1 wrong, P2 wrong, P3 correct
    const correct = [true, false, false, true];
    // test A: both correct pass, rejects P1 only -> +1/2
    expect(cureTestReward([true, false, true, true], correct, true)).toBe(0.5);
    // test B: rejects both wrong -> +1
    expect(cureTestReward([true, false, false, true], correct, true)).toBe(1);
    // test C: fails correct P3, lets P2 through -> -1/2
    expect(cureTestReward([true, false, true, false], correct, true)).toBe(-0.5);
    // test D: the reference fails it (invalid): every wrong program let through -> -1
    expect(cureTestReward([true, true, true, true], correct, false)).toBe(-1);
    // no wrong programs: 0 either way
    expect(cureTestReward([true, true], [true, true], true)).toBe(0);
    expect(cureTestReward([false, true], [true, true], true) === 0).toBe(true);
  });

  test('z-scores and the Brier reward', () => {
    expect(zscores([1, 0])).toEqual([1, -1]);
    expect(zscores([0.5, 0.5, 0.5])).toEqual([0, 0, 0]);
    const z = zscores([1, 2, 3, 6]);
    expect(mean(z)).toBeCloseTo(0);
    expect(mean(z.map((x) => x * x))).toBeCloseTo(1);
    expect(brierReward(0.8, true)).toBeCloseTo(0.96);
    expect(brierReward(0.8, false)).toBeCloseTo(0.36);
  });
});
