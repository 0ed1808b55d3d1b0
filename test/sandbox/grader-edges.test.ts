/**
 * The grader's host-side edges (issue 23, from the mutation run of the `grader` area): each case
 * here failed to be caught by the other host-level tests when the check behind it was mutated.
 * Comparisons across every JSON type (never a throw), big-integer tags that are not tags, a
 * number token that is an exponent, runner answers of the wrong shape, the shown value's type
 * per language, request budgets at their exact boundaries, and every signal bwrap can report.
 */
import { BIGINT_KEY, isBigIntTag, parseJsonExact } from '../../src/core/exact-json';
import { NUMBER_TOLERANCE, jsonDepth, outputMatches } from '../../src/core/output-match';
import type { JsonValue } from '../../src/core/json';
import type { CodeRunRequest } from '../../src/core/sandbox';
import { assemble } from '../../src/sandbox/assemble';
import { lostWorker, SandboxCodeRunner } from '../../src/sandbox/code-runner';
import { WorkerLostError, type SandboxPool } from '../../src/sandbox/pool';
import type { ResolvedLimits } from '../../src/sandbox/limits';
import { parseRun } from '../../src/sandbox/python-runner';
import { validRaw } from '../../src/sandbox/raw-run';
import { MAX_PROGRAM_CHARS, MAX_VALUE_CHARS, MAX_VALUE_DEPTH, requestProblem } from '../../src/sandbox/request';

describe('outputMatches across every JSON type', () => {
  const values: JsonValue[] = [null, {}, [], 'a', 1.5, true, { a: 1 }, [1], { '0': 1 }];
  test('a value matches only itself (deep equal), and no pair throws', () => {
    for (const a of values) for (const e of values) expect([a, e, outputMatches(a, e)]).toEqual([a, e, JSON.stringify(a) === JSON.stringify(e)]);
  });

  test('arrays element by element, objects by exactly the same keys', () => {
    expect(outputMatches([1, 2], [1, 3])).toBe(false);
    expect(outputMatches([1, 2], [1, 2, 3])).toBe(false);
    expect(outputMatches({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(outputMatches({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(outputMatches({ a: 1, b: 2 }, { a: 1, b: 3 })).toBe(false);
    expect(outputMatches({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(outputMatches({ '0': 1 }, [1])).toBe(false);
    expect(outputMatches([1], { '0': 1 })).toBe(false);
  });

  test('infinities and NaN (Python may write them) equal only themselves; the tolerance bound itself matches', () => {
    expect(outputMatches(Infinity, Infinity)).toBe(true);
    expect(outputMatches(-Infinity, Infinity)).toBe(false);
    expect(outputMatches(NaN, NaN)).toBe(true);
    expect(outputMatches(1e308, Infinity)).toBe(false);
    expect(outputMatches(0, NUMBER_TOLERANCE)).toBe(true);
  });

  test('jsonDepth counts the deepest nesting, not the number of brackets', () => {
    expect(jsonDepth('[[],[]]')).toBe(2);
    expect(jsonDepth('[{"a":[1]},{"b":2},[]]')).toBe(3);
    expect(jsonDepth('["[[[[", "]"]')).toBe(1);
  });
});

describe('big-integer tags', () => {
  const BIG = '12345678901234567890';
  test('only an object with the one key $bigint holding digits beyond 2^53 is a tag', () => {
    expect(isBigIntTag({ $bigint: BIG })).toBe(true);
    expect(isBigIntTag({ $bigint: '5' })).toBe(false);
    expect(isBigIntTag({ $bigint: '95' })).toBe(false); // shorter than 2^53's digits, though it sorts after them as text
    expect(isBigIntTag({ $bigint: '9007199254740991' })).toBe(false);
    expect(isBigIntTag({ $bigint: '9007199254740992' })).toBe(true);
    expect(isBigIntTag({ $bigint: BIG, x: 1 })).toBe(false);
    expect(isBigIntTag({ $bigint: 12345678901234567000 })).toBe(false);
    expect(isBigIntTag(null)).toBe(false);
    expect(isBigIntTag([BIG])).toBe(false);
  });

  test('parseJsonExact: the tag is spelled $bigint; safe 16-digit integers stay numbers; a negative big one after another number', () => {
    expect(BIGINT_KEY).toBe('$bigint');
    expect(parseJsonExact(BIG)).toEqual({ $bigint: BIG });
    expect(parseJsonExact('[1234567890123456]')).toEqual([1234567890123456]);
    expect(parseJsonExact('[1,-9007199254740993]')).toEqual([1, { $bigint: '-9007199254740993' }]);
    expect(parseJsonExact('[0e99999999999999999, 1]')).toEqual([0, 1]);
  });
});

describe('validRaw refuses every answer of the wrong shape', () => {
  const ok = (outputs: unknown[], extra: Record<string, unknown> = {}) => validRaw({ code: 'ok', outputs, ...extra }, outputs.length);
  test('null, non-objects and bad outcomes anywhere', () => {
    expect(validRaw(null, 0)).toBeNull();
    expect(validRaw('ok', 0)).toBeNull();
    expect(ok([null])).toBeNull();
    expect(ok([{ code: 'bogus' }])).toBeNull();
    expect(ok([{ code: 'ok', text: 5 }])).toBeNull();
    expect(ok([{ code: 'ok', message: 5 }])).toBeNull();
    expect(ok([{ code: 'ok', property: 'yes' }])).toBeNull();
    expect(ok([{ code: 'ok', text: '1' }], { check: { code: 'bogus' } })).toBeNull();
    expect(ok([{ code: 'ok', text: '1' }], { check: null })).toBeNull();
  });

  test('a valid answer keeps exactly its fields, messages cut at 300 characters', () => {
    expect(ok([{ code: 'ok' }, { code: 'runtime-error', message: 'x'.repeat(400) }], { check: { code: 'ok' } })).toStrictEqual({
      code: 'ok',
      outputs: [{ code: 'ok' }, { code: 'runtime-error', message: 'x'.repeat(300) }],
      check: { code: 'ok' },
    });
    expect(ok([{ code: 'ok', text: '1', property: false }])).toStrictEqual({ code: 'ok', outputs: [{ code: 'ok', text: '1', property: false }] });
  });
});

describe('assemble: the shown value and the run code', () => {
  const req = (language: 'js' | 'python', over: Partial<CodeRunRequest> = {}): CodeRunRequest => ({ language, program: '', entry: 'f', tests: [{ input: [], expected: 12345678901234567890 }], ...over }) as CodeRunRequest;
  const big = { code: 'ok' as const, outputs: [{ code: 'ok' as const, text: '12345678901234567890' }] };

  test('a big integer is shown as Python wrote it (a tag) and as the double JavaScript holds', () => {
    expect(assemble(req('python', { tests: [{ input: [], expected: { $bigint: '12345678901234567890' } }] }), big, 1).tests[0]).toStrictEqual({ code: 'ok', actual: { $bigint: '12345678901234567890' } });
    expect(assemble(req('js'), big, 1).tests[0]).toStrictEqual({ code: 'ok', actual: 12345678901234567890 });
  });

  test('no actual field for a missing output, no message field for a wrong answer that returned something', () => {
    const r = assemble(req('js', { tests: [{ input: [], expected: 2 }, { input: [], expected: 2 }] }), { code: 'ok', outputs: [{ code: 'ok', text: '3' }, { code: 'ok' }] }, 1);
    expect(r.tests[0]).toStrictEqual({ code: 'wrong-answer', actual: 3 });
    expect(r.tests[1]).toStrictEqual({ code: 'wrong-answer', message: 'returned undefined' });
  });

  test('a run without tests that did not load keeps its code and message', () => {
    expect(assemble(req('js', { tests: [] }), { code: 'syntax-error', message: 'line 1', outputs: [] }, 1)).toStrictEqual({ code: 'syntax-error', message: 'line 1', tests: [], passed: 0, total: 0, ms: 1 });
  });
});

describe('requestProblem at its exact limits', () => {
  const base = { language: 'js', program: 'function f(){}', entry: 'f' };
  test('the values budget: exactly used up is accepted, one character more is not', () => {
    // the input array and each value cost 1, a string its length
    expect(requestProblem({ ...base, tests: [{ input: ['x'.repeat(MAX_VALUE_CHARS - 2)] }] })).toBeNull();
    expect(requestProblem({ ...base, tests: [{ input: ['x'.repeat(MAX_VALUE_CHARS - 1)] }] })).toMatch(/values hold more than/);
    expect(requestProblem({ ...base, tests: [{ input: ['x'.repeat(MAX_VALUE_CHARS - 3), null] }] })).toBeNull();
    expect(requestProblem({ ...base, tests: [{ input: ['x'.repeat(MAX_VALUE_CHARS - 2), null] }] })).toMatch(/values hold more than/);
  });

  test('objects nested deeper than the limit are refused like arrays', () => {
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_VALUE_DEPTH; i++) deep = { k: deep };
    expect(requestProblem({ ...base, tests: [{ input: [deep] }] })).toMatch(/^tests\[0\]\.input is nested deeper than/);
    let fine: unknown = 1;
    for (let i = 0; i < MAX_VALUE_DEPTH - 1; i++) fine = { k: fine };
    expect(requestProblem({ ...base, tests: [{ input: [fine] }] })).toBeNull();
  });

  test('a test that is not an object, a long language name cut short, programs exactly at the length limit', () => {
    expect(requestProblem({ ...base, tests: [null] })).toBe('tests[0].input must be an array of arguments');
    expect(requestProblem({ ...base, language: 'x'.repeat(1000) })!.length).toBeLessThan(120);
    const exact = 'x'.repeat(MAX_PROGRAM_CHARS);
    expect(requestProblem({ ...base, tests: [{ input: [], property: exact }] })).toBeNull();
    expect(requestProblem({ ...base, tests: [{ input: [], property: exact + 'x' }] })).toMatch(/property is longer/);
    const py = { ...base, language: 'python', tests: [] };
    expect(requestProblem({ ...py, check: exact.slice(10), helpers: exact.slice(-10) })).toBeNull();
    expect(requestProblem({ ...py, check: exact.slice(9), helpers: exact.slice(-10) })).toMatch(/check and helpers are longer/);
  });
});

describe('parseRun: every signal bwrap reports, and the stderr line it quotes', () => {
  const limits: ResolvedLimits = { timeMs: 1000, memoryMb: 128, outputBytes: 1000 };
  const N = '@@arena-0123456789abcdef@@';
  const READY = `${N}ready\n`;
  test('128 + n reads as the signal n by name', () => {
    const names: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 9: 'SIGKILL', 10: 'SIGUSR1', 12: 'SIGUSR2', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM' };
    for (const [n, name] of Object.entries(names)) expect(parseRun(READY, '', N, 128 + Number(n), null, null, limits, 1).message).toBe(`the program's process was killed by ${name}`);
    for (const [n, name] of [[6, 'SIGABRT'], [7, 'SIGBUS'], [11, 'SIGSEGV']] as const) expect(parseRun(READY, '', N, 128 + n, null, null, limits, 1).message).toBe(`the program crashed (${name})`);
  });

  test('the last non-blank stderr line, cut at 300 characters', () => {
    expect(parseRun(READY, 'Traceback\nValueError: x\n   \n', N, 1, null, null, limits, 1).message).toMatch(/: ValueError: x$/);
    const at = (len: number) => parseRun(READY, `Traceback\n${'e'.repeat(len)}\n`, N, 1, null, null, limits, 1).message!.split(': ')[1];
    expect(at(300)).toBe('e'.repeat(300));
    expect(at(301)).toBe(`${'e'.repeat(297)}...`);
  });
});

describe('how a lost JS worker or a failing runner becomes a result', () => {
  test('a worker lost to the wall clock or to memory is the program\'s; anything else (a look-alike, null) is the sandbox\'s', () => {
    expect(lostWorker(new WorkerLostError('timeout', 'no answer within 5 s'))).toStrictEqual({ code: 'timeout', message: 'no answer within 5 s', outputs: [] });
    expect(lostWorker(new WorkerLostError('out-of-memory', 'V8'))).toStrictEqual({ code: 'memory-limit', message: 'the program ran out of memory (V8)', outputs: [] });
    expect(lostWorker(new WorkerLostError('crash', 'SIGSEGV'))).toStrictEqual({ code: 'sandbox-error', message: 'SIGSEGV', outputs: [] });
    expect(lostWorker({ why: 'timeout', message: 'forged' })).toStrictEqual({ code: 'sandbox-error', message: 'forged', outputs: [] });
    expect(lostWorker(null)).toStrictEqual({ code: 'sandbox-error', message: 'null', outputs: [] });
  });

  test("a runner that throws answers a sandbox-error result: the message cut at 300 characters, null thrown named, the run's own duration", async () => {
    const thrower = () => { throw failure; };
    let failure: unknown;
    const throwing = (e: unknown) => ((failure = e), new SandboxCodeRunner({ withSlot: thrower, run: thrower } as unknown as SandboxPool));
    const req: CodeRunRequest = { language: 'js', program: 'function f(){}', entry: 'f', tests: [{ input: [] }] };
    const long = await throwing(new Error('y'.repeat(400))).run(req);
    expect(long.message).toBe(`the sandbox failed: ${'y'.repeat(300)}`);
    expect(long.ms).toBeGreaterThanOrEqual(0);
    expect(long.ms).toBeLessThan(60_000);
    expect((await throwing(null).run(req)).message).toBe('the sandbox failed: null');
  });
});
