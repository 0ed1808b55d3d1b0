/**
 * `arena replay --rerun` of kernel measurements (envs/kernel-speedup/measure/rerun.ts): a recorded
 * result or a new one that is not an object at all (a log edited by hand, a truncated record) is
 * "of a different kind" — never read as a result whose kind happens to be missing. (Found by
 * mutation testing: each `typeof ... !== 'object'` test could be dropped without a test failing.)
 */
import type { JsonValue } from '../../../src/core/json';
import { compareKernelResults } from '../../../envs/kernel-speedup';

const kinds = { verdict: 'different', detail: 'the results are of different kinds' };

test('a number or a string on either side is a result of another kind, even against an object without op', () => {
  expect(compareKernelResults(5, 6)).toEqual(kinds);
  expect(compareKernelResults('measure', 'attack')).toEqual(kinds);
  expect(compareKernelResults(5, {} as JsonValue)).toEqual(kinds);
  expect(compareKernelResults({} as JsonValue, 5)).toEqual(kinds);
  expect(compareKernelResults(true, { op: 'measure' } as JsonValue)).toEqual(kinds);
});

test('two objects of no known kind are an unknown kind (the other message)', () => {
  expect(compareKernelResults({} as JsonValue, { x: 1 } as JsonValue)).toEqual({ verdict: 'different', detail: 'unknown result kind' });
});
