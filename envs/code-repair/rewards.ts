/**
 * The reward formulas of code-repair-v1 (documented with examples in README.md).
 *
 * FixAudit (fixer vs auditor):
 * - auditor, per proposed test: +1 when the test is valid (the reference passes it) and the
 *   candidate fails it, 0 when valid and passed, −1 when invalid; its return is the mean over
 *   every test it proposed (0 if none);
 * - fixer: the share of hidden tests its final program passes, minus `penalty` for each valid
 *   auditor test that program fails.
 *
 * CURE (k programs × k tests, reimplemented from the paper's description):
 * - coder, per program: its pass rate on the ground-truth tests; return = the mean;
 * - tester, per test j: with C the correct programs (pass every ground-truth test; the reference
 *   always counts as one) and W the wrong ones: if every program in C passes j, +share of W that
 *   j rejects; otherwise −share of W that j lets through (0 when W is empty); return = the mean.
 */

/** The auditor's score for one test. */
export function auditScore(valid: boolean, candidatePassed: boolean): number {
  if (!valid) return -1;
  return candidatePassed ? 0 : 1;
}

/** Mean of a list (0 when empty). */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** The fixer's return: hidden pass share minus the penalty per failed valid auditor test. */
export function fixerReturn(hiddenPassed: number, hiddenTotal: number, auditFailed: number, penalty: number): number {
  const share = hiddenTotal > 0 ? hiddenPassed / hiddenTotal : 0;
  return share - penalty * auditFailed;
}

/**
 * CURE's reward of one test. `passes[i]`: program i passes the test; `correct[i]`: program i
 * passes the ground truth; `referencePasses`: the reference passes the test (the reference is
 * always a correct program).
 */
export function cureTestReward(passes: readonly boolean[], correct: readonly boolean[], referencePasses: boolean): number {
  const wrong = passes.filter((_, i) => !correct[i]);
  const everyCorrectPasses = referencePasses && passes.every((p, i) => !correct[i] || p);
  if (!wrong.length) return 0;
  if (everyCorrectPasses) return wrong.filter((p) => !p).length / wrong.length;
  return -wrong.filter((p) => p).length / wrong.length;
}

/** z-scores (mean 0, standard deviation 1); all zeros when the values do not vary. */
export function zscores(xs: readonly number[]): number[] {
  const m = mean(xs);
  const sd = Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
  return xs.map((x) => (sd > 1e-12 ? (x - m) / sd : 0));
}

/** Brier score reward of a probability forecast: 1 − (p − outcome)². */
export function brierReward(p: number, outcome: boolean): number {
  return 1 - (p - (outcome ? 1 : 0)) ** 2;
}
