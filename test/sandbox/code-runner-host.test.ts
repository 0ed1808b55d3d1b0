/**
 * The code runner's host side on a fake pool (issue 20): request validation naming the field,
 * the JS request it sends (wall time, tests, stopOnTimeout), lost workers and cancellation.
 */
import type { CodeRunRequest } from '../../src/core/sandbox';
import { requestProblem, SandboxCodeRunner } from '../../src/sandbox/code-runner';
import { SandboxCancelledError, Slot, WorkerLostError, type SandboxPool } from '../../src/sandbox/pool';

const good: CodeRunRequest = { language: 'js', program: 'function f(x) { return x + 1; }', entry: 'f', tests: [{ input: [1], expected: 2 }] };

describe('requestProblem', () => {
  test('a good request has none', () => {
    expect(requestProblem(good)).toBeNull();
    expect(requestProblem({ ...good, language: 'python', check: 'def check(c): pass', entry: '_f1' })).toBeNull();
    expect(requestProblem({ ...good, tests: [{ input: [1], property: '(x) => true' }] })).toBeNull();
    expect(requestProblem({ ...good, program: 'x'.repeat(1_000_000), tests: Array.from({ length: 10_000 }, () => ({ input: [] })) })).toBeNull();
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
  ])('%s', (_what, req, problem) => {
    expect(requestProblem(req)).toBe(problem);
  });
});

describe('SandboxCodeRunner (JS, fake pool)', () => {
  function fakePool(answer: () => unknown) {
    const calls: { op: string; body: Record<string, unknown>; wallMs: number; signal?: AbortSignal }[] = [];
    const slot = new Slot(0);
    const pool = {
      withSlot: async <T>(f: (s: Slot) => Promise<T>) => f(slot),
      call: async (s: Slot, op: string, body: Record<string, unknown>, wallMs: number, signal?: AbortSignal) => {
        expect(s).toBe(slot);
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
    expect(calls[1].wallMs).toBe(2000 * 4 + 5000);
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
    expect(await runner.run(good)).toMatchObject({ code: 'timeout', message: 'wall time', tests: [{ code: 'timeout', message: 'wall time' }] });
    next = new WorkerLostError('crash', 'segfault');
    expect(await runner.run(good)).toMatchObject({ code: 'sandbox-error', message: 'segfault' });
    next = new Error('ipc');
    expect(await runner.run(good)).toMatchObject({ code: 'sandbox-error', message: 'ipc' });
    next = new SandboxCancelledError();
    await expect(runner.run(good)).rejects.toBeInstanceOf(SandboxCancelledError);
  });

  test('a run whose signal was aborted meanwhile rejects as cancelled', async () => {
    const controller = new AbortController();
    const { runner } = fakePool(() => (controller.abort(), { code: 'ok', outputs: [{ code: 'ok', text: '2' }] }));
    await expect(runner.run(good, controller.signal)).rejects.toBeInstanceOf(SandboxCancelledError);
  });
});
