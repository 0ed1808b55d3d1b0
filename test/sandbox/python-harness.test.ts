/**
 * The Python harness (src/sandbox/python-harness.ts) case by case, through `runPythonBatch` (the
 * bubblewrap sandbox, no pool), many runs at once: what each of its functions answers — the
 * arguments (big integers), error texts, every code of a test, the load, the outputs, and in
 * check mode the helpers, the one name from the program, and every way the candidate's process
 * can fail. Fast enough to be the mutation-testing suite of the harness
 * (stryker/python-mutants.cjs).
 */
import { runPythonBatch, pythonSandboxProblem } from '../../src/sandbox/python-runner';
import type { RawRun } from '../../src/sandbox/raw-run';
import type { JsonValue } from '../../src/core/json';
import { bigIntTag } from '../../src/core/exact-json';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

const limits = { timeMs: 1500, memoryMb: 128, outputBytes: 200 };
type Batch = { program: string; inputs?: JsonValue[][]; check?: string; helpers?: string; timeMs?: number; outputBytes?: number };
const run = (b: Batch): Promise<RawRun> =>
  runPythonBatch({ program: b.program, entry: 'f', inputs: b.inputs ?? [[1]], check: b.check, helpers: b.helpers, limits: { ...limits, timeMs: b.timeMs ?? limits.timeMs, outputBytes: b.outputBytes ?? limits.outputBytes } });

/** Runs every batch, four at a time (the sandbox is one process per batch). */
async function all(batches: Batch[]): Promise<RawRun[]> {
  const out: RawRun[] = new Array(batches.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < batches.length) {
        const i = next++;
        out[i] = await run(batches[i]);
      }
    }),
  );
  return out;
}

const outputs = (r: RawRun) => r.outputs.map((o) => (o.code === 'ok' ? o.text : `${o.code}: ${o.message}`));

describe('one process: arguments, error texts, every code of a test', () => {
  test('arguments: a big integer tag is the int; anything that only looks like one stays a dict', async () => {
    const f = 'def f(x):\n    return [type(x).__name__, str(x) if type(x) is int else sorted(x.items()) if isinstance(x, dict) else x]';
    const tag = (d: unknown) => ({ $bigint: d }) as JsonValue;
    const [r] = await all([
      {
        program: f,
        inputs: [[bigIntTag(2n ** 60n + 1n)], [bigIntTag(-(2n ** 60n))], [tag('9007199254740991')], [tag('9007199254740992')], [tag('01152921504606846977')], [tag('1152921504606846977x')], [tag('-1152921504606846977-')], [{ $bigint: '1152921504606846977', b: 1 }], [tag(5)], [tag('1'.repeat(4001))], [tag('1'.repeat(4000))], [tag('1'.repeat(3999))], [tag('')]],
        outputBytes: 20_000,
      },
    ]);
    expect(outputs(r)).toEqual([
      '["int", "1152921504606846977"]',
      '["int", "-1152921504606846976"]',
      '["dict", [["$bigint", "9007199254740991"]]]',
      '["int", "9007199254740992"]',
      '["dict", [["$bigint", "01152921504606846977"]]]',
      '["dict", [["$bigint", "1152921504606846977x"]]]',
      '["dict", [["$bigint", "-1152921504606846977-"]]]',
      '["dict", [["$bigint", "1152921504606846977"], ["b", 1]]]',
      '["dict", [["$bigint", 5]]]',
      `["dict", [["$bigint", "${'1'.repeat(4001)}"]]]`,
      `["dict", [["$bigint", "${'1'.repeat(4000)}"]]]`, // the harness's own cut, below Python's int-from-text limit
      `["int", "${'1'.repeat(3999)}"]`,
      '["dict", [["$bigint", ""]]]',
    ]);
  });

  test('every code of a test, with its message; the timer is reset after each test', async () => {
    const program = `import sys, os
class Liar(Exception):
    def __str__(self):
        raise ValueError()
class Meta(type):
    @property
    def __name__(cls):
        raise ValueError()
class Nameless(Exception, metaclass=Meta):
    pass
def f(x):
    if x == 'loop':
        while True:
            pass
    if x == 'print':
        print('x' * 300)
    if x == 'stderr':
        sys.stderr.write('y' * 300)
    if x == 'memory':
        raise MemoryError()
    if x == 'exit':
        sys.exit(4)
    if x == 'value':
        raise ValueError('bad\\nsecond line')
    if x == 'long':
        raise ValueError('z' * 400)
    if x == 'empty':
        raise KeyError()
    if x == 'liar':
        raise Liar()
    if x == 'nameless':
        raise Nameless('n')
    if x == 'set':
        return {1}
    if x == 'nan':
        return float('nan')
    if x == 'deep':
        v = []
        for _ in range(201):
            v = [v]
        return v
    if x == 'deepdict':
        v = {}
        for _ in range(201):
            v = {'k': v}
        return v
    if x == 'big':
        return 'w' * 300
    if x == 'mutate':
        return 'ok'
    return x`;
    const names = ['loop', 'fast', 'print', 'stderr', 'memory', 'exit', 'value', 'long', 'empty', 'liar', 'nameless', 'set', 'nan', 'deep', 'deepdict', 'big', 'fast'];
    const [r] = await all([{ program, inputs: names.map((n) => [n]), timeMs: 400 }]);
    expect(r.code).toBe('ok');
    expect(outputs(r)).toEqual([
      'timeout: time limit of 400 ms exceeded',
      '"fast"',
      'output-limit: more than 200 characters printed',
      'output-limit: more than 200 characters printed',
      'memory-limit: MemoryError',
      'exited: the program asked to exit (SystemExit: 4)',
      'runtime-error: ValueError: bad',
      `runtime-error: ValueError: ${'z'.repeat(300 - 'ValueError: '.length)}`,
      'runtime-error: KeyError',
      'runtime-error: Liar',
      'runtime-error: an exception: n',
      "runtime-error: the output is not JSON (TypeError: Object of type set is not JSON serializable)",
      'runtime-error: the output is not JSON (ValueError: Out of range float values are not JSON compliant)',
      'runtime-error: the output is not JSON (ValueError: the output is nested deeper than 200 levels)',
      'runtime-error: the output is not JSON (ValueError: the output is nested deeper than 200 levels)', // in dicts too
      'output-limit: output of 302 characters exceeds 200',
      '"fast"',
    ]);
  });

  test('outputs: a dict keeps its own key order and may mix key types JSON takes; a key JSON cannot take is not JSON', async () => {
    const [r] = await all([
      {
        program: "def f(x):\n    if x == 'tuple':\n        return {(1, 2): 3}\n    return {'b': 1, 1: 'a', None: 2.5, False: 0}",
        inputs: [['mixed'], ['tuple']],
        outputBytes: 1000,
      },
    ]);
    expect(outputs(r)).toEqual([
      '{"b": 1, "1": "a", "null": 2.5, "false": 0}', // unsorted (sorting int and str keys would raise)
      'runtime-error: the output is not JSON (TypeError: keys must be str, int, float, bool or None, not tuple)', // not skipped
    ]);
  });

  test('each test gets fresh arguments; an output nested exactly 200 deep is fine', async () => {
    const [r] = await all([
      {
        program: 'def f(xs):\n    xs.append(1)\n    if len(xs) == 5:\n        v = 0\n        for _ in range(200):\n            v = [v]\n        return v\n    return len(xs)',
        inputs: [[[]], [[]], [[1, 2, 3, 4]]],
        outputBytes: 1000,
      },
    ]);
    expect(outputs(r)).toEqual(['1', '1', `${'['.repeat(200)}0${']'.repeat(200)}`]);
  });

  test('the load: a syntax error, an error while loading (each code), no entry, an entry that is not a function', async () => {
    const runs = await all([
      { program: 'def f(:' },
      { program: 'raise ValueError("at load")\ndef f(x):\n    return x' },
      { program: 'import sys\nsys.exit(2)' },
      { program: 'while True:\n    pass', timeMs: 300 },
      { program: 'def g(x):\n    return x' },
      { program: 'f = 3' },
      { program: 'x = "\\0"\ncompile("a\\0b", "s", "exec")' },
      { program: 'def f(x):\n    return x\0' },
      { program: 'raise SyntaxError("mine")' },
      { program: 'class E(SyntaxError):\n    __traceback__ = None\nraise E("hidden")' },
    ]);
    expect(runs.map((r) => [r.code, r.message, r.outputs])).toEqual([
      ['syntax-error', 'SyntaxError: invalid syntax (program.py, line 1)', []],
      ['runtime-error', 'ValueError: at load', []],
      ['exited', 'the program asked to exit (SystemExit: 2)', []],
      ['timeout', 'time limit of 300 ms exceeded', []],
      ['runtime-error', "the program defines no function 'f'", []],
      ['runtime-error', "the program defines no function 'f'", []],
      ['runtime-error', expect.stringMatching(/^(SyntaxError|ValueError): /), []],
      ['syntax-error', 'ValueError: source code string cannot contain null bytes', []],
      // the program's own SyntaxError is its runtime error, however its class hides its traceback
      ['runtime-error', 'SyntaxError: mine', []],
      ['runtime-error', 'E: hidden', []],
    ]);
  });

  test("the process ends with the harness: a thread the program left running does not hold the run, and no atexit handler of the program runs after its result", async () => {
    // finalizing the interpreter would wait for the thread (until the wall clock: a timeout) and then
    // run the handler, whose flood of output would end the run as an output-limit
    const program = `import atexit, os, threading, time
def _forever():
    while True:
        time.sleep(0.05)
threading.Thread(target=_forever).start()
atexit.register(lambda: os.write(1, b"x" * 3000000))
def f(x):
    return x`;
    expect(await run({ program, timeMs: 300 })).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '1' }] });
  });
});

describe("check mode: check()'s namespace and the candidate's process", () => {
  const check = (body: string) => `def check(candidate):\n${body.split('\n').map((l) => `    ${l}`).join('\n')}\n`;

  test('helpers and the entry point by its own name; the program\'s other names and builtins never reach check()', async () => {
    const runs = await all([
      { program: 'def f(x):\n    return x + 1\ndef helper():\n    return 1\nabs = lambda x: 0', inputs: [[1], [2]], helpers: 'def twice(x):\n    return 2 * x\ndef f(x):\n    return None', check: check('assert twice(candidate(1)) == 4\nassert f(2) == 3\nassert abs(-1) == 1\nassert candidate.__name__ == "f"') },
      { program: 'def f(x):\n    return x\ndef helper():\n    return 1', inputs: [], check: check('assert helper() == 1') },
      { program: 'def f(x):\n    return x', inputs: [], check: check('assert candidate(1) == 2, "one is not two"') },
      { program: 'def f(x):\n    return x', inputs: [], check: check('assert candidate(1) == 2') },
      { program: 'def f(x):\n    return x', inputs: [], check: check('raise SystemExit(1)') },
      { program: 'def f(x):\n    return x', inputs: [], helpers: 'raise ValueError("helpers")', check: check('pass') },
    ]);
    expect(runs[0]).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '2' }, { code: 'ok', text: '3' }], check: { code: 'ok' } });
    expect(runs[1].check).toEqual({ code: 'runtime-error', message: "NameError: name 'helper' is not defined" });
    expect(runs[2].check).toEqual({ code: 'wrong-answer', message: 'AssertionError: one is not two' });
    expect(runs[3].check).toEqual({ code: 'wrong-answer', message: 'an assertion of check() failed' });
    expect(runs[4].check).toEqual({ code: 'runtime-error', message: 'SystemExit: 1' });
    expect(runs[5].check).toEqual({ code: 'runtime-error', message: 'ValueError: helpers' });
  });

  test('what the candidate answers: literals cross; errors, exits, limits and non-literals each have their code', async () => {
    const program = `import sys, os
def f(x):
    if x == 'raise':
        raise ValueError('no')
    if x == 'exit':
        sys.exit(0)
    if x == 'loop':
        while True:
            pass
    if x == 'print':
        print('x' * 300)
    if x == 'memory':
        raise MemoryError()
    if x == 'object':
        return object()
    if x == 'deep':
        v = []
        for _ in range(201):
            v = [v]
        return v
    return [x, (1, 2.5), {'a': None}, True]`;
    const calls = ['raise', 'exit', 'loop', 'print', 'memory', 'object', 'deep'];
    const runs = await all([
      { program, inputs: [], check: check('assert candidate("v") == ["v", (1, 2.5), {"a": None}, True]'), timeMs: 400 },
      ...calls.map((c) => ({ program, inputs: [], check: check(`candidate(${JSON.stringify(c)})`), timeMs: 400 })),
      { program, inputs: [], check: check('try:\n    candidate("raise")\nexcept RuntimeError as e:\n    assert str(e) == "ValueError: no"'), timeMs: 400 },
    ]);
    expect(runs.map((r) => r.check)).toEqual([
      { code: 'ok' },
      { code: 'runtime-error', message: 'RuntimeError: ValueError: no' },
      { code: 'exited', message: 'the program asked to exit (SystemExit: 0)' },
      { code: 'timeout', message: expect.stringMatching(/^(time limit of 400 ms exceeded|the candidate timed out \(400 ms\))$/) },
      { code: 'output-limit', message: 'more than 200 characters printed' },
      { code: 'memory-limit', message: 'MemoryError' },
      { code: 'runtime-error', message: expect.stringMatching(/^RuntimeError: SyntaxError: /) }, // repr(object()) is no literal
      { code: 'runtime-error', message: 'RuntimeError: ValueError: the output is nested deeper than 200 levels' },
      { code: 'ok' },
    ]);
  });

  test("the candidate's process ending: exit status, signals, a closed channel, a forged reply", async () => {
    const body = (code: string) => `import os, signal, sys\ndef f(x):\n${code}`;
    const runs = await all([
      { program: body('    os._exit(7)'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.kill(os.getpid(), signal.SIGTERM)'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.kill(os.getpid(), signal.SIGSEGV)'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.kill(os.getpid(), signal.SIGXCPU)'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.close(3)\n    import time\n    time.sleep(5)'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.write(3, b"[1]\\n")\n    return 1'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.write(3, b"{\\"code\\": \\"ok\\", \\"value\\": \\"open(1)\\"}\\n")\n    return 1'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.write(3, b"{\\"code\\": \\"sandbox-error\\", \\"message\\": 5}\\n")\n    return 1'), inputs: [], check: check('candidate(1)') },
      { program: body('    os.write(3, b"{\\"code\\": \\"killed-by-signal\\", \\"message\\": \\"m\\"}\\n")\n    return 1'), inputs: [], check: check('candidate(1)') },
    ]);
    expect(runs.map((r) => r.check)).toEqual([
      { code: 'exited', message: 'the program ended its process (exit status 7)' },
      { code: 'killed-by-signal', message: "the program's process was killed by SIGTERM" },
      { code: 'runtime-error', message: 'the program crashed (SIGSEGV)' },
      { code: 'timeout', message: 'the program ran past its CPU time' },
      { code: 'runtime-error', message: "the program closed the harness's channel" },
      { code: 'runtime-error', message: 'the program wrote a malformed reply' },
      { code: 'runtime-error', message: "the candidate's value is not a Python literal" },
      { code: 'runtime-error', message: 'the candidate failed' },
      { code: 'runtime-error', message: 'm' },
    ]);
  });

  test("the candidate's process at load: its codes pass through, anything else it writes is a forged reply", async () => {
    const runs = await all([
      { program: 'def f(:', check: check('pass') },
      { program: 'import os\nos._exit(3)', check: check('pass') },
      { program: 'import os\nos.kill(os.getpid(), 9)', check: check('pass') },
      { program: 'while True:\n    pass', check: check('pass'), timeMs: 300 },
      { program: 'import os\nos.write(3, b"{\\"code\\": \\"sandbox-error\\", \\"message\\": \\"x\\"}\\n")\nos._exit(0)', check: check('pass') },
      { program: 'import os\nos.write(3, b"{\\"code\\": \\"exited\\", \\"message\\": 5}\\n")\nos._exit(0)', check: check('pass') },
      { program: 'import os\nos.write(3, b"{\\"code\\": \\"exited\\"}\\n")\nos._exit(0)', check: check('pass') },
      // a reply is one strict JSON value: a raw control character in a string, a second value after it, or NaN
      // (passed on, it made the result line unreadable: reported as the program's exit before its results), is forged
      { program: 'import os\nos.write(3, b"{\\"code\\": \\"ok\\", \\"outputs\\": [NaN]}\\n")\ndef f(x):\n    return x', inputs: [[1]], check: check('pass') },
      { program: 'import os\nos.write(3, b"{\\"code\\": \\"exited\\", \\"message\\": \\"a\\tb\\"}\\n")\nos._exit(0)', check: check('pass') },
      { program: 'import os\nos.write(3, b"{\\"code\\": \\"exited\\", \\"message\\": \\"m\\"} {}\\n")\nos._exit(0)', check: check('pass') },
      // a forged first line: its outputs are not a list (none kept), and the real line then answers the first call
      { program: 'import os\nos.write(3, b"{\\"code\\": \\"ok\\", \\"outputs\\": 5}\\n")\ndef f(x):\n    return x', inputs: [], check: check('assert candidate(2) == 2') },
    ]);
    expect(runs.map((r) => [r.code, r.message, r.outputs, r.check])).toEqual([
      ['syntax-error', expect.stringMatching(/^SyntaxError: /), [], undefined],
      ['exited', 'the program ended its process (exit status 3)', [], undefined],
      ['killed-by-signal', "the program's process was killed by SIGKILL", [], undefined],
      ['timeout', expect.stringMatching(/^(time limit of 300 ms exceeded|the candidate timed out \(300 ms\))$/), [], undefined],
      ['runtime-error', 'the program wrote a malformed reply', [], undefined],
      ['runtime-error', 'the program wrote a malformed reply', [], undefined],
      ['exited', '', [], undefined],
      ['runtime-error', 'the program wrote a malformed reply', [], undefined],
      ['runtime-error', 'the program wrote a malformed reply', [], undefined],
      ['runtime-error', 'the program wrote a malformed reply', [], undefined],
      ['ok', undefined, [], { code: 'runtime-error', message: "the candidate's value is not a Python literal" }],
    ]);
  });
});
