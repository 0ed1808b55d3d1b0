/**
 * What a JavaScript program can make the grader say (issue 23): the per-test limits hold for
 * allocations no isolate timeout can interrupt (a huge string returned, flattened or split), the
 * worker that could not stop one is replaced before the next run, and integers compare exactly.
 */
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { bigIntTag } from '../../src/core/exact-json';
import type { CodeRunResult, CodeTestCase, RunLimits } from '../../src/core/sandbox';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 1 });
});
afterAll(() => sb.close());

const js = (program: string, tests: CodeTestCase[] = [{ input: [] }], limits: RunLimits = { timeMs: 1000, memoryMb: 256 }): Promise<CodeRunResult> =>
  sb.code.run({ language: 'js', program, entry: 'f', tests, limits });
/** The pool's wall clock (the whole run's budget) says "no answer within"; the per-test limit never does. */
const WALL = /no answer within/;

describe('the per-test limits hold for every allocation', () => {
  test("'x'.repeat(2**28) returned: output-limit, counted before the string is ever flattened", async () => {
    const r = await js(`function f(){ return 'x'.repeat(2**28) }`);
    expect(r.code).toBe('output-limit');
    expect(r.message).not.toMatch(WALL);
  });

  test('the same string inside an object, and a huge array of short strings, end as output-limit', async () => {
    expect((await js(`function f(){ return { a: ['y', 'x'.repeat(2**27)] } }`)).code).toBe('output-limit');
    expect((await js(`function f(){ return new Array(3e6).fill('ab') }`, undefined, { timeMs: 3000, memoryMb: 256 })).code).toBe('output-limit');
  });

  test('a builtin that flattens and splits a 256 MB string is stopped by the per-test limit (timeout or memory-limit), and the next run is served', async () => {
    const started = sb.pool.stats.workersStarted;
    const r = await js(`function f(){ const s = 'x'.repeat(2**28) + 'y'; return s.split('').length }`, [{ input: [] }, { input: [] }]);
    expect(['timeout', 'memory-limit']).toContain(r.code);
    expect(r.message).not.toMatch(WALL);
    expect(r.tests[1].code).not.toBe('ok'); // not run after a test that could not be stopped
    const next = await js(`function f(x){ return x * 2 }`, [{ input: [21], expected: 42 }]);
    expect(next.code).toBe('ok');
    // the worker that ran the stuck isolate was replaced (a hang caught by the isolate's own timeout keeps it)
    expect(sb.pool.stats.workersStarted).toBeGreaterThan(started);
  });

  test('the same builtin in a lone one-test run (the default pool keeps the worker\'s watchdog: synchronous calls are opt-in)', async () => {
    // the split runs for seconds before V8 runs out of memory: the worker's watchdog ends it at the limit first
    // (with synchronous calls the same run ends seconds later, as memory-limit or at the wall clock: below)
    const r = await js(`function f(){ const s = 'x'.repeat(2**28) + 'y'; return s.split('').length }`, [{ input: [] }], { timeMs: 300, memoryMb: 256 });
    expect(r).toMatchObject({ code: 'timeout', message: 'time limit of 300 ms exceeded (the program could not be interrupted; its worker was ended)' });
  });

  // One flattened 256 MB string can slip under isolated-vm's limit (V8 checks the heap after the
  // allocation; measured: a 64 MB isolate held one), so the load keeps eight: 2 GB no limit holds.
  test("padEnd into 256 MB strings while loading: the load's limit holds too", async () => {
    const r = await js(`const a = []; for (let i = 0; i < 8; i++) { const s = ''.padEnd(2**28 - i, 'ab'); s.indexOf('z'); a.push(s) } function f(){ return a.length }`);
    expect(['timeout', 'memory-limit']).toContain(r.code);
    expect(r.message).not.toMatch(WALL);
  });
});

describe('with `syncCalls: true` (opt-in) the run\'s wall clock is the watchdog of a lone one-test run', () => {
  test('a builtin the isolate cannot interrupt is stopped by the wall clock, said as such, and the next run is served', async () => {
    const synced = createSandbox({ concurrency: 1, syncCalls: true });
    try {
      const r = await synced.code.run({ language: 'js', program: `function f(){ const s = 'x'.repeat(2**28) + 'y'; return s.split('').length }`, entry: 'f', tests: [{ input: [] }], limits: { timeMs: 300, memoryMb: 256 } });
      expect(['timeout', 'memory-limit']).toContain(r.code);
      if (r.code === 'timeout') expect(r.message).toMatch(WALL);
      expect((await synced.code.run({ language: 'js', program: 'function f(x){ return x * 2 }', entry: 'f', tests: [{ input: [21], expected: 42 }] })).code).toBe('ok');
    } finally {
      await synced.close();
    }
  });
});

describe('integers compare exactly (JavaScript)', () => {
  test('a+b+3 does not pass a test expecting 12345678902', async () => {
    const tests = [{ input: [12345678900, 2], expected: 12345678902 }];
    expect((await js('function f(a, b){ return a + b + 3 }', tests)).tests[0]).toEqual({ code: 'wrong-answer', actual: 12345678905 });
    expect((await js('function f(a, b){ return a + b }', tests)).code).toBe('ok');
  });

  test('a big integer arrives as the nearest number, and compares as the double its digits name', async () => {
    const r = await js('function f(x){ return [typeof x, x] }', [{ input: [bigIntTag(2n ** 60n + 1n)], expected: ['number', bigIntTag(2n ** 60n)] }]);
    expect(r.tests[0]).toEqual({ code: 'ok', actual: ['number', 2 ** 60] });
    // JSON.stringify writes 2^60 as 1152921504606847000: the same double
    expect((await js('function f(){ return 2 ** 60 }', [{ input: [], expected: bigIntTag('1152921504606847000') }])).code).toBe('ok');
    expect((await js('function f(){ return 2 ** 60 + 512 }', [{ input: [], expected: bigIntTag(2n ** 60n) }])).code).toBe('wrong-answer');
  });
});
