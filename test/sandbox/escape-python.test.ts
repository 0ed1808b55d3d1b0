/**
 * The Python escape corpus: every attempt stays inside the bubblewrap sandbox (no host file,
 * process, socket or clock is reached), the host stays up, and the result code is the right one.
 * Run in every `pythonMode`: a bubblewrap sandbox per program, a fresh interpreter per program
 * from the slot's launcher, and through the fork server.
 */
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createSandbox, pythonSandboxProblem, type PythonMode, type Sandbox } from '../../src/sandbox';
import type { CodeRunResult, RunLimits } from '../../src/core/sandbox';

let server: Server;
let connections = 0;
let port = 0;
beforeAll(async () => {
  expect(pythonSandboxProblem()).toBeNull(); // CI installs bubblewrap + python3 (.ci/run)
  server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe.each([
  ['a fresh sandbox per program', 'fresh-sandbox'],
  ["a fresh interpreter per program from the slot's launcher", 'launcher'],
  ['the fork server', 'fork-server'],
] as const)('Python escape corpus, %s', (_how, pythonMode: PythonMode) => {
let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 2, pythonMode });
});
afterAll(() => sb.close());

const py = (program: string, limits: RunLimits = { timeMs: 1500, memoryMb: 128 }, expected?: unknown): Promise<CodeRunResult> =>
  sb.code.run({ language: 'python', program, entry: 'f', tests: [{ input: [], ...(expected !== undefined ? { expected: expected as never } : {}) }], limits });

  test('read /etc/passwd: no such file in the sandbox', async () => {
    const r = await py(`def f():\n    return open('/etc/passwd').read()`);
    expect(r.code).toBe('runtime-error');
    expect(r.message).toMatch(/FileNotFoundError/);
  });

  test("read the project's files: not mounted", async () => {
    const r = await py(`def f():\n    return open(${JSON.stringify(`${process.cwd()}/package.json`)}).read()`);
    expect(r.code).toBe('runtime-error');
    expect(r.message).toMatch(/FileNotFoundError/);
  });

  test('write outside the sandbox: nothing is writable (a tmpfs would be an unbounded store in RAM)', async () => {
    const ro = await py(`def f():\n    open('/usr/escaped', 'w').write('x')`);
    expect(ro.code).toBe('runtime-error');
    expect(ro.message).toMatch(/Read-only file system|Permission denied/);
    const marker = `/tmp/arena-escape-${process.pid}-${Date.now()}`;
    const tmp = await py(`def f():\n    open(${JSON.stringify(marker)}, 'w').write('x')\n    return 1`, undefined, 1);
    expect(tmp.code).toBe('runtime-error');
    expect(tmp.message).toMatch(/Read-only file system|No such file/);
    expect(existsSync(marker)).toBe(false);
  });

  test('spawn a process: it runs inside the sandbox and sees only the sandbox', async () => {
    const r = await py(`import subprocess\ndef f():\n    return sorted(subprocess.run(['/usr/bin/ls', '/'], capture_output=True, text=True).stdout.split())`);
    expect(r.code).toBe('ok');
    const root = r.tests[0].actual as string[];
    expect(root).toEqual(expect.arrayContaining(['usr', 'proc', 'dev']));
    expect(root).not.toContain('work');
    expect(root).not.toContain('etc');
    expect(root).not.toContain('root');
  });

  test('open a socket to 127.0.0.1: no network at all', async () => {
    const r = await py(`import socket\ndef f():\n    s = socket.create_connection(('127.0.0.1', ${port}), timeout=1)\n    return 'connected'`);
    expect(r.code).toBe('runtime-error');
    expect(connections).toBe(0);
  });

  test('infinite loop: timeout', async () => {
    const r = await py(`def f():\n    while True:\n        pass`);
    expect(r.code).toBe('timeout');
  });

  test('an infinite loop that swallows the timer: still a timeout (CPU limit and wall clock)', async () => {
    const r = await py(`def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass`, { timeMs: 500, memoryMb: 128 });
    expect(r.code).toBe('timeout');
  });

  test('memory bomb: memory-limit', async () => {
    const r = await py(`def f():\n    a = []\n    while True:\n        a.append(bytearray(10 * 1024 * 1024))`, { timeMs: 10_000, memoryMb: 128 });
    // the time limit is generous (10 s, not 1.5 s): the memory limit must end the run, and at
    // load 13-19 zero-filling 128 MB took the bomb past 1.5 s (a timeout instead, 2026-12-03)
    expect(r.code).toBe('memory-limit');
  });

  test('fork bomb: stopped by the process limit, the host unaffected', async () => {
    const r = await py(`import os\ndef f():\n    n = 0\n    while True:\n        os.fork()\n        n += 1`, { timeMs: 1500, memoryMb: 128 });
    expect(['runtime-error', 'timeout']).toContain(r.code);
    const after = await py(`def f():\n    return 7`, undefined, 7);
    expect(after.code).toBe('ok');
  });

  test('100 MB of output: output-limit (printed, or written to the descriptor)', async () => {
    const printed = await py(`def f():\n    for _ in range(100 * 1024):\n        print('x' * 1024)`);
    expect(printed.code).toBe('output-limit');
    const raw = await py(`import os\ndef f():\n    for _ in range(100):\n        os.write(1, b'x' * (1024 * 1024))`, { timeMs: 5000, memoryMb: 128, outputBytes: 100_000 });
    expect(raw.code).toBe('output-limit');
  });

  test('deep recursion: runtime-error', async () => {
    const r = await py(`def f(n=0):\n    return f(n + 1) + 1`);
    expect(r.code).toBe('runtime-error');
    expect(r.message).toMatch(/RecursionError/);
  });

  test('syntax errors and missing functions are named', async () => {
    expect((await py(`def f(:\n    pass`)).code).toBe('syntax-error');
    const none = await py(`x = 1`);
    expect(none.code).toBe('runtime-error');
    expect(none.message).toMatch(/defines no function 'f'/);
  });

  test("none of the host's environment, an unprivileged user", async () => {
    const r = await py(`import os\ndef f():\n    return [sorted(os.environ), os.getuid()]`);
    expect(r.code).toBe('ok');
    const [names, uid] = r.tests[0].actual as [string[], number];
    // only what bwrap (PWD), Python's locale coercion (LC_CTYPE) and the harness set
    expect(names.filter((n) => !['PWD', 'LC_CTYPE', 'PYTHONDONTWRITEBYTECODE'].includes(n))).toEqual([]);
    expect(names).not.toContain('PATH');
    expect(uid).not.toBe(0);
  });

  test('batch mode: one program against many tests in one sandbox, outputs compared on the host', async () => {
    const r = await sb.code.run({
      language: 'python',
      program: `def add(a, b):\n    return a + b if a < 100 else 0`,
      entry: 'add',
      tests: Array.from({ length: 200 }, (_, i) => ({ input: [i, 1], expected: i + 1 })),
    });
    expect(r.total).toBe(200);
    expect(r.passed).toBe(100);
    expect(r.code).toBe('wrong-answer');
    expect(r.tests[150]).toEqual({ code: 'wrong-answer', actual: 0 });
  });

  test('each test gets fresh arguments: a call that mutates its input cannot change the next test', async () => {
    const r = await sb.code.run({ language: 'python', program: 'def grow(xs):\n    xs.append(1)\n    return len(xs)', entry: 'grow', tests: [{ input: [[0]], expected: 2 }, { input: [[0]], expected: 2 }] });
    expect(r).toMatchObject({ code: 'ok', passed: 2 });
  });

  test("HumanEval's check(candidate) runs as one more test", async () => {
    const ok = await sb.code.run({ language: 'python', program: 'def inc(x):\n    return x + 1', entry: 'inc', tests: [], check: 'def check(candidate):\n    assert candidate(1) == 2' });
    expect(ok).toMatchObject({ code: 'ok', passed: 1, total: 1 });
    const bad = await sb.code.run({ language: 'python', program: 'def inc(x):\n    return x', entry: 'inc', tests: [], check: 'def check(candidate):\n    assert candidate(1) == 2' });
    expect(bad).toMatchObject({ code: 'wrong-answer', passed: 0, total: 1 });
  });
});
