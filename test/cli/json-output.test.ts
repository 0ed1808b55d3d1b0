/** The precision of numbers in the CLI's JSON outputs (app/cli/json-output.ts, docs/numbers.md). */
import { JSON_SIGNIFICANT_DIGITS, jsonText, outputNumber } from '../../app/cli/json-output';

test('float noise goes, at output only; small, large and integer numbers keep their value', () => {
  expect(JSON_SIGNIFICANT_DIGITS).toBe(12);
  expect(outputNumber(0.1 + 0.2)).toBe(0.3);
  expect(outputNumber(-0.30000000000000004)).toBe(-0.3);
  expect(outputNumber(7.699999999999999)).toBe(7.7);
  expect(outputNumber(1e-7)).toBe(1e-7);
  expect(outputNumber(1.23456789012345e-9)).toBe(1.23456789012e-9);
  expect(outputNumber(1419.9712345678912)).toBe(1419.97123457);
  expect(outputNumber(2 ** 53)).toBe(2 ** 53);
  expect(outputNumber(12345678901234)).toBe(12345678901234);
  expect(outputNumber(Infinity)).toBe(Infinity);
  expect(Number.isNaN(outputNumber(NaN))).toBe(true);
});

test('jsonText rounds every number at any depth and is otherwise JSON.stringify', () => {
  const value = { returns: [-0.30000000000000004, 10], summary: { mean: [0.1 + 0.2], n: 3, name: '0.30000000000000004' }, nan: NaN };
  expect(jsonText(value)).toBe('{"returns":[-0.3,10],"summary":{"mean":[0.3],"n":3,"name":"0.30000000000000004"},"nan":null}');
  expect(jsonText({ a: 1 }, 2)).toBe(JSON.stringify({ a: 1 }, null, 2));
  // the value itself is untouched
  expect(value.returns[0]).toBe(-0.30000000000000004);
});
