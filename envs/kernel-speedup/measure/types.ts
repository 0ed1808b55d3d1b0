/**
 * The measurement's results as plain JSON (they are recorded in the match log as effect results,
 * so replays and spectators never re-time anything).
 */
import type { Dims } from '../tasks/task';
import type { MeasureCode } from './codes';
import type { FirstMismatch } from './compare';

/** Where a checked call came from. */
export type TrialKind = 'edge' | 'seeded' | 'warmup' | 'timed' | 'attack';

/** One checked call of the candidate against the reference on the same inputs. */
export interface TrialCheck {
  kind: TrialKind;
  dims: Dims;
  /** ok, or the first rule the call broke. */
  code: MeasureCode;
  /** Elements outside the tolerance / compared. */
  mismatches: number;
  total: number;
  maxAbsError: number;
  first?: FirstMismatch;
  message?: string;
}

/** The timing of one measurement (the candidate against the reference on the timing shape). */
export interface TimingSummary {
  dims: Dims;
  warmup: number;
  /** Paired trials the figures come from. */
  trials: number;
  /** Median host time per call (kernel + output materialization), ns. */
  referenceNs: number;
  candidateNs: number;
  /** Median over trials of referenceNs_t / candidateNs_t. */
  speedup: number;
  /** Smoothed-bootstrap 95% interval of that median (log ratios), widened by the lab's resolution (see README). */
  lo: number;
  hi: number;
  /** Robust coefficient of variation of the last batch's per-trial ratios (1.4826·MAD / median). */
  cv: number;
  /** The first batch's cv was above the threshold: a second batch followed, the figures pool both and the interval spans both batches' intervals. */
  remeasured: boolean;
  /** The second batch's cv was above the threshold too. */
  noisy: boolean;
  /** Per-trial times, ns (reference, candidate), in trial order (both batches when re-measured). */
  referenceTrialsNs: number[];
  candidateTrialsNs: number[];
}

/** The re-check of a speedup above the review threshold (review.ts). */
export interface Review {
  /** The lower bound above which a claim is re-checked: REVIEW_FACTOR × the task's expert speedup. */
  threshold: number;
  /** The first measurement's timing: the claim. */
  claimed: TimingSummary;
  /** The re-measurement's code (ok: correct on every checked call) and timing (null unless ok). */
  recheckCode: MeasureCode;
  recheck: TimingSummary | null;
  /** The re-measurement was correct and its lower bound cleared the threshold too. */
  confirmed: boolean;
}

/** One measurement of a candidate kernel. */
export interface Measurement {
  code: MeasureCode;
  message?: string;
  /** code === 'ok'. */
  correct: boolean;
  /** Correctness trials (edge shapes and seeded shapes), in order; then failing warm-up/timed checks. */
  trials: TrialCheck[];
  /** Warm-up and timed calls whose outputs were checked against the reference (every one). */
  checkedCalls: number;
  /** Null when the kernel was not correct (nothing is timed then) or timing was not asked. */
  timing: TimingSummary | null;
  /** "noisy", "remeasured", "review: ..." (a speedup above the review threshold, re-checked). */
  flags: string[];
  /** Present when the speedup was above the review threshold and re-measured (review.ts). */
  review?: Review;
}

/** The result of an attack: the candidate and the reference on the attacker's input. */
export interface AttackResult {
  /** ok: the candidate matches the reference; otherwise the rule it broke (wrong-answer...). */
  code: MeasureCode;
  message?: string;
  /** Every reference output is finite (else the attack proves nothing). */
  referenceFinite: boolean;
  /** The reference itself failed (runtime error...). */
  referenceCode: MeasureCode;
  check: TrialCheck | null;
}

/** The `kernel-measure` effect handler's answer (handler.ts): the measurement, or the attack's result. */
export type KernelEffectResult = { op: 'measure'; measurement: Measurement } | { op: 'attack'; attack: AttackResult };
