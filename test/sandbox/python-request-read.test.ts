/**
 * How the Python harness reads its request (`_request` in src/sandbox/python-harness.ts): with
 * `posix.read` until both lines (the JSON request, the nonce) are in, however the host's writes
 * are split, and no further (a fork server's program process shares a stdin the host keeps open);
 * a stdin that ends before that ends the read instead of waiting or spinning. After the request
 * the program's stdin is empty (/dev/null), even while the host's end stays open. The harness runs in
 * the sandbox as a fresh run does, with its stdin written here piece by piece. (Found by
 * stryker/python-mutants.cjs: the read stopping at the first newline, or going on past EOF, left
 * every other test passing: the host writes both lines at once.)
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { DEFAULT_PYTHON_PATHS, pythonCommand, pythonRequest, pythonSandboxProblem, pythonSpawnIds } from '../../src/sandbox/python-runner';
import { spawnFiltered } from '../../src/sandbox/seccomp';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

/** The harness in the sandbox; `feed` writes its stdin. Answers its exit status and stdout (a harness still running after 30 s is killed: status null). */
function harness(feed: (child: ChildProcessWithoutNullStreams) => Promise<void>): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawnFiltered(pythonCommand(DEFAULT_PYTHON_PATHS), { stdio: ['pipe', 'pipe', 'pipe'], env: {}, ...pythonSpawnIds() }) as ChildProcessWithoutNullStreams;
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stdin.on('error', () => undefined);
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000); // a hang fails the expectations below, not a timing
    child.on('close', (status) => {
      clearTimeout(guard);
      resolve({ status, out });
    });
    void feed(child);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const request = () => pythonRequest({ program: 'import sys\ndef f(x):\n    return [x + 1, sys.stdin.read()]', entry: 'f', inputs: [[1]], limits: { timeMs: 2000, memoryMb: 128, outputBytes: 100 } });

test('the request line and the nonce line written apart, stdin left open: both are read, nothing more is waited for, the program reads an empty stdin', async () => {
  const { text, nonce } = request();
  const [line] = text.split('\n');
  const r = await harness(async (child) => {
    child.stdin.write(`${line}\n`);
    await pause(500); // the harness has read the first line by itself by now (when it has not, both come in one read)
    child.stdin.write(`${nonce}\n`); // stdin stays open until the harness ends
  });
  expect(r.status).toBe(0);
  expect(r.out).toBe(`${nonce}ready\n${nonce}{"code": "ok", "outputs": [{"code": "ok", "text": "[2, \\"\\"]"}]}\n`);
});

test('stdin ending before the request is in ends the harness (no program runs)', async () => {
  const { text } = request();
  const r = await harness(async (child) => {
    child.stdin.end(text.slice(0, 20));
  });
  expect(r.status).toBe(1); // the request cut short is not JSON: the harness fails before it says ready
  expect(r.out).toBe('');
});
