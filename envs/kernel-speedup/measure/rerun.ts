/**
 * How `arena replay --rerun` compares a recorded `kernel-measure` result with a new one. Every
 * measurement draws a fresh secret (inputs.ts), so a rerun times other inputs and its figures
 * differ by nature; what must hold is the verdict:
 *
 * - measure: the same code (a kernel correct when recorded and wrong now — or the reverse — is
 *   `different`); two correct measurements whose 95% intervals do not overlap are `different`
 *   (the recorded speedup is not what the kernel does: a kernel that predicted its recorded
 *   inputs shows here, and so does a very busy machine); otherwise the figures `vary`;
 * - attack: the attacker's input is fixed, so the codes must agree (`different` otherwise); other
 *   fields that differ `vary`.
 */
import type { EffectRerun } from '../../../src/core/effects';
import { jsonEqual, type JsonValue } from '../../../src/core/json';
import type { KernelEffectResult, TimingSummary } from './types';

const interval = (t: TimingSummary) => `${t.speedup.toFixed(2)}× [${t.lo.toFixed(2)}, ${t.hi.toFixed(2)}]`;

/** The verdict of a rerun of one kernel-measure effect. */
export function compareKernelResults(recorded: JsonValue, again: JsonValue): EffectRerun {
  if (jsonEqual(recorded, again)) return { verdict: 'same' };
  const a = recorded as unknown as KernelEffectResult | null;
  const b = again as unknown as KernelEffectResult | null;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || a.op !== b.op) return { verdict: 'different', detail: 'the results are of different kinds' };
  // from here on both results are of the same kind (a.op === b.op)
  if (a.op === 'attack') {
    const p = a.attack;
    const q = (b as typeof a).attack;
    for (const k of ['code', 'referenceCode', 'referenceFinite'] as const) {
      if (p?.[k] !== q?.[k]) return { verdict: 'different', detail: `attack ${k}: recorded ${JSON.stringify(p?.[k])}, now ${JSON.stringify(q?.[k])}` };
    }
    return { verdict: 'varies', detail: `the same verdict (${q.code}); details differ` };
  }
  if (a.op !== 'measure') return { verdict: 'different', detail: 'unknown result kind' };
  const x = a.measurement;
  const y = (b as typeof a).measurement;
  if (x?.code !== y?.code) return { verdict: 'different', detail: `code: recorded ${JSON.stringify(x?.code)}, now ${JSON.stringify(y?.code)} (on fresh inputs)` };
  if (!x.timing || !y.timing) return { verdict: 'varies', detail: `the same code (${y.code}) on fresh inputs` };
  const text = `speedup recorded ${interval(x.timing)}, now ${interval(y.timing)}`;
  if (x.timing.hi < y.timing.lo || y.timing.hi < x.timing.lo) return { verdict: 'different', detail: `${text}: the intervals do not overlap` };
  return { verdict: 'varies', detail: `${text} (fresh inputs; the intervals overlap)` };
}
