/**
 * Co-evolution schedule of several learners: all train every iteration (`simultaneous`), or
 * they take turns (`alternate:K`): learner j trains during iterations [jK, (j+1)K), then the
 * next one, round-robin, while the others play with their frozen current policy.
 */
import { ConfigError } from './config';

export type Schedule = { kind: 'simultaneous' } | { kind: 'alternate'; every: number };

/** Parses "simultaneous" or "alternate:K" (K ≥ 1); throws an error naming the option. */
export function parseSchedule(text: string | undefined): Schedule {
  if (text === undefined || text === 'simultaneous') return { kind: 'simultaneous' };
  const m = /^alternate(?::(\d+))?$/.exec(text.trim());
  if (!m) throw new ConfigError(`--schedule: expected "simultaneous" or "alternate:K" (K a positive integer), got "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`);
  const every = m[1] === undefined ? 1 : Number(m[1]);
  if (!(every >= 1) || !Number.isSafeInteger(every)) throw new ConfigError(`--schedule: K must be an integer of at least 1, got "${m[1].slice(0, 20)}"`);
  return { kind: 'alternate', every };
}

/** Whether learner number `index` (of `count`) trains in 0-based iteration `it`. */
export function trainsAt(s: Schedule, index: number, count: number, it: number): boolean {
  if (s.kind === 'simultaneous' || count <= 1) return true;
  return Math.floor(it / s.every) % count === index;
}

/** Text form (for state files and logs). */
export function formatSchedule(s: Schedule): string {
  return s.kind === 'simultaneous' ? 'simultaneous' : `alternate:${s.every}`;
}
