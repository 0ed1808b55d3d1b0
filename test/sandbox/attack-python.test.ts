/**
 * Attacks on the Python sandbox beyond the escape corpus (escape-python.test.ts). Each test
 * asserts the CONTAINED behaviour: a test that fails here is a weakness of the sandbox.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createSandbox, pythonSandboxProblem, type Sandbox } from '../../src/sandbox';
import { RUN_CODES, type CodeRunRequest, type CodeRunResult, type RunLimits } from '../../src/core/sandbox';
import { eventually, processesNamed } from './processes';

let sb: Sandbox;
beforeAll(() => {
  expect(pythonSandboxProblem()).toBeNull();
  sb = createSandbox({ concurrency: 2 });
});
afterAll(() => sb.close());

const py = (program: string, limits: RunLimits = { timeMs: 1500, memoryMb: 128 }, extra: Partial<CodeRunRequest> = {}): Promise<CodeRunResult> =>
  sb.code.run({ language: 'python', program, entry: 'f', tests: [{ input: [] }], limits, ...extra });

/** A wrong `inc` (returns x, not x + 1) against one JSON test and a HumanEval check. */
const wrongInc = (program: string): Promise<CodeRunResult> =>
  sb.code.run({
    language: 'python',
    program,
    entry: 'inc',
    tests: [{ input: [1], expected: 2 }],
    check: 'def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(5) == 6',
    limits: { timeMs: 1500, memoryMb: 128 },
  });

describe('Python sandbox attacks: forging the result line', () => {
  test('a program that walks the stack to the nonce, prints a forged line on fd 1 and exits is not judged passing', async () => {
    const r = await wrongInc(`import sys, os, json
def inc(x):
    fr = sys._getframe()
    while fr is not None and 'nonce' not in fr.f_locals:
        fr = fr.f_back
    n = len(fr.f_locals['data']['inputs'])
    os.write(1, (fr.f_locals['nonce'] + json.dumps({"code": "ok", "outputs": [{"code": "ok", "text": "2"}] * n, "check": {"code": "ok"}}) + "\\n").encode())
    os._exit(0)
    return x
`);
    expect(r.passed).toBe(0);
    expect(r.code).not.toBe('ok');
  });

  test('a program that finds the nonce with gc and writes through sys.__stdout__ is not judged passing', async () => {
    const r = await wrongInc(`import gc, sys, os, json
def inc(x):
    nonce = [o for o in gc.get_objects() if isinstance(o, dict) and isinstance(o.get('nonce'), str)][0]['nonce']
    sys.__stdout__.write(nonce + json.dumps({"code": "ok", "outputs": [{"code": "ok", "text": "2"}], "check": {"code": "ok"}}) + "\\n")
    sys.__stdout__.flush()
    os._exit(0)
`);
    expect(r.passed).toBe(0);
    expect(r.code).not.toBe('ok');
  });

  test('a program that replaces json.dumps (the harness prints its result with it) is not judged passing', async () => {
    const r = await wrongInc(`import json
_dumps = json.dumps
def _forge(obj, **kw):
    if isinstance(obj, dict) and 'outputs' in obj and 'code' in obj:
        obj = {"code": "ok", "outputs": [{"code": "ok", "text": "2"} for _ in obj['outputs']], "check": {"code": "ok"}}
    return _dumps(obj, **kw)
json.dumps = _forge
def inc(x):
    return x
`);
    // A program runs beside whatever reports its outputs, so it can always claim an output —
    // which is no more than returning it: the JSON test's expected value never entered the
    // sandbox, so claiming "2" for inc(1) means knowing the answer. What it must never do is
    // pass check(), whose asserts hold the expected values: check() runs in the harness.
    expect(r.tests[1].code).not.toBe('ok');
    expect(r.passed).toBeLessThanOrEqual(1);
    expect(r.code).not.toBe('ok');
  });

  test('a malformed result line never makes run() reject, and every code that comes back is a RunCode', async () => {
    const forge = (line: string) => `import json
_dumps = json.dumps
def _forge(obj, **kw):
    if isinstance(obj, dict) and 'outputs' in obj:
        return ${JSON.stringify(line)}
    return _dumps(obj, **kw)
json.dumps = _forge
def inc(x):
    return x
`;
    for (const line of ['null', '{"code": "pwned", "outputs": "xx", "message": {"a": 1}}', '{"code": "ok", "outputs": [{"code": "ok", "text": 5}], "check": {"code": "ok"}}']) {
      const r = await wrongInc(forge(line)); // a rejection fails this test
      expect(RUN_CODES).toContain(r.code);
      for (const t of r.tests) expect(RUN_CODES).toContain(t.code);
      if (r.message !== undefined) expect(typeof r.message).toBe('string');
      expect(r.passed).toBe(0);
    }
  });
});

describe('Python sandbox attacks: making comparisons pass', () => {
  test('an integer too large for a double (10**400) does not equal every expected number', async () => {
    const r = await sb.code.run({
      language: 'python',
      program: 'def f(a, b):\n    return 10 ** 400',
      entry: 'f',
      tests: [{ input: [1, 2], expected: 3 }, { input: [0, -7], expected: -7.5 }],
    });
    expect(r.passed).toBe(0);
    expect(r.code).not.toBe('ok');
    const neg = await sb.code.run({ language: 'python', program: 'def f(xs):\n    return [-10 ** 400] * len(xs)', entry: 'f', tests: [{ input: [[3, 1, 2]], expected: [1, 2, 3] }] });
    expect(neg.passed).toBe(0);
  });

  test('an object whose __eq__ is always true does not pass check()', async () => {
    const r = await wrongInc(`class Anything:
    def __eq__(self, other):
        return True
    __hash__ = object.__hash__
def inc(x):
    return Anything()
`);
    expect(r.tests[1].code).not.toBe('ok'); // the check
    expect(r.passed).toBe(0);
  });

  test('an int subclass with a lying __eq__ passes neither the JSON test nor check() (check: a weakness; JSON: contained)', async () => {
    const r = await wrongInc(`class Liar(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__
def inc(x):
    return Liar(x)
`);
    expect(r.tests[0]).toEqual({ code: 'wrong-answer', actual: 1 }); // compared on the host as JSON
    expect(r.tests[1].code).not.toBe('ok');
  });
});

describe('Python sandbox attacks: what the sandbox can see of the host', () => {
  test("the host's environment is not readable from /proc/<pid>/environ (bwrap's pid 1 inherits it)", async () => {
    // names only: every variable any process in the sandbox holds must be one the sandbox sets
    const r = await py(`import os
def f():
    names = set()
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                for entry in open('/proc/%s/environ' % p, 'rb').read().split(b'\\0'):
                    if entry:
                        names.add(entry.split(b'=')[0].decode('latin1'))
            except OSError:
                pass
    return sorted(names)`);
    expect(r.code).toBe('ok');
    const names = r.tests[0].actual as string[];
    expect(names).toContain('PYTHONDONTWRITEBYTECODE'); // the program's own environment was read
    expect(names.filter((n) => !['PWD', 'LC_CTYPE', 'PYTHONDONTWRITEBYTECODE'].includes(n))).toEqual([]);
  });

  test("no file descriptor of the host (one it inherited without close-on-exec) is open in the sandbox", async () => {
    // a host started with an extra inherited descriptor (fd 200, as a shell or supervisor may leave one)
    const root = join(__dirname, '..', '..');
    const child = `
      const fs = require('fs'); const ts = require('typescript');
      require.extensions['.ts'] = (m, file) => m._compile(ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText, file);
      const { runPythonBatch } = require(${JSON.stringify(join(root, 'src/sandbox/python-runner.ts'))});
      const program = "import os\\ndef f():\\n    fds = []\\n    for fd in range(3, 1024):\\n        try:\\n            os.fstat(fd)\\n            fds.append(fd)\\n        except OSError:\\n            pass\\n    return fds";
      runPythonBatch({ program, entry: 'f', inputs: [[]], limits: { timeMs: 2000, memoryMb: 128, outputBytes: 100000 } }).then((r) => process.stdout.write(JSON.stringify(r)));
    `;
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn('/bin/bash', ['-c', 'exec 200</dev/null; exec "$0" -e "$1"', process.execPath, child], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let s = '';
      p.stdout.setEncoding('utf8').on('data', (d: string) => (s += d));
      p.on('error', reject);
      p.on('close', () => resolve(s));
    });
    const raw = JSON.parse(out) as { code: string; outputs: { code: string; text?: string }[] };
    expect(raw.code).toBe('ok');
    expect(raw.outputs[0].code).toBe('ok');
    expect(JSON.parse(raw.outputs[0].text!)).toEqual([]);
  });

  test('/tmp (and /, /dev) are not an unbounded store: 1 GB of files in a 64 MB run is refused', async () => {
    const r = await py(
      `def f():
    b = b'x' * (1 << 20)
    for i in range(1024):
        with open('/tmp/f%d' % i, 'wb') as fh:
            fh.write(b)
    return 1024`,
      { timeMs: 10_000, memoryMb: 64 },
    );
    expect(r.tests[0].actual).toBeUndefined(); // 1024 (MB written) is the bypass
    expect(r.code).not.toBe('ok');
  });
});

describe('Python sandbox attacks: the host\'s resources', () => {
  test('500 MB written straight to fd 2 ends as output-limit, as it does on fd 1', async () => {
    const r = await sb.code.run({
      language: 'python',
      program: `import os\ndef f():\n    b = b'x' * (1 << 20)\n    for _ in range(500):\n        os.write(2, b)\n    return 1`,
      entry: 'f',
      tests: [{ input: [], expected: 1 }],
      limits: { timeMs: 20_000, memoryMb: 128, outputBytes: 1000 },
    });
    expect(r.code).toBe('output-limit');
  });

  test('many tests of large outputs are bounded as a whole (contained)', async () => {
    const tests = Array.from({ length: 60 }, (_, i) => ({ input: [i] }));
    const r = await sb.code.run({ language: 'python', program: `def f(i):\n    return 'x' * 999990 + str(i)`, entry: 'f', tests, limits: { timeMs: 5000, memoryMb: 256 } });
    expect(r.code).toBe('output-limit');
  });

  test('an output nested 5,000 deep stays serializable on the host (the result is recorded as an event)', async () => {
    const r = await py(`import sys\nsys.setrecursionlimit(100000)\ndef f():\n    a = []\n    for i in range(5000):\n        a = [a]\n    return a`, { timeMs: 5000, memoryMb: 128 });
    let serializable = true;
    try {
      JSON.stringify({ type: 'effect-result', data: { runs: [r] } });
    } catch {
      serializable = false;
    }
    expect(serializable).toBe(true);
  });

  test('a daemon (setsid + double fork) does not outlive its sandbox (contained)', async () => {
    const marker = `atk${randomBytes(5).toString('hex')}`;
    const r = await py(`import os, time
def f():
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            open('/proc/self/comm', 'w').write(${JSON.stringify(marker)})
            os.write(w, b'1')
            while True:
                time.sleep(0.05)
        os._exit(0)
    return os.read(r, 1).decode()`);
    expect(r.tests[0]).toEqual({ code: 'ok', actual: '1' }); // the daemon started
    expect(await eventually(() => processesNamed(marker).length === 0, 10_000)).toBe(true);
  });

  test('a program that swallows the timer does not keep running after the wall kill (contained)', async () => {
    const marker = `atk${randomBytes(5).toString('hex')}`;
    const seen = { live: false };
    const pending = py(
      `def f():
    open('/proc/self/comm', 'w').write(${JSON.stringify(marker)})
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass`,
      { timeMs: 300, memoryMb: 128 },
    );
    // control: the scan sees the sandboxed process while it runs
    seen.live = await eventually(() => processesNamed(marker).length > 0, 3000);
    const r = await pending;
    expect(seen.live).toBe(true);
    expect(r.code).toBe('timeout');
    expect(await eventually(() => processesNamed(marker).length === 0, 10_000)).toBe(true);
  });

  test("a crash of the program's own process is the program's error, not the sandbox's", async () => {
    const segv = await py(`import ctypes\ndef f():\n    return ctypes.string_at(0)`);
    expect(segv.code).toBe('runtime-error');
    const abort = await py(`import os\ndef f():\n    os.abort()`);
    expect(abort.code).toBe('runtime-error');
  });
});
