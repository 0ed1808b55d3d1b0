import { ParamError, resolveParams, type ParamSchema } from '../../src/core/params';
import { createRegistry } from '../../app/catalog';
import { rps } from '../fixtures/load';

describe('params', () => {
  const schema = {
    rules: { type: 'enum', values: ['uk', 'tinyzero'], default: 'uk' },
    k: { type: 'integer', min: 1, max: 8, default: 8 },
    alpha: { type: 'number', min: -1, max: 1, default: 0 },
    numbers: { type: 'json', check: (v: unknown) => (Array.isArray(v) ? null : 'must be a list of integers') },
  } as const;

  test('defaults fill in; given values pass through', () => {
    expect(resolveParams('x-v1', schema, { k: 3 })).toEqual({ rules: 'uk', k: 3, alpha: 0, numbers: undefined });
  });

  test.each([
    [{ rules: 'ukk' }, 'x-v1: param "rules" must be one of "uk", "tinyzero" (got "ukk")'],
    [{ k: 0 }, 'x-v1: param "k" must be an integer in [1, 8] (got 0)'],
    [{ k: 2.5 }, 'x-v1: param "k" must be an integer in [1, 8] (got 2.5)'],
    [{ alpha: '1' }, 'x-v1: param "alpha" must be a number in [-1, 1] (got "1")'],
    [{ numbers: 5 }, 'x-v1: param "numbers" must be a list of integers (got 5)'],
    [{ rule: 'uk' }, 'x-v1: param "rule" is not a parameter; did you mean "rules"? (known: rules, k, alpha, numbers)'],
    [{ numbrs: [1] }, 'x-v1: param "numbrs" is not a parameter; did you mean "numbers"? (known: rules, k, alpha, numbers)'],
    [{ bogus: 1 }, 'x-v1: param "bogus" is not a parameter (known: rules, k, alpha, numbers)'],
    [[1], 'x-v1: param "(params)" must be a JSON object'],
  ])('%j is rejected naming the field', (raw, message) => {
    expect(() => resolveParams('x-v1', schema, raw)).toThrow(message);
  });

  test('make() resolves params of a registered env and names unknown envs', () => {
    const registry = createRegistry();
    registry.registerEnv(rps());
    expect(registry.make('rock-paper-scissors', { rounds: 5 }).params).toEqual({ rounds: 5 });
    expect(() => registry.make('nope-v1')).toThrow(/unknown env "nope-v1" \(known: .*rock-paper-scissors-v1/);
  });
});

describe('own-property lookups', () => {
  const schema: ParamSchema = { rounds: { type: 'integer', default: 3, min: 1 } };
  test.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'])('%s is not a parameter (an inherited name is not a declared one)', (name) => {
    const raw = JSON.parse(`{"${name}": 1}`) as unknown;
    expect(() => resolveParams('e-v1', schema, raw)).toThrow(new ParamError('e-v1', name, 'is not a parameter (known: rounds)'));
  });
  test('a declared name is never read from the prototype of the given object', () => {
    const raw = Object.create({ rounds: 99 }) as Record<string, unknown>;
    expect(resolveParams('e-v1', schema, raw)).toEqual({ rounds: 3 });
  });
});
