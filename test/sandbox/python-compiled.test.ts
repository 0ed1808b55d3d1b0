/**
 * The harness compiled once per Python (src/sandbox/python-compiled.ts): the compile runs in the
 * sandbox and yields marshal bytes the loader runs as the source would run; the loader refuses
 * bytes of another Python and bytes cut short (before any harness code, so the run is the
 * sandbox's failure), and a failed compile is not kept.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnFiltered } from '../../src/sandbox/seccomp';
import { compiledPython, forgetCompiled, parseCompiled, pythonLoader, type CompiledCode } from '../../src/sandbox/python-compiled';
import { DEFAULT_PYTHON_PATHS, pythonCommand, pythonSandboxProblem, pythonSpawnIds, runPythonBatch } from '../../src/sandbox/python-runner';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

/** Runs `code` in the sandbox with `stdin`; answers its exit status, stdout and stderr. */
function sandboxed(code: string, stdin: Buffer): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawnFiltered(pythonCommand(DEFAULT_PYTHON_PATHS, code), { stdio: ['pipe', 'pipe', 'pipe'], env: {}, ...pythonSpawnIds() }) as ChildProcessWithoutNullStreams;
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdin.on('error', () => undefined);
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end(stdin);
  });
}

const SOURCE = 'import sys\nsys.stdout.write("ran %s" % sys.stdin.readline().strip())\n';
let compiled: CompiledCode;
beforeAll(async () => {
  const c = await compiledPython('test-python-compiled', SOURCE, pythonCommand(DEFAULT_PYTHON_PATHS), { env: {}, ...pythonSpawnIds() });
  expect(c).not.toBeNull();
  compiled = c!;
});

describe('compiled once, run as the source would', () => {
  test('the loader reads exactly the bytes and leaves the rest of stdin to the code', async () => {
    const r = await sandboxed(pythonLoader(compiled), Buffer.concat([compiled.bytes, Buffer.from('request\n')]));
    expect(r).toMatchObject({ status: 0, out: 'ran request' });
  });

  test('the same key answers the same bytes without compiling again', async () => {
    const again = compiledPython('test-python-compiled', 'raise SystemExit(9)', pythonCommand(DEFAULT_PYTHON_PATHS), {});
    expect(await again).toBe(compiled);
  });

  test('bytes of another Python are refused before they run', async () => {
    const r = await sandboxed(pythonLoader({ ...compiled, hexversion: 1 }), Buffer.concat([compiled.bytes, Buffer.from('request\n')]));
    expect(r.status).not.toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/compiled by another Python/);
  });

  test('bytes cut short are refused, not loaded', async () => {
    const r = await sandboxed(pythonLoader(compiled), compiled.bytes.subarray(0, 10));
    expect(r.status).not.toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/cut short/);
  });

  test('a compile that fails (no Python at that path) answers null and is not kept', async () => {
    const broken = pythonCommand({ ...DEFAULT_PYTHON_PATHS, python: '/usr/bin/no-such-python' });
    expect(await compiledPython('test-broken', SOURCE, broken, { env: {}, ...pythonSpawnIds() })).toBeNull();
    const fixed = await compiledPython('test-broken', SOURCE, pythonCommand(DEFAULT_PYTHON_PATHS), { env: {}, ...pythonSpawnIds() });
    expect(fixed).not.toBeNull();
  });

  test('parseCompiled takes a version line and bytes, nothing else', () => {
    expect(parseCompiled(Buffer.from('51056880\nxyz'))).toEqual({ bytes: Buffer.from('xyz'), hexversion: 51056880 });
    expect(parseCompiled(Buffer.from('51056880\n'))).toBeNull();
    expect(parseCompiled(Buffer.from('3.11\nxyz'))).toBeNull();
    expect(parseCompiled(Buffer.from('\nxyz'))).toBeNull();
    expect(parseCompiled(Buffer.from('51056880'))).toBeNull();
    expect(parseCompiled(Buffer.from(`${'1'.repeat(30)}\nxyz`))).toBeNull();
    expect(parseCompiled(Buffer.from(`${'1'.repeat(21)}\nxyz`))).toBeNull();
    expect(parseCompiled(Buffer.from(`${'1'.repeat(20)}\nxyz`))).toEqual({ bytes: Buffer.from('xyz'), hexversion: Number('1'.repeat(20)) }); // a version line of up to 20 characters
  });

  test("compiled code that never says ready fails its run as the sandbox's, and is compiled again for the next", async () => {
    const paths = DEFAULT_PYTHON_PATHS;
    const key = `${paths.bwrap}\0${paths.python}`; // runPythonBatch's key: seed it with code that is no harness
    expect(await compiledPython(key, 'raise SystemExit(3)', pythonCommand(paths), { env: {}, ...pythonSpawnIds() })).not.toBeNull();
    const limits = { timeMs: 2000, memoryMb: 128, outputBytes: 1000 };
    const first = await runPythonBatch({ program: 'def f(x):\n    return x', entry: 'f', inputs: [[1]], limits });
    expect(first.code).toBe('sandbox-error');
    const second = await runPythonBatch({ program: 'def f(x):\n    return x', entry: 'f', inputs: [[1]], limits });
    expect(second).toMatchObject({ code: 'ok', outputs: [{ code: 'ok', text: '1' }] });
  });

  test('runPythonBatch runs the compiled harness: a program gets its answer', async () => {
    const r = await runPythonBatch({ program: 'def f(x):\n    return x * 2', entry: 'f', inputs: [[21]], limits: { timeMs: 2000, memoryMb: 128, outputBytes: 1000 } });
    expect(r).toMatchObject({ code: 'ok', outputs: [{ code: 'ok', text: '42' }] });
  });
});

/**
 * Compile commands that are no sandbox (bash, never Python): the last argument, where the `-c`
 * code goes, is replaced by the compile code and reaches bash as `$0`, unused.
 */
describe('what a compile run answers is taken only from a clean exit', () => {
  const bash = (script: string): string[] => ['/bin/bash', '-c', script, 'replaced'];

  test('a compile command that cannot be spawned answers null (and is not kept)', async () => {
    expect(await compiledPython('test-unspawnable', SOURCE, ['/nonexistent/bwrap', '-c', 'x'], {})).toBeNull();
    expect(await compiledPython('test-unspawnable', SOURCE, bash(`printf '7\\nxyz'`), {})).toEqual({ bytes: Buffer.from('xyz'), hexversion: 7 });
  });

  test('a compile run that fails is not taken, even when what it wrote reads as compiled code', async () => {
    expect(await compiledPython('test-failed-exit', SOURCE, bash(`printf '7\\nxyz'; exit 1`), {})).toBeNull();
  });

  test("the compile run is spawned with the caller's options (runPythonBatch's: the sandbox uid, an empty environment; here an environment), and its stderr is not kept (a compile that writes much there never blocks)", async () => {
    expect(await compiledPython('test-options', SOURCE, bash(`printf '%s\\nxyz' "$V"`), { env: { V: '8' } })).toEqual({ bytes: Buffer.from('xyz'), hexversion: 8 });
    expect(await compiledPython('test-stderr', SOURCE, bash(`head -c 200000 /dev/zero >&2; printf '9\\nxyz'`), {})).toEqual({ bytes: Buffer.from('xyz'), hexversion: 9 });
  });

  test('a compile run that ends without reading its source answers null (the source cannot be written: no crash of the host)', async () => {
    expect(await compiledPython('test-unread', 'x'.repeat(1 << 20), bash('exit 0'), {})).toBeNull();
  });

  test('a failed compile that was forgotten and replaced meanwhile leaves its replacement in place', async () => {
    const key = 'test-replaced';
    const failing = compiledPython(key, SOURCE, bash('sleep 0.3; exit 1'), {});
    forgetCompiled(key);
    const replacement = compiledPython(key, SOURCE, bash(`printf '7\\nxyz'`), {});
    expect(await failing).toBeNull();
    expect(await replacement).not.toBeNull();
    expect(compiledPython(key, SOURCE, bash('exit 1'), {})).toBe(replacement);
  });
});
