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
  if (m.timing === null) return m.correct ? 'a correct measurement has a timing' : null;
  const t = m.timing;
  if (!isObj(t)) return 'measurement.timing must be an object or null';
  if (!m.correct) return 'an incorrect measurement has no timing';
  for (const k of ['referenceNs', 'candidateNs', 'speedup', 'lo', 'hi']) if (!finite(t[k]) || (t[k] as number) <= 0) return `measurement.timing.${k} must be a positive number`;
  for (const k of ['trials', 'warmup', 'cv']) if (!finite(t[k]) || (t[k] as number) < 0) return `measurement.timing.${k} must be a non-negative number`;
  if (!((t.lo as number) <= (t.speedup as number) && (t.speedup as number) <= (t.hi as number))) return 'measurement.timing must have lo ≤ speedup ≤ hi';
  if (typeof t.noisy !== 'boolean' || typeof t.remeasured !== 'boolean') return 'measurement.timing.noisy and .remeasured must be booleans';
  for (const k of ['referenceTrialsNs', 'candidateTrialsNs']) if (!Array.isArray(t[k]) || (t[k] as unknown[]).some((x) => !finite(x))) return `measurement.timing.${k} must be a list of numbers`;
  if (!isObj(t.dims)) return 'measurement.timing.dims must be an object';
  return null;
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
