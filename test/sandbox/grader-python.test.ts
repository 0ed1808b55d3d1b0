/**
 * What a Python program can make the grader say (issue 23): check() sees the builtins, the
 * task's helpers and the entry point only; every way a program ends early has its own code
 * (never sandbox-error); integers compare exactly, big ones included.
 */
import { createSandbox, pythonSandboxProblem, type Sandbox } from '../../src/sandbox';
import { DEFAULT_PYTHON_PATHS } from '../../src/sandbox/python-runner';
import { bigIntTag } from '../../src/core/exact-json';
import type { CodeRunRequest, CodeRunResult, CodeTestCase } from '../../src/core/sandbox';

let sb: Sandbox;
beforeAll(() => {
  expect(pythonSandboxProblem()).toBeNull();
  sb = createSandbox({ concurrency: 2 });
});
afterAll(() => sb.close());

const limits = { timeMs: 3000, memoryMb: 128 };
const py = (program: string, tests: CodeTestCase[] = [{ input: [1] }], extra: Partial<CodeRunRequest> = {}): Promise<CodeRunResult> =>
  sb.code.run({ language: 'python', program, entry: 'f', tests, limits, ...extra });
const codes = (r: CodeRunResult) => r.tests.map((t) => t.code);

describe("check()'s namespace: the builtins, the task's helpers and the entry point", () => {
  const helpers = 'import math\n\ndef poly(xs, x):\n    return sum(c * math.pow(x, i) for i, c in enumerate(xs))\n\ndef f(xs):\n    """the prompt\'s stub"""\n';
  // HumanEval's checks use the prompt's helpers (poly), builtins (abs, tuple) and the entry point by its own name
  const check = 'def check(candidate):\n    assert abs(poly([-2, 1], candidate([-2, 1]))) < 1e-6\n    assert tuple([candidate([-3, 1])]) == tuple([f([-3, 1])])\n    assert candidate([-3, 1]) == 3.0\n';
  const withCheck = (program: string) => py(program, [], { check, helpers });

  test("a right answer passes, with the prompt's helpers and the entry point called by its own name", async () => {
    expect(await withCheck('def f(xs):\n    return -xs[0] / xs[1]')).toMatchObject({ code: 'ok', passed: 1, total: 1 });
  });

  test.each([
    ['abs', 'def abs(x):\n    return 0'],
    ['poly', 'def poly(xs, x):\n    return 0'],
    ['tuple', 'tuple = lambda x: ()'],
    ['every helper at once, and __builtins__', 'abs = lambda x: 0\npoly = lambda xs, x: 0\ntuple = lambda x: ()\n__builtins__ = None'],
  ])('a wrong answer that redefines %s fails check()', async (_name, shadow) => {
    const r = await withCheck(`def f(xs):\n    return 0.0\n\n${shadow}\n`);
    expect(r.tests[0].code).toBe('wrong-answer');
    expect(r.passed).toBe(0);
  });

  test("a name only the program defines is not in check()'s namespace", async () => {
    const r = await py('def f(x):\n    return x\n\ndef secret():\n    return 1', [], { check: 'def check(candidate):\n    assert secret() == 1' });
    expect(r.tests[0]).toMatchObject({ code: 'runtime-error', message: expect.stringMatching(/NameError/) });
  });

  test('without helpers, check() still gets the builtins and the candidate', async () => {
    const r = await py('def f(x):\n    return -x', [], { check: 'def check(candidate):\n    assert abs(candidate(2)) == 2 and f(3) == -3' });
    expect(r.code).toBe('ok');
  });

  test('a check() that catches Exception cannot swallow a timeout or an exit of the candidate', async () => {
    const catching = 'def check(candidate):\n    try:\n        candidate(1)\n    except Exception:\n        pass\n';
    const loop = await py('def f(x):\n    while True:\n        pass', [], { check: catching, limits: { timeMs: 400, memoryMb: 128 } });
    expect(loop.tests[0].code).toBe('timeout');
    const exit = await py('import sys\ndef f(x):\n    sys.exit(0)', [], { check: catching });
    expect(exit.tests[0].code).toBe('exited');
    const raise = await py('def f(x):\n    raise ValueError("no")', [], { check: catching });
    expect(raise.tests[0].code).toBe('ok'); // an ordinary error is the check's to judge
  });
});

describe('every early end is the program\'s, with its own code', () => {
  const check = 'def check(candidate):\n    assert candidate(1) == 2';
  test.each([
    ['os._exit(0) before the tests', 'exited', 'import os\nos._exit(0)\ndef f(x):\n    return x + 1'],
    ['os._exit(3) in a test', 'exited', 'import os\ndef f(x):\n    os._exit(3)'],
    ['sys.exit() while loading', 'exited', 'import sys\nsys.exit()\ndef f(x):\n    return x + 1'],
    ['SIGKILL to itself', 'killed-by-signal', 'import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGKILL)'],
    ['SIGTERM to itself', 'killed-by-signal', 'import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGTERM)'],
  ])('%s is %s, alone and with a check', async (_what, code, program) => {
    const alone = await py(program, [{ input: [1], expected: 2 }]);
    expect(alone.code).toBe(code);
    const checked = await py(program, [{ input: [1], expected: 2 }], { check });
    expect(codes(checked)).toEqual([code, code]);
  });

  test('killing the harness from the candidate\'s process (os.kill(os.getppid(), 9)) is killed-by-signal', async () => {
    const r = await py('import os\ndef f(x):\n    os.kill(os.getppid(), 9)', [], { check });
    expect(codes(r)).toEqual(['killed-by-signal']);
  });

  test('sys.exit inside one test ends that test only; KeyboardInterrupt is a runtime error', async () => {
    const r = await py('import sys\ndef f(x):\n    if x == 0:\n        sys.exit(5)\n    if x == 1:\n        raise KeyboardInterrupt()\n    return x', [{ input: [0] }, { input: [1] }, { input: [2], expected: 2 }]);
    expect(codes(r)).toEqual(['exited', 'runtime-error', 'ok']);
    expect(r.tests[0].message).toMatch(/SystemExit: 5/);
  });

  test('an exception whose __str__ and __name__ lie does not break the harness', async () => {
    const r = await py(
      'class Meta(type):\n    @property\n    def __name__(cls):\n        raise RuntimeError()\nclass E(Exception, metaclass=Meta):\n    def __str__(self):\n        raise E()\ndef f(x):\n    if x:\n        raise E()\n    return 7',
      [{ input: [1] }, { input: [0], expected: 7 }],
    );
    expect(codes(r)).toEqual(['runtime-error', 'ok']);
  });

  test("a forged result line cannot pass the program's fault off as the sandbox's (sandbox-error, or too few outcomes)", async () => {
    // the harness's result line goes through json.dumps or (its trimmed form) _json.make_encoder: the program patches both
    const forge = (obj: object) => `import json, _json
_dumps = json.dumps
json.dumps = lambda o, **kw: _dumps(${JSON.stringify(obj)}) if isinstance(o, dict) and 'outputs' in o else _dumps(o, **kw)
_make = _json.make_encoder
def _forging(*a):
    encode = _make(*a)
    return lambda o, level: encode(${JSON.stringify(obj)} if isinstance(o, dict) and 'outputs' in o else o, level)
_json.make_encoder = _forging
def f(x):
    return x`;
    for (const obj of [{ code: 'ok', outputs: [] }, { code: 'sandbox-error', message: 'not me', outputs: [] }, { code: 'ok', outputs: [{ code: 'sandbox-error' }, { code: 'ok', text: '2' }] }]) {
      const r = await py(forge(obj), [{ input: [1], expected: 2 }, { input: [2], expected: 2 }]);
      expect(r).toMatchObject({ code: 'runtime-error', message: 'the program wrote a malformed result line' });
    }
    // the child of the check mode answering the harness with a code only the sandbox may use
    const child = await py('import os\nos.write(3, b\'{"code": "sandbox-error", "message": "not me"}\\n\')\nos._exit(0)\ndef f(x):\n    return x', [], { check });
    expect(child.tests[0]).toEqual({ code: 'runtime-error', message: 'the program wrote a malformed reply' });
  });

  test('the sandbox that never started its harness is a sandbox-error (our fault), not the program\'s', async () => {
    const broken = createSandbox({ concurrency: 1, python: { ...DEFAULT_PYTHON_PATHS, python: '/bin/false' } });
    try {
      const r = await broken.code.run({ language: 'python', program: 'def f(x):\n    return x', entry: 'f', tests: [{ input: [1] }] });
      expect(r).toMatchObject({ code: 'sandbox-error', message: expect.stringMatching(/did not start/) });
    } finally {
      await broken.close();
    }
  });
});

describe('integers compare exactly', () => {
  test('a+b+3 does not pass a test expecting 12345678902; a+b does', async () => {
    const tests = [{ input: [12345678900, 2], expected: 12345678902 }];
    expect((await py('def f(a, b):\n    return a + b + 3', tests)).tests[0]).toEqual({ code: 'wrong-answer', actual: 12345678905 });
    expect((await py('def f(a, b):\n    return a + b', tests)).code).toBe('ok');
    expect((await py('def f(a, b):\n    return float(a + b + 3)', tests)).code).toBe('wrong-answer');
  });

  test('big integers cross exactly both ways: an input tag arrives as an int, an int beyond 2^53 comes back as a tag', async () => {
    const p60 = 2n ** 60n;
    const tests = [{ input: [bigIntTag(p60 + 1n)], expected: bigIntTag(p60 + 2n) }];
    const right = await py('def f(x):\n    assert type(x) is int\n    return x + 1', tests);
    expect(right.tests[0]).toEqual({ code: 'ok', actual: bigIntTag(p60 + 2n) });
    const offByOne = await py('def f(x):\n    return x', tests);
    expect(offByOne.tests[0]).toEqual({ code: 'wrong-answer', actual: bigIntTag(p60 + 1n) });
    const asFloat = await py('def f(x):\n    return float(x + 1)', tests);
    expect(asFloat.code).toBe('wrong-answer');
  });

  test('a bool is not an int on the host (True against 1, 1 against true)', async () => {
    expect((await py('def f(x):\n    return True', [{ input: [1], expected: 1 }])).code).toBe('wrong-answer');
    expect((await py('def f(x):\n    return 1', [{ input: [1], expected: true }])).code).toBe('wrong-answer');
    expect((await py('def f(x):\n    return x == 1', [{ input: [1], expected: true }])).code).toBe('ok');
  });
});
