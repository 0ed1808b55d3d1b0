/**
 * A claim too good to be true is re-checked, not paid. A measurement whose lower bound is above
 * the review threshold — {@link REVIEW_FACTOR} × the task's recorded expert speedup — is measured
 * again in a fresh lab session (fresh isolates: nothing the kernel kept survives) on inputs from
 * a fresh secret, with the full protocol (every correctness shape, warm-up, every timed output
 * checked in full against the reference). Only what the re-measurement confirms counts:
 *
 * - the re-measurement fails (any code but ok): the measurement takes its code (an incorrect
 *   kernel, reward −1) — a kernel right on one set of inputs and wrong on another is wrong;
 * - it is correct: the measurement reports the timing with the lower lower bound of the two, so
 *   a speedup is paid at most what both runs showed.
 *
 * Either way `review` records the claim, the re-measurement and whether it confirmed the claim
 * (correct, and its lower bound above the threshold too), and a `review: …` flag says it in words.
 */
import type { Measurement, Review, TimingSummary } from './types';

/** A lower bound above this multiple of the task's expert speedup is re-checked. */
export const REVIEW_FACTOR = 2;

/**
 * The review threshold of a task: REVIEW_FACTOR × its recorded expert speedup, or REVIEW_FACTOR ×
 * 1 when none is recorded (any claim above 2× is then re-checked).
 */
export function reviewThreshold(expertCeiling: number | null): number {
  return REVIEW_FACTOR * (expertCeiling !== null && expertCeiling > 0 ? expertCeiling : 1);
}

const fmt = (t: TimingSummary) => `${t.speedup.toFixed(2)}× [${t.lo.toFixed(2)}, ${t.hi.toFixed(2)}]`;

/** The measurement that counts after a re-check of `first` (whose lower bound was above `threshold`). */
export function reviewed(first: Measurement, recheck: Measurement, threshold: number): Measurement {
  const claimed = first.timing!;
  // a re-measurement has a timing exactly when it is correct (it is timed like the first)
  const again = recheck.timing;
  const confirmed = again !== null && again.lo > threshold;
  const review: Review = { threshold, claimed, recheckCode: recheck.code, recheck: again, confirmed };
  const head = `review: ${fmt(claimed)} is above the threshold ${threshold.toFixed(2)}×; re-measured on fresh inputs:`;
  const checkedCalls = first.checkedCalls + recheck.checkedCalls;
  if (again === null) {
    return {
      code: recheck.code,
      message: `the re-check on fresh inputs failed: ${recheck.code}${recheck.message ? ` (${recheck.message})` : ''}`,
      correct: false,
      trials: [...first.trials, ...recheck.trials.filter((t) => t.code !== 'ok')],
      checkedCalls,
      timing: null,
      flags: [...first.flags, `${head} ${recheck.code}, not confirmed`],
      review,
    };
  }
  const paid = again.lo < claimed.lo ? recheck : first;
  return {
    ...paid,
    trials: first.trials,
    checkedCalls,
    flags: [...paid.flags, `${head} ${fmt(again)}, ${confirmed ? 'confirmed' : 'not confirmed'}; ${paid === first ? 'the first' : 'the re-measurement'} counts`],
    review,
  };
}
