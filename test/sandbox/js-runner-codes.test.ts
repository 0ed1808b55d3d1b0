/**
 * The JavaScript harness's test runner (src/sandbox/worker/isolate-runner.cjs, `runTests`) spoken
 * to through its worker directly, as the pool sends code runs (JSON text): how a program's end
 * becomes a result code, with its exact message (the isolate's own timeout, not the watchdog, ends
 * a loop at load, in the entry's lookup and in a call; a SyntaxError the program throws while
 * running is a runtime error, only a compile's is a syntax error); the entry checked before any
 * program code runs; `stopOnTimeout`; the per-test and whole-run output limits at their
 * boundaries; each run's memory limit, whatever the run before it had; property checks (only
 * `true` passes; a throwing or endless property fails); the watchdog disarmed after every call;
 * and which phases `--sync` makes synchronous (the load and the lookup too; never a run of
 * several tests). Fast (a worker, no pool): early in the `js-harness` mutation area's list.
 */
import type { ChildProcess } from 'node:child_process';
import { codeRunText, nextAnswer, startWorker, type CodeRun as Req, type WorkerAnswer as Answer } from './js-worker-process';

jest.setTimeout(30_000);

/** The worker of the tests that end no worker (one start: the file stays fast); the --sync tests start their own. */
let shared: ChildProcess | undefined;
let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));
afterAll(() => shared?.kill('SIGKILL'));

const start = startWorker;

let ids = 0;
/** A code run as the pool sends it (JSON text). */
const request = codeRunText;

/** Sends one run and waits for its answer. */
async function ask(w: ChildProcess, r: Req): Promise<Answer> {
  const got = nextAnswer(w);
  w.send(request(++ids, r));
  return got;
}

/** The shared worker (started on first use). */
const sharedWorker = (): ChildProcess => (shared ??= start());

/** One run on the shared worker: its result. */
async function run(r: Req): Promise<NonNullable<Answer['res']>> {
  const a = await ask(sharedWorker(), r);
  expect(a).toMatchObject({ ok: true });
  expect(a.retire).toBeUndefined(); // the isolate's own timeout ended every loop: the worker goes on
  return a.res!;
}

const TIMED_OUT = 'Script execution timed out.';

describe('the entry is checked before any program code runs', () => {
  test.each([
    ['1f', 'entry "1f" is not an identifier'],
    ['f g', 'entry "f g" is not an identifier'],
    ['f\ng', 'entry "f" is not an identifier'],
    ['', 'entry "" is not an identifier'],
    ['f()', 'entry "f()" is not an identifier'],
    [`1${'x'.repeat(59)}`, `entry "1${'x'.repeat(59)}" is not an identifier`],
    [`1${'x'.repeat(60)}`, `entry "1${'x'.repeat(56)}..." is not an identifier`],
    // reserved words: their lookup does not compile (every program was reported a syntax error of its own)
    ['if', 'entry "if" is not an identifier'],
    ['class', 'entry "class" is not an identifier'],
    ['this', 'entry "this" is not an identifier'],
  ])('entry %j', async (entry, message) => {
    expect(await run({ program: 'throw new Error("the program ran")', entry })).toEqual({ code: 'sandbox-error', message, outputs: [] });
  });

  test('identifiers of every shape are entries', async () => {
    for (const entry of ['f_1$', '$', '_', 'Fx9', 'let']) {
      expect((await ask(sharedWorker(), { program: `var ${entry} = (x) => x + 1`, entry, tests: [{ input: [1] }] })).res).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '2' }] });
    }
  });
});

describe("how a program's end becomes a code", () => {
  test('a loop while loading, in the joined script or loaded alone, and in the separate lookup: the isolate\'s timeout', async () => {
    const loops = [
      'while (true) {} function f(){ return 1 }',
      'const __sandbox_entry__ = 0; while (true) {} function f(){ return 1 }', // the joined source does not compile: loaded alone
      'const __sandbox_entry__ = 0; Object.defineProperty(globalThis, "f", { get() { for (;;) {} } })', // the lookup loops
    ];
    for (const program of loops) {
      const a = await ask(sharedWorker(), { program, timeMs: 2000 }); // the watchdog's margin: 1 s (a loaded machine)
      expect(a.retire).toBeUndefined();
      expect(a.res).toEqual({ code: 'timeout', message: TIMED_OUT, outputs: [] });
    }
  });

  test('an error while loading, a SyntaxError thrown while loading, no function by that name', async () => {
    expect(await run({ program: 'throw new TypeError("at load"); function f(){}' })).toEqual({ code: 'runtime-error', message: 'TypeError: at load', outputs: [] });
    expect(await run({ program: 'JSON.parse("{"); function f(){}' })).toEqual({ code: 'runtime-error', message: expect.stringMatching(/^SyntaxError: /), outputs: [] });
    expect(await run({ program: 'var f = 3' })).toEqual({ code: 'runtime-error', message: 'the program defines no function "f"', outputs: [] });
  });

  test('null or undefined thrown while loading or from the lookup, and an error or a SyntaxError thrown by the lookup, are runtime errors (never the sandbox\'s fault)', async () => {
    const cases: [string, string][] = [
      ['throw null; function f(){}', 'null'],
      ['const __sandbox_entry__ = 0; throw undefined; function f(){}', 'undefined'],
      ['const __sandbox_entry__ = 0; Object.defineProperty(globalThis, "f", { get() { throw null } })', 'null'],
      ['const __sandbox_entry__ = 0; Object.defineProperty(globalThis, "f", { get() { throw new TypeError("no") } })', 'TypeError: no'],
    ];
    for (const [program, message] of cases) expect(await run({ program })).toEqual({ code: 'runtime-error', message, outputs: [] });
    // a SyntaxError the lookup's getter throws is the program's, as at load or in a call (it was reported a syntax error)
    const parse = 'const __sandbox_entry__ = 0; Object.defineProperty(globalThis, "f", { get() { return JSON.parse("{") } })';
    expect(await run({ program: parse })).toEqual({ code: 'runtime-error', message: expect.stringMatching(/^SyntaxError: .*JSON/), outputs: [] });
  });

  test("a syntax error's message says where, in program.js; a stack names program.js, whether the program was joined to its lookup or loaded alone", async () => {
    expect(await run({ program: 'function f(){}\nfoo(' })).toEqual({ code: 'syntax-error', message: 'Unexpected end of input [program.js:2:5]', outputs: [] });
    const line = 'function f(){ return new Error().stack.split("\\n")[1] }';
    expect((await run({ program: line })).outputs).toEqual([{ code: 'ok', text: '"    at f (program.js:1:22)"' }]);
    expect((await run({ program: `const __sandbox_entry__ = 0; ${line}` })).outputs).toEqual([{ code: 'ok', text: '"    at f (program.js:1:51)"' }]);
  });

  test('the lookup is joined to the program (one script): its binding is declared by the time a test calls the entry', async () => {
    expect((await run({ program: 'function f(){ return typeof __sandbox_entry__ }' })).outputs).toEqual([{ code: 'ok', text: '"function"' }]);
  });

  test('the entry is looked up once (its getter runs once for `typeof` and once for the value)', async () => {
    expect((await run({ program: 'let n = 0; Object.defineProperty(globalThis, "f", { get() { n++; return () => n } })' })).outputs).toEqual([{ code: 'ok', text: '2' }]);
  });

  test('a program too deeply nested to parse is a syntax error (V8 says RangeError)', async () => {
    const r = await run({ program: `function f(){ return ${'['.repeat(200_000)}${']'.repeat(200_000)} }` });
    expect(r).toEqual({ code: 'syntax-error', message: expect.stringMatching(/^Maximum call stack size exceeded/), outputs: [] });
  });

  test("each test's code: thrown values, a SyntaxError thrown by the program (runtime-error, as in Python), the stack, memory, undefined (a loop: stopOnTimeout below)", async () => {
    const r = await run({
      program: `function f(k){
        if (k === 'parse') return JSON.parse('{');
        if (k === 'string') throw 'boom\\nline two';
        if (k === 'null') throw null;
        if (k === 'undefined') throw undefined;
        if (k === 'prefixed') throw new TypeError('TypeError: x');
        if (k === 'object') throw { name: 'X', message: 'm' };
        if (k === 'stack') return (function g(n){ return g(n + 1) + 1 })(0);
        if (k === 'memory') { const a = []; for (;;) a.push(new Float64Array(1 << 20)); }
      }`,
      tests: ['parse', 'string', 'null', 'undefined', 'prefixed', 'object', 'stack', 'memory', 'nothing'].map((k) => ({ input: [k] })),
      timeMs: 10_000, // never reached (a loaded machine is slow to fill the stack)
    });
    expect(r).toEqual({
      code: 'ok',
      outputs: [
        { code: 'runtime-error', message: expect.stringMatching(/^SyntaxError: .*JSON/) },
        { code: 'runtime-error', message: 'boom' },
        { code: 'runtime-error', message: 'null' }, // a program that throws null was reported as sandbox-error, the sandbox's fault
        { code: 'runtime-error', message: 'undefined' },
        { code: 'runtime-error', message: 'TypeError: x' }, // a message that starts with its name is not named twice
        { code: 'runtime-error', message: 'X: m' },
        { code: 'runtime-error', message: 'Maximum call stack size exceeded' },
        { code: 'memory-limit', message: 'Array buffer allocation failed' },
        { code: 'ok', text: '\u0000undefined' },
      ],
    });
  });

  test('stopOnTimeout: the tests after a timeout are not run (an error is not a timeout); without it they are', async () => {
    const program = 'function f(x){ if (x === 2) throw new Error("two"); if (x) for (;;) {} return 1 }';
    const tests = [{ input: [2] }, { input: [0] }, { input: [1] }, { input: [0] }];
    expect((await run({ program, tests, timeMs: 2000, stopOnTimeout: true })).outputs).toEqual([
      { code: 'runtime-error', message: 'Error: two' },
      { code: 'ok', text: '1' },
      { code: 'timeout', message: TIMED_OUT },
      { code: 'timeout', message: 'not run: an earlier test timed out' },
    ]);
    expect((await run({ program, tests, timeMs: 2000 })).outputs).toEqual([{ code: 'runtime-error', message: 'Error: two' }, { code: 'ok', text: '1' }, { code: 'timeout', message: TIMED_OUT }, { code: 'ok', text: '1' }]);
  });
});

test("the compile cache drops its oldest scripts past 64 of them, or past 1 MB of source: every program still runs, an evicted one again too", async () => {
  const w = start(); // a fresh worker: its isolate's cache starts empty
  worker = w;
  const small = (i: number): Req => ({ program: `function f(){ return ${i} }` });
  for (let i = 0; i < 70; i++) expect((await ask(w, small(i))).res).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: String(i) }] });
  expect((await ask(w, small(0))).res).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '0' }] });
  // sources of 60,000 characters (cached: at most 64 KiB): the seventeenth passes the budget
  const big = (i: number): Req => ({ program: `function f(){ return ${i} } //${'x'.repeat(60_000)}` });
  for (let i = 0; i < 20; i++) expect((await ask(w, big(i))).res).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: String(i) }] });
  expect((await ask(w, big(0))).res).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '0' }] });
});

describe('limits', () => {
  test('output: a test may write exactly its limit, and the run exactly its total (twice the limit plus 1,000,000); one character more is output-limit', async () => {
    const r = await run({ program: 'function f(n){ return "x".repeat(n) }', tests: [999_998, 999_998, 999_998, 0, 999_999].map((n) => ({ input: [n] })), outputBytes: 1_000_000 });
    expect(r.outputs.map((o) => [o.code, o.text?.length ?? o.message])).toEqual([
      ['ok', 1_000_000],
      ['ok', 1_000_000],
      ['ok', 1_000_000],
      ['output-limit', "the run's outputs exceed 3000000 characters in all"],
      ['output-limit', 'output of 1000001 characters exceeds 1000000'],
    ]);
  });

  test("each run has its own memory limit, whatever the previous run's was (the isolate is not reused across limits)", async () => {
    const big = { program: 'function f(){ return new Float64Array(8e6).length }' }; // 64 MB
    expect((await run({ ...big, memoryMb: 256 })).outputs).toEqual([{ code: 'ok', text: '8000000' }]);
    expect((await run({ ...big, memoryMb: 16 })).outputs).toEqual([{ code: 'memory-limit', message: 'Array buffer allocation failed' }]);
    expect((await run({ ...big, memoryMb: 256 })).outputs).toEqual([{ code: 'ok', text: '8000000' }]);
  });

  test('a heap that outgrows its limit disposes the isolate: the tests after it are not run, and the next run gets a new isolate', async () => {
    const r = await run({ program: 'function f(){ const a = []; for (;;) a.push([a.length, a.length]) }', tests: [{ input: [] }, { input: [] }], timeMs: 10_000, memoryMb: 16 });
    expect(r).toEqual({
      code: 'ok',
      outputs: [
        { code: 'memory-limit', message: 'Isolate was disposed during execution due to memory limit' },
        { code: 'memory-limit', message: 'the sandbox ran out of memory in an earlier test' },
      ],
    });
    expect((await run({ program: 'function f(){ return 5 }', memoryMb: 16 })).outputs).toEqual([{ code: 'ok', text: '5' }]);
  });

  test('the watchdog is disarmed when a call returns or throws: a later run on the same worker is served normally', async () => {
    for (const program of ['function f(){ return 1 }', 'function f(){ throw new Error("x") }']) {
      const a = await ask(sharedWorker(), { program, timeMs: 1000 }); // the watchdog would fire 500 ms after the limit
      expect(a.retire).toBeUndefined();
      await new Promise((r) => setTimeout(r, 1700));
      const b = await ask(sharedWorker(), { program: 'function f(){ return 2 }' });
      expect(b).toEqual({ id: b.id, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '2' }] } });
    }
  });
});

test('property checks: only `true` passes; a property that throws, never ends or needs more than its isolate\'s 64 MB fails, and the run goes on (a heap that outgrows the checker disposes it: the next check gets a new one)', async () => {
  const heap = '() => new Array(1e7).fill(1.5).length > 0'; // 80 MB of heap at once (a slower growth may end at the time limit instead)
  const r = await run({
    program: 'function f(x){ return x }',
    tests: ['(o, x) => o === 1 && x === 1', '() => 1', '() => { throw new Error("no") }', '() => { for (;;) {} }', '() => new Float64Array(12.5e6).length > 0', '(o) => o === 2', heap, '(o) => o === 1'].map((property) => ({ input: [1], property })),
    timeMs: 2000,
  });
  expect(r.outputs.map((o) => o.property)).toEqual([true, false, false, false, false, false, false, true]);
});

describe('a builtin the isolate cannot interrupt, while loading, in the lookup or in a call: the watchdog holds the limit and the worker retires', () => {
  const HUNG = { code: 'timeout', message: 'time limit of 300 ms exceeded (the program could not be interrupted; its worker was ended)', outputs: [] };
  const split = "'x'.repeat(2 ** 28).split('').length";
  test.each([
    ['the load', `${split}; function f(){ return 1 }`],
    ['the separate lookup', `const __sandbox_entry__ = 0; Object.defineProperty(globalThis, "f", { get() { return ${split} } })`],
  ])('%s', async (_name, program) => {
    worker = start();
    const exited = new Promise<string | null>((resolve) => worker!.on('exit', (_code, signal) => resolve(signal)));
    const a = await ask(worker, { program, timeMs: 300, memoryMb: 256 });
    expect(a).toMatchObject({ ok: true, res: HUNG, retire: true });
    expect(await exited).toBe('SIGKILL');
  });

  test.each([
    [false, 'not run: an earlier test could not be stopped'],
    [true, 'not run: an earlier test timed out'],
  ])('in a call (stopOnTimeout %s): the tests after it are not run', async (stopOnTimeout, notRun) => {
    worker = start();
    const a = await ask(worker, { program: `function f(){ return ${split} }`, tests: [{ input: [] }, { input: [] }], timeMs: 300, memoryMb: 256, stopOnTimeout });
    expect(a).toMatchObject({ ok: true, retire: true, res: { code: 'ok', outputs: [{ code: 'timeout', message: HUNG.message }, { code: 'timeout', message: notRun }] } });
  });
});

describe('--sync: which calls are synchronous', () => {
  /** A run whose `phase` loops until its limit of 1,500 ms, then a cancel sent while it runs: the answer. */
  async function cancelled(args: string[], r: Req): Promise<Answer> {
    worker = start(args);
    await ask(worker, { program: 'function f(){ return 1 }' }); // started: the next run starts as it is read
    const got = nextAnswer(worker);
    const id = ++ids;
    worker.send(request(id, { timeMs: 1500, ...r }));
    await new Promise((res) => setTimeout(res, 300));
    worker.send({ cancel: id });
    return got;
  }
  const CANCELLED = { ok: false, error: 'cancelled', cancelled: true, retire: true };
  const loadLoop = { program: 'while (true) {} function f(){ return 1 }' };
  const lookupLoop = { program: 'const __sandbox_entry__ = 0; Object.defineProperty(globalThis, "f", { get() { for (;;) {} } })' };

  test('with --sync the load and the separate lookup of a lone one-test run block the worker: the cancel is heard after them', async () => {
    expect((await cancelled(['--sync'], loadLoop)).res).toEqual({ code: 'timeout', message: TIMED_OUT, outputs: [] });
    worker!.kill('SIGKILL');
    expect((await cancelled(['--sync'], lookupLoop)).res).toEqual({ code: 'timeout', message: TIMED_OUT, outputs: [] });
  });

  test('without --sync the same cancels end the run at once', async () => {
    expect(await cancelled([], loadLoop)).toMatchObject(CANCELLED);
    worker!.kill('SIGKILL');
    expect(await cancelled([], lookupLoop)).toMatchObject(CANCELLED);
  });

  test('with --sync (synchronous calls) null thrown while loading or by a call is a runtime error too', async () => {
    worker = start(['--sync']);
    expect((await ask(worker, { program: 'throw null; function f(){}' })).res).toEqual({ code: 'runtime-error', message: 'null', outputs: [] });
    expect((await ask(worker, { program: 'function f(){ throw null }' })).res).toEqual({ code: 'ok', outputs: [{ code: 'runtime-error', message: 'null' }] });
  });

  test('with --sync a lone run of two tests keeps the asynchronous calls: the cancel ends it at once', async () => {
    expect(await cancelled(['--sync'], { program: 'function f(){ for (;;) {} }', tests: [{ input: [] }, { input: [] }] })).toMatchObject(CANCELLED);
  });
});
