/**
 * Shape checks of recorded results (the env validates every effect result before it enters the
 * episode: a replayed or hand-written log with a malformed measurement is refused with a reason).
 */
import { isMeasureCode } from './codes';

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const KINDS = ['edge', 'seeded', 'warmup', 'timed', 'attack'];

/** Why `t` is not a trial check, or null. */
function trialProblem(t: unknown, where: string): string | null {
  if (!isObj(t)) return `${where} is not a trial check`;
  if (!KINDS.includes(t.kind as string)) return `${where}.kind ${JSON.stringify(t.kind)} is not one of ${KINDS.join(', ')}`;
  if (!isMeasureCode(t.code)) return `${where}.code ${JSON.stringify(t.code)} is not a measurement code`;
  if (!isObj(t.dims)) return `${where}.dims is not an object`;
  for (const k of ['mismatches', 'total', 'maxAbsError']) if (!finite(t[k]) || (t[k] as number) < 0) return `${where}.${k} must be a non-negative number`;
  return null;
}

/** Why `m` is not a measurement (naming the field), or null. */
export function measurementProblem(m: unknown): string | null {
  if (!isObj(m)) return 'the measurement is not an object';
  if (!isMeasureCode(m.code)) return `measurement.code ${JSON.stringify(m.code)} is not a measurement code`;
  if (m.correct !== (m.code === 'ok')) return 'measurement.correct must be true exactly when the code is "ok"';
  if (!Array.isArray(m.trials)) return 'measurement.trials must be a list';
  for (let i = 0; i < m.trials.length; i++) {
    const p = trialProblem(m.trials[i], `measurement.trials[${i}]`);
    if (p) return p;
  }
  if (!finite(m.checkedCalls) || m.checkedCalls < 0) return 'measurement.checkedCalls must be a non-negative number';
  if (!Array.isArray(m.flags) || m.flags.some((f) => typeof f !== 'string')) return 'measurement.flags must be a list of strings';
  if (m.review !== undefined) {
    const p = reviewProblem(m.review);
    if (p) return p;
  }
  if (m.timing === null) return m.correct ? 'a correct measurement has a timing' : null;
  if (!m.correct) return 'an incorrect measurement has no timing';
  return timingProblem(m.timing, 'measurement.timing');
}

/** Why `t` is not a timing summary, or null. */
function timingProblem(t: unknown, where: string): string | null {
  if (!isObj(t)) return `${where} must be an object or null`;
  for (const k of ['referenceNs', 'candidateNs', 'speedup', 'lo', 'hi']) if (!finite(t[k]) || (t[k] as number) <= 0) return `${where}.${k} must be a positive number`;
  for (const k of ['trials', 'warmup', 'cv']) if (!finite(t[k]) || (t[k] as number) < 0) return `${where}.${k} must be a non-negative number`;
  if (!((t.lo as number) <= (t.speedup as number) && (t.speedup as number) <= (t.hi as number))) return `${where} must have lo ≤ speedup ≤ hi`;
  if (typeof t.noisy !== 'boolean' || typeof t.remeasured !== 'boolean') return `${where}.noisy and .remeasured must be booleans`;
  for (const k of ['referenceTrialsNs', 'candidateTrialsNs']) if (!Array.isArray(t[k]) || (t[k] as unknown[]).some((x) => !finite(x))) return `${where}.${k} must be a list of numbers`;
  if (!isObj(t.dims)) return `${where}.dims must be an object`;
  return null;
}

/** Why `r` is not the record of a review (review.ts), or null. */
function reviewProblem(r: unknown): string | null {
  if (!isObj(r)) return 'measurement.review must be an object';
  if (!finite(r.threshold) || r.threshold <= 0) return 'measurement.review.threshold must be a positive number';
  if (!isMeasureCode(r.recheckCode)) return `measurement.review.recheckCode ${JSON.stringify(r.recheckCode)} is not a measurement code`;
  if (typeof r.confirmed !== 'boolean') return 'measurement.review.confirmed must be a boolean';
  if (r.confirmed && r.recheckCode !== 'ok') return 'measurement.review.confirmed needs an ok re-check';
  const claimed = timingProblem(r.claimed, 'measurement.review.claimed');
  if (claimed) return claimed;
  if (r.recheck === null) return r.recheckCode === 'ok' ? 'measurement.review.recheck must be a timing when the re-check is ok' : null;
  return timingProblem(r.recheck, 'measurement.review.recheck');
}

/** Why `a` is not an attack result, or null. */
export function attackResultProblem(a: unknown): string | null {
  if (!isObj(a)) return 'the attack result is not an object';
  if (!isMeasureCode(a.code)) return `attack.code ${JSON.stringify(a.code)} is not a measurement code`;
  if (!isMeasureCode(a.referenceCode)) return `attack.referenceCode ${JSON.stringify(a.referenceCode)} is not a measurement code`;
  if (typeof a.referenceFinite !== 'boolean') return 'attack.referenceFinite must be a boolean';
  if (a.check !== null) return trialProblem(a.check, 'attack.check');
  return null;
}
