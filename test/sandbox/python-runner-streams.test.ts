/**
 * The fresh Python sandbox's host-side guards (src/sandbox/python-runner.ts, `runPythonBatch`'s
 * stream and kill handlers): what the harness cannot bound, because the program goes around it,
 * the host does — a program that ignores the harness's per-test timer is killed at the run's wall
 * clock (a `timeout`), one that writes to its file descriptors directly is killed past the output
 * cap, stdout or stderr (an `output-limit`), a run aborted while it runs is killed at once
 * (`cancelled`), stderr's last line explains an early exit, and a sandbox program that cannot be
 * started is a sandbox error. (Found by a Stryker run of these lines: no test reached them.)
 */
import { getEventListeners } from 'node:events';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox';
import { DEFAULT_PYTHON_PATHS, preparedHarness, runPythonBatch, pythonSandboxProblem, tail } from '../../src/sandbox/python-runner';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

/** One test of 300 ms: a wall clock of 300 * (1 + 2) + 3000 = 3,900 ms. */
const limits = { timeMs: 300, memoryMb: 128, outputBytes: 100 };
const run = (program: string, signal?: AbortSignal) => runPythonBatch({ program, entry: 'f', inputs: [[]], limits, signal });

/** Sleeps for a minute with the harness's per-test timer (SIGALRM) ignored. */
const DEAF = `import signal, time
def f():
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    time.sleep(60)`;

test("a program that ignores the harness's timer is killed at the run's wall clock: a timeout", async () => {
  const started = Date.now();
  const r = await run(DEAF);
  expect(r).toEqual({ code: 'timeout', message: 'the program ran past its time budget (300 ms per test)', outputs: [] });
  expect(Date.now() - started).toBeLessThan(30_000); // not the minute it asked for
});

test('a run aborted while its program runs is killed at once and answered cancelled', async () => {
  const ac = new AbortController();
  const r = run(DEAF, ac.signal);
  setTimeout(() => ac.abort(), 1500); // well after the start, before the 3.9 s wall clock
  expect(await r).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
});

test('output written around the harness past the cap (twice outputBytes + 1 MB), to stdout or to stderr, is an output-limit', async () => {
  const [out, err] = await Promise.all(
    [1, 2].map((fd) =>
      run(`import os, time
def f():
    chunk = b'x' * 65536
    for _ in range(40):
        os.write(${fd}, chunk)
    time.sleep(60)`),
    ),
  );
  for (const r of [out, err]) expect(r).toEqual({ code: 'output-limit', message: 'the program wrote more output than allowed', outputs: [] });
});

test("an early exit is explained by stderr's last line, and by nothing when stderr is empty", async () => {
  const [said, silent] = await Promise.all([
    run(`import os
def f():
    os.write(2, b'first line\\nthe reason it ended\\n')
    os._exit(7)`),
    run(`import os
def f():
    os._exit(7)`),
  ]);
  expect(said).toEqual({ code: 'exited', message: "the program ended the sandbox's process (exit status 7) before its results were written: the reason it ended", outputs: [] });
  expect(silent).toEqual({ code: 'exited', message: "the program ended the sandbox's process (exit status 7) before its results were written", outputs: [] });
});

test('a sandbox program that exists but cannot be started is a sandbox error naming why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyrun-'));
  const bwrap = join(dir, 'bwrap');
  writeFileSync(bwrap, 'not a program');
  chmodSync(bwrap, 0o644);
  const ac = new AbortController();
  const r = await runPythonBatch({ program: 'def f():\n    return 1', entry: 'f', inputs: [[]], limits, paths: { ...DEFAULT_PYTHON_PATHS, bwrap }, signal: ac.signal });
  expect(r).toEqual({ code: 'sandbox-error', message: expect.stringMatching(/^cannot start the Python sandbox: spawn .*EACCES/), outputs: [] });
  expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0); // the run is over: nothing of it stays on the signal
});

test("a run's abort listener is removed when it ends (a signal may outlive many runs)", async () => {
  const ac = new AbortController();
  expect(await runPythonBatch({ program: 'def f():\n    return 1', entry: 'f', inputs: [[]], limits, signal: ac.signal })).toMatchObject({ code: 'ok' });
  expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
});

test("stderr's last line, after more than the 64 KiB kept of it, still explains an early exit, in every Python mode", async () => {
  const program = `import os
def f():
    for i in range(1200):
        os.write(2, b'noise line %04d ' % i + b'.' * 48 + b'\\n')
    os.write(2, b'the reason it ended\\n')
    os._exit(7)`;
  const modes = ['fresh-sandbox', 'launcher', 'fork-server'] as const;
  const sandboxes = modes.map((pythonMode) => createSandbox({ concurrency: 1, pythonMode }));
  try {
    for (const [i, sb] of sandboxes.entries()) {
      const r = await sb.code.run({ language: 'python', program, entry: 'f', tests: [{ input: [] }], limits: { timeMs: 5000, outputBytes: 100_000 } });
      expect([modes[i], r.code, r.message]).toEqual([modes[i], 'exited', "the program ended the sandbox's process (exit status 7) before its results were written: the reason it ended"]);
    }
  } finally {
    await Promise.all(sandboxes.map((sb) => sb.close()));
  }
}, 60_000);

test('what is kept of stderr is its last 64 KiB, whole when shorter', () => {
  expect(tail('short\n')).toBe('short\n');
  const long = `${'a'.repeat(70_000)}the end`;
  expect(tail(long)).toBe(long.slice(-65_536));
  expect(tail(long).length).toBe(65_536);
  expect(tail('b'.repeat(65_536))).toBe('b'.repeat(65_536));
});

/** The host's cap on each stream of a fresh sandbox (python-runner.ts, `pythonRequest`): twice outputBytes + 1 MB. */
const CAP = limits.outputBytes * 2 + 1_000_000;
/** The harness's own line before any program code runs: the nonce (`@@arena-` + 16 hex + `@@`) and `ready`. */
const READY_LINE = '@@arena-0123456789abcdef@@ready\n'.length;

/** Writes `n` bytes to descriptor `fd` around the harness, then ends its process. */
const writeThenExit = (fd: 1 | 2, n: number) => `import os
def f():
    data = b'y' * ${n}
    while data:
        data = data[os.write(${fd}, data):]
    os._exit(7)`;

test("each stream's cap is exact: the cap itself is the program's own end, one character more is an output-limit", async () => {
  const exited = "the program ended the sandbox's process (exit status 7) before its results were written";
  const [outAt, outOver, errAt, errOver] = await Promise.all([
    run(writeThenExit(1, CAP - READY_LINE)),
    run(writeThenExit(1, CAP - READY_LINE + 1)),
    run(writeThenExit(2, CAP)),
    run(writeThenExit(2, CAP + 1)),
  ]);
  expect(outAt).toEqual({ code: 'exited', message: exited, outputs: [] });
  expect(outOver).toEqual({ code: 'output-limit', message: 'the program wrote more output than allowed', outputs: [] });
  expect(errAt).toEqual({ code: 'exited', message: `${exited}: ${'y'.repeat(297)}...`, outputs: [] });
  expect(errOver).toEqual({ code: 'output-limit', message: 'the program wrote more output than allowed', outputs: [] });
}, 60_000);

test('a sandbox that closes its stdin without reading its request is a sandbox error, not a crash of the host (EPIPE)', async () => {
  // in place of bwrap: closes its stdin, then lives on a while, so writing the 2 MB request fails with EPIPE
  const dir = mkdtempSync(join(tmpdir(), 'pyrun-'));
  chmodSync(dir, 0o755); // the sandbox runs as an unprivileged uid
  const bwrap = join(dir, 'bwrap');
  writeFileSync(bwrap, '#!/bin/sh\nexec 0<&-\nsleep 1\necho gave up >&2\nexit 3\n');
  chmodSync(bwrap, 0o755);
  const program = `def f():\n    return 1\n# ${'z'.repeat(2_000_000)}`;
  const r = await runPythonBatch({ program, entry: 'f', inputs: [[]], limits, paths: { ...DEFAULT_PYTHON_PATHS, bwrap } });
  expect(r).toEqual({ code: 'sandbox-error', message: 'the Python sandbox did not start: gave up', outputs: [] });
});

test('a sandbox that never says "ready" is still stopped at its wall clock (a stop before "ready" waits for it, but not this one)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyrun-'));
  chmodSync(dir, 0o755);
  const bwrap = join(dir, 'bwrap');
  // the harness's compile fails at once (the source harness is used); the run itself hangs
  writeFileSync(bwrap, '#!/bin/sh\ncase "$*" in *marshal.dumps*) exit 1;; esac\nexec sleep 120\n');
  chmodSync(bwrap, 0o755);
  const r = await runPythonBatch({ program: 'def f():\n    return 1', entry: 'f', inputs: [[]], limits, paths: { ...DEFAULT_PYTHON_PATHS, bwrap } });
  expect(r).toEqual({ code: 'sandbox-error', message: 'the Python sandbox did not start: exit status null, SIGKILL', outputs: [] });
}, 30_000);

test('the compiled harness is kept after a run that said "ready", finished or aborted', async () => {
  const prefix = async () => (await preparedHarness(DEFAULT_PYTHON_PATHS)).prefix;
  const before = await prefix();
  expect(before.length).toBeGreaterThan(0); // compiled, not the source fallback
  expect(await run('def f():\n    return 1')).toMatchObject({ code: 'ok' });
  expect(await prefix()).toBe(before);
  // aborted as soon as the sandbox is spawned (an immediate runs after the spawn's microtasks), before it says "ready"
  const ac = new AbortController();
  // a wall clock of a minute: only the abort can end this run within the test's time
  const aborted = runPythonBatch({ program: DEAF, entry: 'f', inputs: [[]], limits: { ...limits, timeMs: 20_000 }, signal: ac.signal });
  setImmediate(() => ac.abort());
  expect(await aborted).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
  expect(await prefix()).toBe(before);
}, 30_000);
