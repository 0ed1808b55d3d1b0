/**
 * `replay --rerun`: performs a recorded effect again (run the programs, time the kernels) and
 * says how the new result compares with the recorded one. A handler with a `compare` (its
 * results differ on every run: fresh secret inputs, timings) judges the verdict itself; for the
 * others, results are compared as JSON with the wall-clock fields (`ms`, `ns`) left out.
 */
import type { EffectRerun } from '../../../src/core/effects';
import type { EffectRequest } from '../../../src/core/env';
import type { Registry } from '../../../src/core/registry';
import type { JsonValue } from '../../../src/core/json';
import { jsonEqual } from '../../../src/core/json';

const CLOCK_FIELDS = new Set(['ms', 'ns']);

function withoutClock(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutClock);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !CLOCK_FIELDS.has(k)).map(([k, x]) => [k, withoutClock(x)]));
  return v;
}

/** The path of the first difference between two JSON values (clock fields ignored), or null when equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  const x = withoutClock(a);
  const y = withoutClock(b);
  if (jsonEqual(x, y)) return null;
  if (Array.isArray(x) && Array.isArray(y)) {
    if (x.length !== y.length) return `${path}: ${x.length} entries recorded, ${y.length} now`;
    for (let i = 0; i < x.length; i++) {
      const d = firstDifference(x[i], y[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const d = firstDifference((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  const show = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 120);
  return `${path}: recorded ${show(x)}, now ${show(y)}`;
}

/** Re-performs one effect with the registry's handler and compares it with `recorded`. */
export async function rerunEffect(registry: Registry, env: string, step: number, seed: number, effect: EffectRequest, recorded: unknown): Promise<EffectRerun> {
  const handler = registry.effects()[effect.kind];
  if (!handler) return { verdict: 'different', detail: `no handler for effect "${effect.kind}" here` };
  const again: JsonValue = await handler(effect.request, { matchId: 'rerun', env, step, seed, signal: new AbortController().signal });
  if (handler.compare) return handler.compare(recorded as JsonValue, again);
  const d = firstDifference(recorded, again);
  return d === null ? { verdict: 'same' } : { verdict: 'different', detail: d };
}
