/**
 * For the leak check: states that differ only in what no seat may see — the hidden tests'
 * inputs and expected values, the reference, the check — with the same number of hidden tests.
 * Every view must be unchanged (the kit compares every seat but the owner, and asks for each).
 */
import type { JsonValue } from '../../src/core/json';
import type { Rng } from '../../src/core/rng';
import type { CodeRepairState } from './types';

function perturb(v: JsonValue, rng: Rng): JsonValue {
  if (typeof v === 'number') return v + 1 + rng.int(5);
  if (typeof v === 'string') return `${v}~${rng.int(9)}`;
  if (Array.isArray(v)) return [...v.map((x) => perturb(x, rng)), rng.int(3)];
  return { secret: rng.int(100) };
}

export function privateVariants(s: CodeRepairState, _seat: number, rng: Rng): CodeRepairState[] {
  if (s.phase === 'done') return [];
  const hiddenTests = s.task.hiddenTests.map((t) => ('expected' in t ? { input: perturb(t.input, rng) as JsonValue[], expected: perturb(t.expected, rng) } : { input: perturb(t.input, rng) as JsonValue[], property: t.property }));
  return [
    {
      ...s,
      task: { ...s.task, hiddenTests, reference: `${s.task.reference}\n// variant ${rng.int(1000)}`, ...(s.task.check ? { check: `${s.task.check}\n# variant` } : {}), ...(s.task.helpers ? { helpers: `${s.task.helpers}\n# variant` } : {}) },
    },
  ];
}
