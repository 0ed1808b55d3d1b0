import fc from 'fast-check';
import { argumentsArbitrary, toArbitrary } from '../../../envs/code-repair/agents/arbitrary';
import { mutants } from '../../../envs/code-repair/agents/mutations';
import { mutationFixer } from '../../../envs/code-repair/agents/fixers';
import { fuzzAuditor } from '../../../envs/code-repair/agents/auditors';
import { countOption } from '../../../envs/code-repair/agents/lent';
import { bundledTasks } from '../../../envs/code-repair';
import type { JsonValue } from '../../../src/core/json';

describe('mutations', () => {
  test('each operator family yields its mutants, never the original, and garbage yields none', () => {
    const m = mutants('function f(a, b) { if (a < b && !a) { return a - 1; } for (let i = 0; i < 3; i++) {} return true; }');
    const has = (re: RegExp) => expect(m.some((x) => re.test(x))).toBe(true);
    has(/a <= b/); // comparison swap
    has(/a >= b/);
    has(/\|\|/); // logical swap
    has(/a \+ 1/); // arithmetic swap
    has(/1 - a/); // swapped operands
    has(/a - 2/); // off by one
    has(/a - 0/);
    has(/if \(!\(a < b && !a\)\)/); // negated condition
    has(/&& a\)/); // dropped negation
    has(/i--/); // update swap
    has(/return false/); // flipped boolean
    expect(new Set(m).size).toBe(m.length);
    expect(mutants('function (')).toEqual([]);
  });

  test('one mutation gives back the exact reference for a good share of the bundled variants (measured 51 of 174)', () => {
    // the reference, printed the way astring prints, is among the mutants of many buggy variants
    const { generate } = require('astring') as typeof import('astring');
    const { parse } = require('acorn') as typeof import('acorn');
    const norm = (src: string) => generate(parse(src, { ecmaVersion: 'latest' }) as never);
    let reachable = 0;
    let total = 0;
    for (const t of bundledTasks('js')) {
      for (const b of t.buggy!) {
        total++;
        if (mutants(b.source).includes(norm(t.reference))) reachable++;
      }
    }
    expect(total).toBe(174);
    expect(reachable).toBeGreaterThanOrEqual(45);
  });
});

describe('task generators as fast-check arbitraries', () => {
  test('every kind of the grammar', () => {
    const d: JsonValue = { tuple: [{ integer: { min: -3, max: 3 } }, { string: { minLength: 1, maxLength: 2, chars: 'ab' } }, { array: { of: { nat: { max: 5 } }, maxLength: 3 } }, { oneof: [{ constant: null }, { boolean: {} }] }, { record: { x: { constantFrom: [1, 2] }, y: { float: { min: 0, max: 1 } } } }] };
    for (const v of fc.sample(toArbitrary(d), { numRuns: 200, seed: 1 })) {
      const [i, s, a, o, r] = v as [number, string, number[], unknown, { x: number; y: number }];
      expect(Number.isInteger(i) && i >= -3 && i <= 3).toBe(true);
      expect(/^[ab]{1,2}$/.test(s)).toBe(true);
      expect(a.length <= 3 && a.every((x) => Number.isInteger(x) && x >= 0 && x <= 5)).toBe(true);
      expect([null, true, false]).toContain(o);
      expect([1, 2]).toContain(r.x);
      expect(r.y >= 0 && r.y <= 1).toBe(true);
    }
    expect(() => toArbitrary({ matrix: {} })).toThrow(/generator: unknown kind "matrix"/);
    expect(() => toArbitrary({ tuple: [{ integer: {} }, { a: 1, b: 2 }] })).toThrow(/generator.tuple\[1\]: a node has exactly one kind/);
  });

  test('every bundled generator produces argument lists', () => {
    for (const t of bundledTasks('js')) expect(fc.sample(argumentsArbitrary(t.generator!), { numRuns: 5, seed: 2 }).every(Array.isArray)).toBe(true);
  });
});

describe('what the baselines need from the host', () => {
  test('without a lent code runner the searching agents say so by name', async () => {
    const t = bundledTasks('js')[0];
    const obs = { task: { ...t, properties: t.properties ?? [], generator: t.generator }, candidate: t.buggy![0].source, audit: [], ask: null, phase: 'code' };
    const ctx = { rng: { int: () => 1 }, signal: new AbortController().signal } as never;
    await expect(Promise.resolve().then(() => mutationFixer.create({ env: null as never, params: {}, seed: 1 }).act(obs, null, ctx))).rejects.toThrow('mutation-fixer needs a code runner (the arena lends one through the registry)');
    await expect(Promise.resolve().then(() => fuzzAuditor.create({ env: null as never, params: {}, seed: 1 }).act(obs, null, ctx))).rejects.toThrow('fuzz-auditor needs a code runner');
    expect([countOption({ budget: 7.9 }, 'budget', 3), countOption({ budget: -1 }, 'budget', 3), countOption({ budget: 'x' }, 'budget', 3), countOption(undefined, 'budget', 3)]).toEqual([7, 3, 3, 3]);
  });
});
