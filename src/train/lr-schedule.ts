/**
 * Learning-rate schedules over training iterations: an optional linear warm-up from 0, then
 * constant, linear decay, or cosine decay, reaching `minLr` at the last iteration
 * (0-based `iterations − 1`).
 */

/** Schedule kinds. */
export type LrScheduleKind = 'constant' | 'linear' | 'cosine';

export interface LrSchedule {
  kind: LrScheduleKind;
  lr: number;
  minLr: number;
  warmupIterations: number;
  iterations: number;
}

/** The learning rate at 0-based iteration `it`. */
export function learningRate(s: LrSchedule, it: number): number {
  if (s.warmupIterations > 0 && it < s.warmupIterations) return (s.lr * (it + 1)) / s.warmupIterations;
  const span = Math.max(1, s.iterations - s.warmupIterations - 1);
  const p = Math.min(1, Math.max(0, (it - s.warmupIterations) / span));
  switch (s.kind) {
    case 'constant':
      return s.lr;
    case 'linear':
      return s.minLr + (s.lr - s.minLr) * (1 - p);
    case 'cosine':
      return s.minLr + 0.5 * (s.lr - s.minLr) * (1 + Math.cos(Math.PI * p));
  }
}
