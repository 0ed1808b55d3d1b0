/**
 * The sandbox's host side, without child processes (issue 20): limits validation, how raw
 * outputs become a run's result (assemble), and the code-runs effect handler.
 */
import type { CodeRunRequest, CodeRunResult, CodeRunner } from '../../src/core/sandbox';
import { assemble } from '../../src/sandbox/assemble';
import { codeRunsHandler } from '../../src/sandbox/effects';
import { DEFAULT_LIMITS, MAX_LIMITS, resolveLimits } from '../../src/sandbox/limits';

describe('resolveLimits', () => {
  test('defaults, and given values rounded up', () => {
    expect(resolveLimits(undefined)).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toEqual({ timeMs: 2000, memoryMb: 256, outputBytes: 1_000_000 });
    expect(resolveLimits({ timeMs: 10.2 })).toEqual({ ...DEFAULT_LIMITS, timeMs: 11 });
    expect(resolveLimits({ timeMs: MAX_LIMITS.timeMs, memoryMb: MAX_LIMITS.memoryMb, outputBytes: MAX_LIMITS.outputBytes })).toEqual(MAX_LIMITS);
    expect(resolveLimits({ memoryMb: 0.5 })).toEqual({ ...DEFAULT_LIMITS, memoryMb: 1 });
  });

  test.each([
    ['timeMs', 0, '0'],
    ['timeMs', -1, '-1'],
    ['timeMs', 60_001, '60001'],
    ['memoryMb', 2049, '2049'],
    ['outputBytes', 64_000_001, '64000001'],
    ['memoryMb', NaN, 'null'],
    ['memoryMb', Infinity, 'null'],
    ['timeMs', '10', '"10"'],
  ] as const)('limits.%s = %p is refused, naming the field and the ceiling', (key, value, shown) => {
    expect(() => resolveLimits({ [key]: value } as never)).toThrow(new RangeError(`limits.${key} must be a number in (0, ${MAX_LIMITS[key]}], got ${shown}`));
  });
});

describe('assemble', () => {
  const req = (over: Partial<CodeRunRequest> = {}): CodeRunRequest => ({ language: 'js', program: '', entry: 'f', tests: [{ input: [1], expected: 2 }, { input: [2], expected: 3 }], ...over }) as CodeRunRequest;

  test('every test ok: passed = total, no message', () => {
    expect(assemble(req(), { code: 'ok', outputs: [{ code: 'ok', text: '2' }, { code: 'ok', text: '3' }] }, 12)).toEqual({
      code: 'ok',
      tests: [{ code: 'ok', actual: 2 }, { code: 'ok', actual: 3 }],
      passed: 2,
      total: 2,
      ms: 12,
    });
  });

  test('a wrong answer, undefined, and an output that is missing', () => {
    const r = assemble(req({ tests: [{ input: [1], expected: 2 }, { input: [2], expected: 3 }, { input: [3], expected: 4 }] } as never), { code: 'ok', outputs: [{ code: 'ok', text: '5' }, { code: 'ok', text: '\u0000undefined' }] }, 1);
    expect(r.tests).toEqual([
      { code: 'wrong-answer', actual: 5 },
      { code: 'wrong-answer', message: 'returned undefined' },
      { code: 'sandbox-error', message: 'no outcome for this test' },
    ]);
    expect(r).toMatchObject({ code: 'wrong-answer', passed: 0, total: 3 });
    expect(r).not.toHaveProperty('message');
    expect(assemble(req(), { code: 'ok', outputs: [{ code: 'ok' }, { code: 'ok', text: '3' }] }, 1).tests[0]).toEqual({ code: 'wrong-answer', message: 'returned undefined' });
  });

  test('the first failing test gives the run its code and message', () => {
    const r = assemble(req(), { code: 'ok', outputs: [{ code: 'ok', text: '2' }, { code: 'runtime-error', message: 'boom' }] }, 1);
    expect(r).toEqual({ code: 'runtime-error', message: 'boom', tests: [{ code: 'ok', actual: 2 }, { code: 'runtime-error', message: 'boom' }], passed: 1, total: 2, ms: 1 });
    expect(assemble(req(), { code: 'ok', outputs: [{ code: 'timeout' }, { code: 'ok', text: '3' }] }, 1).tests[0]).toEqual({ code: 'timeout' });
  });

  test('unreadable and too deeply nested output', () => {
    expect(assemble(req(), { code: 'ok', outputs: [{ code: 'ok', text: '{' }, { code: 'ok', text: '3' }] }, 1).tests[0]).toEqual({ code: 'runtime-error', message: 'the output is not readable JSON' });
    const deep = '['.repeat(201) + ']'.repeat(201);
    expect(assemble(req(), { code: 'ok', outputs: [{ code: 'ok', text: deep }, { code: 'ok', text: '3' }] }, 1).tests[0]).toEqual({ code: 'runtime-error', message: 'the output is nested deeper than 200 levels' });
    const fine = '['.repeat(200) + ']'.repeat(200);
    expect(assemble(req(), { code: 'ok', outputs: [{ code: 'ok', text: fine }, { code: 'ok', text: '3' }] }, 1).tests[0].code).toBe('wrong-answer');
  });

  test('property tests pass only when the property held; tests without an expected value pass', () => {
    const tests = [{ input: [1], property: 'x => x > 0' }, { input: [2], property: 'x => x > 0' }, { input: [3] }];
    const r = assemble(req({ tests } as never), { code: 'ok', outputs: [{ code: 'ok', text: '1', property: true }, { code: 'ok', text: '2', property: false }, { code: 'ok', text: '"x"' }] }, 1);
    expect(r.tests).toEqual([{ code: 'ok', actual: 1 }, { code: 'wrong-answer', actual: 2, message: 'the property does not hold' }, { code: 'ok', actual: 'x' }]);
    expect(r).toMatchObject({ code: 'wrong-answer', message: 'the property does not hold', passed: 2, total: 3 });
  });

  test('a program that did not load gives every test (and the check) its code', () => {
    expect(assemble(req({ check: 'def check(c): pass' }), { code: 'syntax-error', message: 'line 1', outputs: [] }, 3)).toEqual({
      code: 'syntax-error',
      message: 'line 1',
      tests: [{ code: 'syntax-error', message: 'line 1' }, { code: 'syntax-error', message: 'line 1' }, { code: 'syntax-error', message: 'line 1' }],
      passed: 0,
      total: 3,
      ms: 3,
    });
    expect(assemble(req(), { code: 'timeout', outputs: [] }, 3)).toEqual({ code: 'timeout', tests: [{ code: 'timeout' }, { code: 'timeout' }], passed: 0, total: 2, ms: 3 });
  });

  test("the check is one more test: its outcome, or sandbox-error when it did not run", () => {
    const ok = { code: 'ok' as const, outputs: [{ code: 'ok' as const, text: '2' }, { code: 'ok' as const, text: '3' }] };
    expect(assemble(req({ check: 'c' }), { ...ok, check: { code: 'ok' } }, 1)).toMatchObject({ code: 'ok', passed: 3, total: 3 });
    expect(assemble(req({ check: 'c' }), { ...ok, check: { code: 'wrong-answer', message: 'assert failed' } }, 1)).toMatchObject({ code: 'wrong-answer', message: 'assert failed', passed: 2, total: 3 });
    expect(assemble(req({ check: 'c' }), { ...ok, check: { code: 'runtime-error' } }, 1).tests[2]).toEqual({ code: 'runtime-error' });
    expect(assemble(req({ check: 'c' }), ok, 1).tests[2]).toEqual({ code: 'sandbox-error', message: 'the check did not run' });
    expect(assemble(req(), { ...ok, check: { code: 'runtime-error' } }, 1)).toMatchObject({ code: 'ok', total: 2 });
  });
});

describe('codeRunsHandler', () => {
  const ctx = { matchId: 'm', env: 'e', step: 0, seed: 1, signal: new AbortController().signal };

  test('runs every request with the match signal, results in request order', async () => {
    const seen: unknown[] = [];
    const runner: CodeRunner = {
      run: async (r: CodeRunRequest, signal?: AbortSignal) => {
        seen.push([r.program, signal]);
        await new Promise((res) => setTimeout(res, r.program === 'slow' ? 20 : 0));
        return { code: 'ok', tests: [], passed: 0, total: 0, ms: r.program.length } as CodeRunResult;
      },
    } as CodeRunner;
    const out = await codeRunsHandler(runner)({ runs: [{ program: 'slow' }, { program: 'x' }] } as never, ctx);
    expect(out).toEqual({ runs: [{ code: 'ok', tests: [], passed: 0, total: 0, ms: 4 }, { code: 'ok', tests: [], passed: 0, total: 0, ms: 1 }] });
    expect(seen).toEqual([['slow', ctx.signal], ['x', ctx.signal]]);
  });

  test('a request without a runs list is refused by name', async () => {
    const runner = { run: jest.fn() } as unknown as CodeRunner;
    await expect(codeRunsHandler(runner)(null, ctx)).rejects.toThrow('code-runs: the request has no "runs" list');
    await expect(codeRunsHandler(runner)({ runs: 'x' }, ctx)).rejects.toThrow('code-runs: the request has no "runs" list');
    expect(runner.run).not.toHaveBeenCalled();
  });
});
