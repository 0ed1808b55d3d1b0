/**
 * Attacks on the JavaScript sandbox beyond the escape corpus (escape-js.test.ts). Each test
 * asserts the CONTAINED behaviour: a test that fails here is a weakness of the sandbox.
 */
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { RUN_CODES, type CodeRunRequest, type CodeRunResult, type RunLimits } from '../../src/core/sandbox';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 1 }); // one worker: runs share its isolate, as in production
});
afterAll(() => sb.close());

const run = (program: string, limits: RunLimits = { timeMs: 1000, memoryMb: 64 }, extra: Partial<CodeRunRequest> = {}): Promise<CodeRunResult> =>
  sb.code.run({ language: 'js', program, entry: 'f', tests: [{ input: [] }], limits, ...extra });

/** JSON.stringify of `value` from `frames` calls deep, as a store writing an event record would. */
function serializableAtDepth(value: unknown, frames: number): boolean {
  const go = (n: number): boolean => {
    if (n > 0) return go(n - 1);
    try {
      JSON.stringify({ type: 'effect-result', data: { runs: [value] } });
      return true;
    } catch {
      return false;
    }
  };
  return go(frames);
}

describe('JavaScript sandbox attacks: memory', () => {
  test('WebAssembly.Memory does not bypass the memory limit (256 MB in a 64 MB run)', async () => {
    const r = await run(
      `function f(){
        const m = new WebAssembly.Memory({ initial: 1, maximum: 65536 });
        for (let mb = 0; mb < 256; mb += 64) { m.grow(1024); new Uint8Array(m.buffer).fill(1, mb << 20); }
        return new Uint8Array(m.buffer).length >> 20;
      }`,
      { timeMs: 10_000, memoryMb: 64 },
    );
    expect(r.tests[0].actual).toBeUndefined(); // ok with 256 (MB touched) is the bypass
    expect(['memory-limit', 'runtime-error']).toContain(r.code);
  });

  test('the compile cache does not count against later runs: 45 one-megabyte programs, then a run that needs 24 MB of its 64 MB', async () => {
    const victim = `function f(){ const a = new Array(3e6).fill(0).map((_, i) => i * 1.5); return a.length }`;
    const limits = { timeMs: 10_000, memoryMb: 64 };
    const alone = await run(victim, limits, { tests: [{ input: [], expected: 3e6 }] });
    expect(alone.code).toBe('ok'); // control: the victim fits on its own
    const pad = `/*${'x'.repeat(1_000_000 - 64)}*/`;
    for (let i = 0; i < 45; i++) {
      const big = await run(`${pad}\nfunction f(){ return ${i} }`, limits, { tests: [{ input: [], expected: i }] });
      expect(big.code).toBe('ok');
    }
    const after = await run(victim, limits, { tests: [{ input: [], expected: 3e6 }] });
    expect(after.code).toBe('ok');
  });
});

describe('JavaScript sandbox attacks: the worker', () => {
  test('Atomics.waitAsync with a timeout does not crash the worker (the run ends with a program code, the worker lives on)', async () => {
    await run(`function f(){ return 0 }`); // the worker is up
    const started = sb.pool.stats.workersStarted;
    const r = await run(`function f(){ const i32 = new Int32Array(new SharedArrayBuffer(4)); Atomics.waitAsync(i32, 0, 0, 50); return 1 }`);
    expect(r.code).not.toBe('sandbox-error');
    expect(r.message ?? '').not.toMatch(/worker died/);
    const next = await run(`function f(){ return 2 }`, undefined, { tests: [{ input: [], expected: 2 }] });
    expect(next.code).toBe('ok');
    expect(sb.pool.stats.workersStarted).toBe(started);
  });

  test('microtasks and getters run under the time limit, not after it (contained)', async () => {
    for (const program of [
      `Promise.resolve().then(() => { for (;;) {} }); function f(){ return 1 }`,
      `function f(){ Promise.resolve().then(() => { for (;;) {} }); return 1 }`,
      `function f(){ const go = () => Promise.resolve().then(go); go(); return 1 }`,
      `Object.defineProperty(globalThis, 'f', { get() { for (;;) {} } })`,
    ]) {
      const r = await run(program, { timeMs: 300, memoryMb: 64 });
      expect(r.code).toBe('timeout');
    }
    expect((await run(`function f(){ return 3 }`, undefined, { tests: [{ input: [], expected: 3 }] })).code).toBe('ok');
  });

  test('callbacks an earlier run leaves behind (FinalizationRegistry, Atomics.waitAsync) cannot break a later run (contained)', async () => {
    await run(`const reg = new FinalizationRegistry(() => { for (;;) {} }); for (let i = 0; i < 1000; i++) reg.register({ i }, i); globalThis.reg = reg; function f(){ return 1 }`);
    await run(`const keep = new Array(2e6).fill(1.5); Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0).value.then(() => { keep.length; for (;;) {} }); function f(){ return 1 }`);
    for (let i = 0; i < 3; i++) {
      const r = await run(`function f(){ const a = []; for (let i = 0; i < 300; i++) a.push(new Array(1000).fill(i)); return a.length }`, { timeMs: 2000, memoryMb: 64 }, { tests: [{ input: [], expected: 300 }] });
      expect(r.code).toBe('ok');
    }
  });
});

describe('JavaScript sandbox attacks: outputs reaching the host', () => {
  test('the whole run\'s output is bounded, as it is for Python: 60 tests of 999,990 characters each end as output-limit', async () => {
    const tests = Array.from({ length: 60 }, (_, i) => ({ input: [i] }));
    const js = await sb.code.run({ language: 'js', program: `function f(i){ return 'x'.repeat(999990) + i }`, entry: 'f', tests, limits: { timeMs: 5000, memoryMb: 256 } });
    const shipped = js.tests.reduce((n, t) => n + (typeof t.actual === 'string' ? t.actual.length : 0), 0);
    // python-runner.ts caps a batch's stdout at outputBytes * 2 + 1 MB (3 MB here)
    expect(shipped).toBeLessThanOrEqual(3_000_000);
    expect(js.code).toBe('output-limit');
  });

  test('an output nested as deep as the isolate allows stays serializable on the host (the result is recorded as an event)', async () => {
    for (const d of [4150, 4100, 4000, 3000]) {
      const r = await run(`function f(){ let a = 1; for (let i = 0; i < ${d}; i++) a = [a]; return a }`, { timeMs: 5000, memoryMb: 128 });
      // refusing the output (a depth limit) is contained; an ok result must be recordable
      if (r.code === 'ok') expect([d, serializableAtDepth(r, 100)]).toEqual([d, true]);
    }
  });

  test('overriding toJSON, Symbol.toPrimitive and Array iteration changes only the program\'s own view (contained)', async () => {
    const r = await sb.code.run({
      language: 'js',
      program: `
        Object.prototype.toJSON = function () { return 3 };
        Array.prototype.toJSON = function () { return 3 };
        Number.prototype.toJSON = function () { return 3 };
        Object.prototype[Symbol.toPrimitive] = () => 3;
        Array.prototype[Symbol.iterator] = function* () { yield 3; };
        Object.defineProperty(Object.prototype, '0', { set() {}, get() { return 3 }, configurable: true });
        function f(x){ return x }`,
      entry: 'f',
      tests: [{ input: [1], expected: 3 }, { input: [[1, 2]], property: '(o, x) => Array.isArray(o) ? false : o === 3' }],
    });
    // the program sees 3 as its argument (its own spread); it returns a number, and a
    // number's toJSON is never consulted: the result is the honest 3 — nothing host-side changed
    expect(r.tests.map((t) => t.code)).toEqual(['ok', 'ok']);
    const honest = await sb.code.run({ language: 'js', program: `function f(x){ return x }`, entry: 'f', tests: [{ input: [[1, 2]], property: '(o, x) => Array.isArray(o) && o.length === 2 && o[0] === 1 && x[1] === 2' }] });
    expect(honest.code).toBe('ok'); // the checker context is fresh: the program's prototypes never reach it
  });

  test('every code that comes back is a RunCode, and the result is plain JSON (contained)', async () => {
    const r = await run(`function f(){ return { a: [1, { b: null }], s: '\\u0000too-long:5', u: '\\ud800' } }`);
    expect(RUN_CODES).toContain(r.code);
    expect(r.tests[0].actual).toEqual({ a: [1, { b: null }], s: '\u0000too-long:5', u: '\ud800' });
  });
});

describe('JavaScript sandbox attacks: the clock (contained)', () => {
  test.each([
    ['Reflect.construct', `function f(){ return Reflect.construct(Date, []).getTime() }`],
    ['a subclass of Date', `function f(){ class D extends Date {} return new D().getTime() }`],
    ['the constructor of a date\'s prototype', `function f(){ return new (Object.getPrototypeOf(new Date(0)).constructor)().getTime() }`],
    ['Date() called as a function', `function f(){ return Date() }`],
  ])('%s does not read the clock', async (_name, program) => {
    const r = await run(program);
    expect(r.code).toBe('runtime-error');
    expect(r.message).toMatch(/clock is not available/);
  });

  test('no timer, performance or Intl is left on the global object, and undefined dates are not now', async () => {
    const r = await run(`function f(){
      const names = Object.getOwnPropertyNames(globalThis);
      return [names.filter((n) => /^(performance|Intl|setTimeout|setInterval|setImmediate|queueMicrotask|process|require)$/.test(n)), new Date(undefined).getTime(), Date.UTC(), typeof Date.now]
    }`);
    expect(r.code).toBe('ok');
    expect(r.tests[0].actual).toEqual([[], null, null, 'function']);
  });
});
