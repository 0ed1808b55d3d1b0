/**
 * `createSandbox().code.run()` answers every request with a result (issue 23): fuzzed request
 * shapes — anything at all, wrong types in each field, deep nesting, huge strings, cycles,
 * throwing getters — never make it reject (only a cancel or a full queue may), and every code
 * that comes back is a RunCode.
 */
import fc from 'fast-check';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { RUN_CODES, type CodeRunResult } from '../../src/core/sandbox';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 2 });
});
afterAll(() => sb.close());

/** Runs `req` and checks the result's shape; a rejection fails the test. */
async function answers(req: unknown): Promise<CodeRunResult> {
  const r = await sb.code.run(req as never);
  expect(RUN_CODES).toContain(r.code);
  for (const t of r.tests) expect(RUN_CODES).toContain(t.code);
  expect(typeof r.passed).toBe('number');
  expect(r.total).toBe(r.tests.length);
  if (r.message !== undefined) expect(typeof r.message).toBe('string');
  JSON.stringify(r); // the result is recorded as an event: it must serialize
  return r;
}

const nested = (depth: number, leaf: unknown = 0, wrap: (v: unknown) => unknown = (v) => [v]): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = wrap(v);
  return v;
};

const base = { language: 'js', program: 'function f(x){ return x }', entry: 'f', tests: [{ input: [1], expected: 1 }], limits: { timeMs: 500, memoryMb: 64 } };

describe('code.run never throws', () => {
  test('on anything at all (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything({ maxDepth: 4, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withBoxedValues: true }), async (req) => {
        const r = await answers(req);
        expect(r.code).toBe('sandbox-error'); // none of these is a request
      }),
      { numRuns: 150 },
    );
  });

  test('on wrong types in every field (fast-check)', async () => {
    const any = fc.anything({ maxDepth: 3, withBigInt: true, withNullPrototype: true });
    // mostly right, so that many requests get as far as a run
    const field = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: any, weight: 1 });
    const request = fc.record(
      {
        language: field(fc.constantFrom('js', 'python')),
        program: field(fc.constantFrom('function f(x){ return x }', 'def f(x):\n    return x')),
        entry: field(fc.constant('f')),
        tests: field(fc.array(fc.record({ input: field(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 })), expected: field(fc.jsonValue({ maxDepth: 2 })), property: field(fc.constant('(o) => true')) }, { requiredKeys: ['input'] }), { maxLength: 3 })),
        check: field(fc.constant('def check(candidate):\n    assert candidate(1) == 1')),
        helpers: field(fc.constant('import math')),
        limits: field(fc.record({ timeMs: field(fc.integer({ min: 50, max: 800 })), memoryMb: field(fc.integer({ min: 32, max: 128 })), outputBytes: field(fc.integer({ min: 10, max: 10_000 })) }, { requiredKeys: [] })),
        stopOnTimeout: field(fc.boolean()),
      },
      { requiredKeys: ['language', 'program', 'entry', 'tests'] },
    );
    await fc.assert(fc.asyncProperty(request, async (req) => void (await answers(req))), { numRuns: 50 });
  });

  test('on deep nesting, cycles, huge strings and throwing getters', async () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    const obj: Record<string, unknown> = {};
    obj.self = obj;
    const cases: unknown[] = [
      { ...base, tests: [{ input: [nested(4900)] }] },
      { ...base, tests: [{ input: [nested(100_000, 0, (v) => ({ a: v }))] }] },
      { ...base, tests: [{ input: [1], expected: nested(4900) }] },
      { ...base, language: 'python', program: 'def f(x):\n    return x', tests: [{ input: [nested(4900)] }] },
      { ...base, tests: [{ input: [cycle] }] },
      { ...base, tests: [{ input: [obj] }] },
      { ...base, tests: [{ input: ['x'.repeat(70_000_000)] }] },
      { ...base, program: 'x'.repeat(5_000_000) },
      { ...base, tests: new Array(10_000_000) },
      { ...base, get program() { throw new Error('a getter that throws'); } },
      { ...base, tests: [{ get input() { throw new Error('a getter that throws'); } }] },
      { ...base, tests: new Proxy([], { get() { throw new Error('a proxy that throws'); } }) },
      new Proxy({}, { ownKeys() { throw new Error('a proxy that throws'); }, get() { throw new Error('a proxy that throws'); } }),
      { ...base, limits: { get timeMs() { throw new Error('a getter that throws'); } } },
    ];
    for (const req of cases) {
      const r = await answers(req);
      expect(r.code).toBe('sandbox-error');
    }
    // valid, if odd: an entry of a million characters the program does not define, a request whose fields are inherited
    expect((await answers({ ...base, entry: 'f'.repeat(1_000_000) })).code).toBe('runtime-error');
    expect((await answers(Object.create(base))).code).toBe('ok');
    // and the sandbox still runs programs
    expect((await answers(base)).code).toBe('ok');
  });
});
