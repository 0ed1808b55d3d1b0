/**
 * The reward formulas of kernel-speedup-v1 (documented with worked examples in README.md).
 *
 * Defender, per measured revision (its return is the final revision's, or −1 when the attacker
 * breaks the final kernel):
 * - tiers (Dr.Kernel): incorrect (any code but ok) −1; correct with the interval's lower bound
 *   lo ≥ 3, 2, 1.5, 1.2, 1 → 1.0, 0.8, 0.6, 0.4, 0.2 (a speedup counts only when lo clears the
 *   tier); correct with hi < 1 (demonstrably slower) −slowPenalty; otherwise (the interval holds
 *   1) 0;
 * - log-speedup: incorrect −1; correct: ln s*, s* the point of [lo, hi] nearest 1 (lo when lo > 1,
 *   hi when hi < 1, else 1), clipped to [−0.5, ln 10].
 * Attacker: −1 for an input outside the contract; +1 when the kernel is wrong on a valid input
 * while the reference ran and all its outputs are finite; 0 otherwise.
 * Evaluator, per prediction p over the outcome classes: 1 − ½ Σ_k (p_k − o_k)² (the Brier score
 * rescaled to [0, 1]; proper: the truth maximizes the expected score).
 */
import type { AttackResult, Measurement } from './measure/types';

/** Tier thresholds on the lower bound and their rewards, best first. */
export const TIERS: readonly (readonly [number, number])[] = [
  [3, 1.0],
  [2, 0.8],
  [1.5, 0.6],
  [1.2, 0.4],
  [1, 0.2],
];

/** The outcome classes the evaluator predicts: incorrect, not faster, then the tiers from 1× up. */
export const OUTCOMES = ['incorrect', 'not-faster', '1x', '1.2x', '1.5x', '2x', '3x'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcome class of a measurement (index into OUTCOMES). */
export function outcomeClass(m: Measurement): number {
  if (!m.correct || !m.timing) return 0;
  const lo = m.timing.lo;
  for (let i = 0; i < TIERS.length; i++) if (lo >= TIERS[i][0]) return OUTCOMES.length - 1 - i;
  return 1;
}

/** The tiered reward of a measurement. */
export function tierReward(m: Measurement, slowPenalty: number): number {
  if (!m.correct || !m.timing) return -1;
  const { lo, hi } = m.timing;
  for (const [threshold, value] of TIERS) if (lo >= threshold) return value;
  return hi < 1 ? 0 - slowPenalty : 0;
}

/** The log-speedup reward of a measurement. */
export function logSpeedupReward(m: Measurement): number {
  if (!m.correct || !m.timing) return -1;
  const { lo, hi } = m.timing;
  const s = lo > 1 ? lo : hi < 1 ? hi : 1;
  return Math.min(Math.log(10), Math.max(-0.5, Math.log(s)));
}

/** The defender's reward of a measurement under a scheme. */
export function defenderReward(m: Measurement, scheme: 'tiers' | 'log-speedup', slowPenalty: number): number {
  return scheme === 'tiers' ? tierReward(m, slowPenalty) : logSpeedupReward(m);
}

/** The attacker's score: −1 outside the contract; +1 a broken kernel with a finite reference; else 0. */
export function attackScore(valid: boolean, result: AttackResult | null): number {
  if (!valid) return -1;
  if (!result || result.referenceCode !== 'ok' || !result.referenceFinite) return 0;
  return result.code === 'ok' ? 0 : 1;
}

/** The evaluator's score of a forecast `p` (one probability per outcome class) when class `truth` happened. */
export function predictionScore(p: readonly number[], truth: number): number {
  let s = 0;
  for (let k = 0; k < OUTCOMES.length; k++) s += ((p[k] ?? 0) - (k === truth ? 1 : 0)) ** 2;
  return 1 - s / 2;
}

/** Mean of a list (0 when empty). */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
