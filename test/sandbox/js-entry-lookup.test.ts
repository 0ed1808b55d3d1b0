/**
 * The entry's lookup joined to the program (isolate-runner.cjs `withLookup`): one call into the
 * isolate loads the program and finds its function. A program left open (a comment, string,
 * template or block) stays a syntax error with its own message — the appended lookup never
 * completes or changes it — top-level bindings of every kind are found, and an entry no lookup
 * can name (a reserved word) is refused before any program code runs (it was once answered a
 * syntax error of the program's own).
 */
import { createSandbox, type Sandbox } from '../../src/sandbox';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 1 });
});
afterAll(() => sb.close());

const js = (program: string, entry = 'f') => sb.code.run({ language: 'js', program, entry, tests: [{ input: [2], expected: 3 }] });

test.each([
  ['an unfinished call', 'function f(x){ return x + 1 }\nfoo(', /Unexpected end of input/],
  ['an open comment', 'function f(x){ return x + 1 } /*', /Invalid or unexpected token|Unexpected end of input/],
  ['an open string', "function f(x){ return x + 1 } '", /Invalid or unexpected token/],
  ['an open template', 'function f(x){ return x + 1 } `', /Unterminated template literal|Unexpected end of input/],
  ['an open block', 'function f(x){ return x + 1 } {', /Unexpected end of input/],
  ['an open object literal', 'function f(x){ return x + 1 }\nconst o = {', /Unexpected end of input/],
  ['an if without its statement', 'function f(x){ return x + 1 }\nif (true)', /Unexpected end of input/],
  ['a while without its statement', 'function f(x){ return x + 1 }\nwhile (false)', /Unexpected end of input/],
  ['a label without its statement', 'function f(x){ return x + 1 }\ndone:', /Unexpected end of input/],
  ['an else without its statement', 'function f(x){ return x + 1 }\nif (false) {} else', /Unexpected end of input/],
  ['an assignment without its value', 'function f(x){ return x + 1 }\nlet y =', /Unexpected end of input/],
])('a program left open (%s) is a syntax error with its own message', async (_name, program, message) => {
  const r = await js(program);
  expect(r.code).toBe('syntax-error');
  expect(r.message).toMatch(message);
});

test.each([
  ['a function declaration', 'function f(x){ return x + 1 }'],
  ['a top-level let', 'let f = (x) => x + 1'],
  ['a top-level const after a trailing comment', 'const f = function (x) { return x + 1 } // done'],
  ['a global property', 'globalThis.f = (x) => x + 1;'],
  ['a program that declares the name of the lookup (looked up in a second call)', 'const __sandbox_entry__ = 1; function f(x){ return x + 1 }'],
  ['a program without a final newline or semicolon', 'function f(x){ return x + 1 }; 1 + 1'],
])('the entry is found: %s', async (_name, program) => {
  expect(await js(program)).toMatchObject({ code: 'ok', tests: [{ actual: 3 }] });
});

test('no function by that name is a runtime error; an entry that is a reserved word is the sandbox\'s error, not the program\'s', async () => {
  expect(await js('const g = 1')).toMatchObject({ code: 'runtime-error', message: 'the program defines no function "f"' });
  expect((await js('function f(x){ return x + 1 }', 'if')).code).toBe('sandbox-error');
  expect((await js('function f(x){ return x + 1 }')).code).toBe('ok'); // the worker serves the next run
});
