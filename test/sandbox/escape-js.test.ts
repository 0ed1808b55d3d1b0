/**
 * The JavaScript escape corpus: each attempt is contained (the host process stays up, nothing
 * outside the isolate is reached) and ends with the right result code.
 */
import { createSandbox, type Sandbox } from '../../src/sandbox';
import type { CodeRunResult, RunLimits } from '../../src/core/sandbox';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 2 });
});
afterAll(() => sb.close());

const run = (program: string, limits: RunLimits = { timeMs: 1000, memoryMb: 64 }, expected?: unknown): Promise<CodeRunResult> =>
  sb.code.run({ language: 'js', program, entry: 'f', tests: [{ input: [], ...(expected !== undefined ? { expected: expected as never } : {}) }], limits });

const cases: [string, string, string, RegExp | null][] = [
  ['read /etc/passwd', `function f(){ return require('fs').readFileSync('/etc/passwd', 'utf8') }`, 'runtime-error', /require is not defined/],
  ["read the project's files", `function f(){ return process.mainModule.filename }`, 'runtime-error', /process is not defined/],
  ['write outside the sandbox', `function f(){ require('fs').writeFileSync('/tmp/escaped', 'x') }`, 'runtime-error', /require/],
  ['spawn a process', `function f(){ return require('child_process').execSync('id').toString() }`, 'runtime-error', /require/],
  ['open a socket to 127.0.0.1', `function f(){ return fetch('http://127.0.0.1:9/') }`, 'runtime-error', /fetch is not defined/],
  ['dynamic import of fs', `function f(){ return import('fs') }`, 'runtime-error', null],
  ['read the clock: Date.now', `function f(){ return Date.now() }`, 'runtime-error', /clock is not available/],
  ['read the clock: new Date()', `function f(){ return new Date().getTime() }`, 'runtime-error', /clock is not available/],
  ['read the clock: the real Date through a prototype', `function f(){ return Object.getPrototypeOf(new Date(0)).constructor.now() }`, 'runtime-error', /clock is not available/],
  ['read the clock: performance and Intl', `function f(){ return performance.now() + new Intl.DateTimeFormat().format() }`, 'runtime-error', /performance is not defined/],
  ['infinite loop', `function f(){ while (true) {} }`, 'timeout', null],
  ['infinite loop at load time', `while (true) {} function f(){ return 1 }`, 'timeout', null],
  ['memory bomb', `function f(){ const a = []; for (;;) a.push(new Float64Array(1 << 20)); }`, 'memory-limit', null],
  ['deep recursion', `function f(n = 0){ return f(n + 1) + 1 }`, 'runtime-error', /call stack/],
  ['syntax error', `function f( { return 1 }`, 'syntax-error', null],
  ['a getter that loops while the result is read', `function f(){ return { get x() { for (;;) {} } } }`, 'timeout', null],
];

describe('JavaScript escape corpus', () => {
  test.each(cases)('%s is contained', async (_name, program, code, message) => {
    const r = await run(program);
    expect(r.code).toBe(code);
    expect(r.tests[0].code).toBe(code);
    if (message) expect(r.message).toMatch(message);
  });

  test('100 MB of output ends as output-limit', async () => {
    const r = await run(`function f(){ return 'x'.repeat(100 * 1024 * 1024) }`, { timeMs: 5000, memoryMb: 512, outputBytes: 1_000_000 });
    expect(r.code).toBe('output-limit');
  });

  test('constructor.constructor and prototype tricks reach only the isolate', async () => {
    const r = await run(
      `function f(){
        const g = ({}).constructor.constructor('return this')();
        const h = f.constructor('return globalThis')();
        return [typeof g.process, typeof h.require, typeof g.global, typeof Object.getPrototypeOf(g).process, String(Object.keys(g).includes('process'))];
      }`,
      undefined,
      ['undefined', 'undefined', 'undefined', 'undefined', 'false'],
    );
    expect(r.code).toBe('ok');
  });

  test('the caller of the program is out of reach', async () => {
    const r = await run(`function f(){ return String(f.caller && f.caller.toString().slice(0, 20)) }`);
    expect(['runtime-error', 'ok']).toContain(r.code);
    if (r.code === 'ok') expect(r.tests[0].actual).toBe('null');
  });

  test('overwriting JSON cannot change how outputs are read', async () => {
    const r = await sb.code.run({
      language: 'js',
      program: `function f(){ JSON.stringify = () => '3'; JSON.parse = () => 3; Object.prototype.toJSON = undefined; return 2 }`,
      entry: 'f',
      tests: [{ input: [], expected: 3 }, { input: [], expected: 3 }],
    });
    expect(r.tests.map((t) => [t.code, t.actual])).toEqual([['wrong-answer', 2], ['wrong-answer', 2]]);
  });

  test('a fresh context per run: globals one program sets are gone in the next', async () => {
    await run(`globalThis.leaked = 42; Array.prototype.sum = function(){ return 1 }; function f(){ return 1 }`);
    const r = await run(`function f(){ return [typeof leaked, typeof [].sum] }`, undefined, ['undefined', 'undefined']);
    expect(r.code).toBe('ok');
  });

  test('after the whole corpus the host runs programs normally', async () => {
    const r = await run(`function f(){ return [1, 2, 3].map((x) => x * 2) }`, undefined, [2, 4, 6]);
    expect(r).toMatchObject({ code: 'ok', passed: 1, total: 1 });
  });
});
