/**
 * The JavaScript sandbox's round trip, in a few seconds: a program's outputs come back through a
 * worker process, a failing test has its code, and the worker serves the next run. The first
 * file of the `js-harness` mutation area (stryker/js-harness.json, stryker/staged-jest.cjs): a
 * mutant that breaks the worker's message loop or its test runner fails here within seconds,
 * instead of making every test of the longer files wait for its own time limit.
 */
import { createSandbox, type Sandbox } from '../../src/sandbox';

jest.setTimeout(20_000);

let sb: Sandbox;
afterAll(() => sb?.close());

test('a program runs through a worker: outputs, a wrong answer, a thrown error, then the next run is served', async () => {
  sb = createSandbox({ concurrency: 1 });
  const r = await sb.code.run({
    language: 'js',
    program: 'function f(x){ if (x === 3) throw new TypeError("three"); return x * 2 }',
    entry: 'f',
    tests: [{ input: [1], expected: 2 }, { input: [2], expected: 5 }, { input: [3], expected: 6 }],
    limits: { timeMs: 2000 },
  });
  expect(r.tests.map((t) => [t.code, t.actual ?? null])).toEqual([
    ['ok', 2],
    ['wrong-answer', 4],
    ['runtime-error', null],
  ]);
  expect(r.tests[2].message).toBe('TypeError: three');
  const next = await sb.code.run({ language: 'js', program: 'function f(){ return "again" }', entry: 'f', tests: [{ input: [], expected: 'again' }] });
  expect(next.tests.map((t) => t.code)).toEqual(['ok']);
  expect(sb.pool.stats.workersStarted).toBe(1);
});
