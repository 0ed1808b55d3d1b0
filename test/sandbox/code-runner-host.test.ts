/**
 * The code runner's host side on a fake pool (issue 20): request validation naming the field,
 * the JS request it sends (wall time, tests, stopOnTimeout), lost workers and cancellation.
 */
import type { CodeRunRequest } from '../../src/core/sandbox';
import { jsWallMs, lostWorker, requestProblem, SandboxCodeRunner } from '../../src/sandbox/code-runner';
import { SandboxBusyError, SandboxCancelledError, V8_OOM, WorkerLostError, type SandboxPool } from '../../src/sandbox/pool';

const good: CodeRunRequest = { language: 'js', program: 'function f(x) { return x + 1; }', entry: 'f', tests: [{ input: [1], expected: 2 }] };
/** A value nested `n` arrays deep. */
const deep = (n: number): unknown => {
  let v: unknown = 0;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};
const cyclic = (): unknown => {
  const a: unknown[] = [];
  a.push(a);
  return a;
};

describe('requestProblem', () => {
  test('a good request has none', () => {
    expect(requestProblem(good)).toBeNull();
    expect(requestProblem({ ...good, language: 'python', check: 'def check(c): pass', entry: '_f1' })).toBeNull();
    expect(requestProblem({ ...good, tests: [{ input: [1], property: '(x) => true' }] })).toBeNull();
    expect(requestProblem({ ...good, program: 'x'.repeat(1_000_000), tests: Array.from({ length: 10_000 }, () => ({ input: [] })) })).toBeNull();
    // the edges: 200 levels of nesting, an object without a prototype, helpers with a check, limits given
    expect(requestProblem({ ...good, tests: [{ input: [deep(199)], expected: deep(200) as never }], stopOnTimeout: false, limits: {} })).toBeNull();
    expect(requestProblem({ ...good, tests: [{ input: [Object.assign(Object.create(null), { a: [1, 'x', null, true, { b: -0.5 }] })] }] })).toBeNull();
    expect(requestProblem({ ...good, language: 'python', check: 'def check(c): pass', helpers: 'import math' })).toBeNull();
    expect(requestProblem({ ...good, tests: [{ input: ['x'.repeat(31_999_990)] }, { input: [], expected: 'y'.repeat(31_999_990) }] })).toBeNull();
    // every field at once; inherited ones are not the request's own
    expect(requestProblem({ ...good, language: 'python', check: 'def check(c): pass', helpers: 'x = 1', stopOnTimeout: true, limits: { timeMs: 1, memoryMb: 64, outputBytes: 10 }, tests: [{ input: [], expected: 1 }] })).toBeNull();
    expect(requestProblem(Object.assign(Object.create({ signal: 1, extra: 2 }), good))).toBeNull();
  });

  test.each<[string, unknown, string]>([
    ['null', null, 'the request is not an object'],
    ['a string', 'run this', 'the request is not an object'],
    ['another language', { ...good, language: 'ruby' }, 'language must be "js" or "python", got "ruby"'],
    ['no program', { ...good, program: 3 }, 'program must be a string'],
    ['a huge program', { ...good, program: 'x'.repeat(1_000_001) }, 'program is longer than 1000000 characters'],
    ['a bad entry', { ...good, entry: 'f()' }, 'entry must be a function name, got "f()"'],
    ['a digit first', { ...good, entry: '1f' }, 'entry must be a function name, got "1f"'],
    ['no entry', { ...good, entry: undefined }, 'entry must be a function name, got undefined'],
    ['a long entry', { ...good, entry: 'x y'.repeat(40) }, `entry must be a function name, got ${JSON.stringify('x y'.repeat(40)).slice(0, 60)}`],
    ['no tests', { ...good, tests: {} }, 'tests must be an array of at most 10000'],
    ['too many tests', { ...good, tests: Array.from({ length: 10_001 }, () => ({ input: [] })) }, 'tests must be an array of at most 10000'],
    ['a test without input', { ...good, tests: [{ input: [] }, { expected: 1 }] }, 'tests[1].input must be an array of arguments'],
    ['a null test', { ...good, tests: [null] }, 'tests[0].input must be an array of arguments'],
    ['a property that is not source', { ...good, tests: [{ input: [], property: 1 }] }, 'tests[0].property must be a function\'s source'],
    ['a property in Python', { ...good, language: 'python', tests: [{ input: [], property: 'x' }] }, 'tests[0].property: properties are JavaScript and run only with language "js"'],
    ['a check in JS', { ...good, check: 'def check(c): pass' }, 'check must be Python source (language "python")'],
    ['a check that is not source', { ...good, language: 'python', check: 5 }, 'check must be Python source (language "python")'],
    ['helpers without a check', { ...good, language: 'python', helpers: 'x = 1' }, 'helpers must be Python source, given with a check'],
    ['helpers that are not source', { ...good, language: 'python', check: 'def check(c): pass', helpers: 3 }, 'helpers must be Python source, given with a check'],
    ['a huge check', { ...good, language: 'python', check: 'x'.repeat(600_000), helpers: 'y'.repeat(400_001) }, 'check and helpers are longer than 1000000 characters'],
    ['a huge property', { ...good, tests: [{ input: [], property: 'x'.repeat(1_000_001) }] }, 'tests[0].property is longer than 1000000 characters'],
    ['an input nested too deep', { ...good, tests: [{ input: [1] }, { input: [deep(200)] }] }, 'tests[1].input is nested deeper than 200 levels'],
    ['an expected value nested too deep', { ...good, tests: [{ input: [], expected: deep(201) }] }, 'tests[0].expected is nested deeper than 200 levels'],
    ['a cycle', { ...good, tests: [{ input: [cyclic()] }] }, 'tests[0].input is nested deeper than 200 levels'],
    ['NaN in an input', { ...good, tests: [{ input: [1, [NaN]] }] }, 'tests[0].input holds a number that is not finite'],
    ['Infinity expected', { ...good, tests: [{ input: [], expected: { a: Infinity } }] }, 'tests[0].expected holds a number that is not finite'],
    ['undefined in an input', { ...good, tests: [{ input: [undefined] }] }, 'tests[0].input holds a value that is not JSON (undefined)'],
    ['a function in an input', { ...good, tests: [{ input: [() => 1] }] }, 'tests[0].input holds a value that is not JSON (function)'],
    ['a bigint in an input', { ...good, tests: [{ input: [1n] }] }, 'tests[0].input holds a value that is not JSON (bigint)'],
    ['a class instance in an input', { ...good, tests: [{ input: [new Date(0)] }] }, 'tests[0].input holds a value that is not JSON (object)'],
    ['too many characters in all', { ...good, tests: [{ input: ['x'.repeat(40_000_000)] }, { input: [], expected: 'y'.repeat(24_000_000) }] }, "the tests' values hold more than 64000000 characters"],
    ['long keys in all', { ...good, tests: [{ input: [{ ['k'.repeat(33_000_000)]: 1, ['j'.repeat(33_000_000)]: 2 }] }] }, "the tests' values hold more than 64000000 characters"],
    ['stopOnTimeout that is not a boolean', { ...good, stopOnTimeout: 'yes' }, 'stopOnTimeout must be a boolean'],
    ['limits that are not an object', { ...good, limits: 5 }, 'limits must be an object'],
    ['null limits', { ...good, limits: null }, 'limits must be an object'],
    ['limits as an array', { ...good, limits: [1] }, 'limits must be an object'],
    // a field the request does not have would change nothing, silently: refused, named, with the nearest field
    ['the abort signal as a field', { ...good, signal: new AbortController().signal }, `unknown field "signal" in the request (an abort signal is run()'s second argument)`],
    ['a misspelt field', { ...good, limit: { timeMs: 5 } }, 'unknown field "limit" in the request; did you mean "limits"?'],
    ['a field near none', { ...good, colour: 'red' }, 'unknown field "colour" in the request (fields: language, program, entry, tests, check, helpers, limits, stopOnTimeout)'],
    ['a prototype name as a field', { ...good, ...JSON.parse('{"constructor": 1}') }, 'unknown field "constructor" in the request (fields: language, program, entry, tests, check, helpers, limits, stopOnTimeout)'],
    ["a misspelt test's field", { ...good, tests: [{ input: [] }, { input: [], expect: 1 }] }, 'unknown field "expect" in tests[1]; did you mean "expected"?'],
    ['an unknown limit', { ...good, limits: { timeMs: 5, timeout: 5 } }, 'unknown field "timeout" in limits (fields: timeMs, memoryMb, outputBytes)'],
    ['a misspelt limit', { ...good, limits: { memoryMB: 64 } }, 'unknown field "memoryMB" in limits; did you mean "memoryMb"?'],
    ['__proto__ as a limit (own, from JSON)', { ...good, limits: JSON.parse('{"__proto__": {"timeMs": 1}}') }, 'unknown field "__proto__" in limits (fields: timeMs, memoryMb, outputBytes)'],
    ['a long unknown field', { ...good, ['x'.repeat(100)]: 1 }, `unknown field ${JSON.stringify('x'.repeat(100)).slice(0, 60)} in the request (fields: language, program, entry, tests, check, helpers, limits, stopOnTimeout)`],
  ])('%s', (_what, req, problem) => {
    expect(requestProblem(req)).toBe(problem);
  });
});

describe('SandboxCodeRunner (JS, fake pool)', () => {
  function fakePool(answer: () => unknown, syncCalls = false) {
    const calls: { op: string; body: Record<string, unknown>; wallMs: number; signal?: AbortSignal }[] = [];
    const pool = {
      syncCalls,
      // JavaScript runs go through the pool's pipelined `run`, never a held slot
      withSlot: async () => {
        throw new Error('a JS run took a slot');
      },
      run: async (op: string, body: Record<string, unknown>, wallMs: number, signal?: AbortSignal) => {
        calls.push({ op, body, wallMs, signal });
        const a = answer();
        if (a instanceof Error) throw a;
        return a;
      },
    } as unknown as SandboxPool;
    return { runner: new SandboxCodeRunner(pool), calls };
  }

  test('sends the program, tests (properties only where given), limits and the wall time; assembles the answer', async () => {
    const { runner, calls } = fakePool(() => ({ code: 'ok', outputs: [{ code: 'ok', text: '2' }, { code: 'ok', text: '3', property: true }] }));
    const signal = new AbortController().signal;
    const req: CodeRunRequest = { ...good, tests: [{ input: [1], expected: 2 }, { input: [2], property: '(r) => r === 3' }], limits: { timeMs: 100 }, stopOnTimeout: true };
    const r = await runner.run(req, signal);
    expect(r).toMatchObject({ code: 'ok', passed: 2, total: 2 });
    expect(r.ms).toBeGreaterThanOrEqual(0);
    expect(r.ms).toBeLessThan(60_000);
    expect(calls).toEqual([
      {
        op: 'tests',
        body: { program: good.program, entry: 'f', tests: [{ input: [1] }, { input: [2], property: '(r) => r === 3' }], limits: { timeMs: 100, memoryMb: 256, outputBytes: 1_000_000 }, stopOnTimeout: true },
        wallMs: 100 * (2 * 2 + 2) + 5000,
        signal,
      },
    ]);
    await runner.run(good);
    expect(calls[1].body.stopOnTimeout).toBe(false);
    // one test, the worker's watchdog on (the default): the clock is a backstop
    expect(calls[1].wallMs).toBe(2000 * 4 + 5000);
    // with synchronous calls: at most three isolate calls, each its limit plus the watchdog's margin, and 5 s (jsWallMs)
    const sync = fakePool(() => ({ code: 'ok', outputs: [{ code: 'ok', text: '2' }] }), true);
    await sync.runner.run(good);
    expect(sync.calls[0].wallMs).toBe(3 * (2000 + 1000) + 5000);
  });

  test("with synchronous calls a one-test run's wall clock is its watchdog: three calls (four with a property) at the limit plus the margin; otherwise the old backstop", () => {
    expect(jsWallMs(2000, [{}], true)).toBe(3 * 3000 + 5000);
    expect(jsWallMs(2000, [{ property: '(r) => true' }], true)).toBe(4 * 3000 + 5000);
    expect(jsWallMs(100, [{}], true)).toBe(3 * 350 + 5000); // the margin is at least 250 ms
    expect(jsWallMs(100, [{}, {}], true)).toBe(100 * 6 + 5000);
    expect(jsWallMs(100, [], true)).toBe(100 * 2 + 5000);
    expect(jsWallMs(2000, [{}], false)).toBe(2000 * 4 + 5000);
    expect(jsWallMs(2000, [{ property: '(r) => true' }], false)).toBe(2000 * 4 + 5000);
  });

  test("a run lost to the pool's wall clock says so, with or without synchronous calls: the per-test limit's words are the worker's watchdog's alone", async () => {
    for (const syncCalls of [true, false]) {
      const lost = new SandboxCodeRunner({ syncCalls, run: () => Promise.reject(new WorkerLostError('timeout', 'no answer within 14000 ms')) } as unknown as SandboxPool);
      expect(await lost.run(good)).toMatchObject({ code: 'timeout', message: 'no answer within 14000 ms', tests: [{ code: 'timeout' }] });
    }
  });

  test('a bad request or bad limits never reach the pool', async () => {
    const { runner, calls } = fakePool(() => ({ code: 'ok', outputs: [] }));
    expect(await runner.run({ ...good, entry: '' })).toEqual({ code: 'sandbox-error', message: 'bad request: entry must be a function name, got ""', tests: [], passed: 0, total: 0, ms: 0 });
    const r = await runner.run({ ...good, limits: { timeMs: 0 } });
    expect(r).toMatchObject({ code: 'sandbox-error', message: 'bad request: limits.timeMs must be a number in (0, 60000], got 0', tests: [{ code: 'sandbox-error' }], passed: 0, total: 1 });
    expect(r.ms).toBeGreaterThanOrEqual(0);
    expect(r.ms).toBeLessThan(60_000);
    expect(calls).toEqual([]);
  });

  test('a lost worker: timeout or sandbox-error with its message; other failures are sandbox-errors; a cancel rejects', async () => {
    let next: Error = new WorkerLostError('timeout', 'wall time');
    const { runner } = fakePool(() => next);
    expect(await runner.run({ ...good, tests: [{ input: [1] }, { input: [2] }] })).toMatchObject({ code: 'timeout', message: 'wall time', tests: [{ code: 'timeout', message: 'wall time' }, { code: 'timeout' }] });
    next = new WorkerLostError('crash', 'segfault');
    expect(await runner.run(good)).toMatchObject({ code: 'sandbox-error', message: 'segfault' });
    next = new Error('ipc');
    expect(await runner.run(good)).toMatchObject({ code: 'sandbox-error', message: 'ipc' });
    next = new SandboxCancelledError();
    await expect(runner.run(good)).rejects.toBeInstanceOf(SandboxCancelledError);
  });

  test("a worker V8 ended for want of memory is the program's memory-limit; a full queue rejects; anything else thrown is a sandbox-error result", async () => {
    let next: unknown = new WorkerLostError('out-of-memory', 'the sandbox worker died (SIGABRT): V8 heap out of memory');
    const { runner } = fakePool(() => next);
    expect(await runner.run(good)).toMatchObject({ code: 'memory-limit', message: 'the program ran out of memory (the sandbox worker died (SIGABRT): V8 heap out of memory)', tests: [{ code: 'memory-limit' }] });
    const busy = new SandboxCodeRunner({ run: () => Promise.reject(new SandboxBusyError(3)) } as unknown as SandboxPool);
    await expect(busy.run(good)).rejects.toBeInstanceOf(SandboxBusyError);
    next = { code: 'ok', outputs: 'not a list' };
    expect(await runner.run(good)).toMatchObject({ code: 'sandbox-error', message: "the sandbox worker's answer is malformed", tests: [{ code: 'sandbox-error' }] });
    next = { code: 'ok', outputs: [{ code: 'ok', text: '2', property: 'yes' }] };
    expect((await runner.run(good)).code).toBe('sandbox-error');
    const throwing = new SandboxCodeRunner({ run: () => { throw new TypeError('boom'); } } as unknown as SandboxPool);
    expect(await throwing.run(good)).toMatchObject({ code: 'sandbox-error', message: 'the sandbox failed: boom', tests: [], passed: 0, total: 0 });
    expect(lostWorker('a string')).toEqual({ code: 'sandbox-error', message: 'a string', outputs: [] });
    expect(() => lostWorker(new SandboxCancelledError())).toThrow(SandboxCancelledError);
    expect(() => lostWorker(new SandboxBusyError(2))).toThrow(SandboxBusyError);
  });

  test('V8_OOM recognizes the report V8 prints as it aborts for want of memory, and nothing else', () => {
    for (const text of ['<--- JS stacktrace --->\n\ninvalid array length\nis_heap_oom = 1\n', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', '# Fatal JavaScript out of memory: Ineffective mark-compacts near heap limit', '# Fatal JavaScript invalid size error 169220804']) {
      expect(V8_OOM.test(text)).toBe(true);
    }
    for (const text of ['', 'is_heap_oom = 0', 'Segmentation fault', 'does_zap_garbage = 0']) expect(V8_OOM.test(text)).toBe(false);
  });

  test('a run whose signal was aborted meanwhile rejects as cancelled', async () => {
    const controller = new AbortController();
    const { runner } = fakePool(() => (controller.abort(), { code: 'ok', outputs: [{ code: 'ok', text: '2' }] }));
    await expect(runner.run(good, controller.signal)).rejects.toBeInstanceOf(SandboxCancelledError);
  });
});
