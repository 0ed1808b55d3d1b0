/**
 * Check mode's harness process holds check(), the task's helpers and every input; the program
 * runs in a child it forks (src/sandbox/python-harness.ts, `_check_mode`). The harness makes
 * itself non-dumpable (prctl PR_SET_DUMPABLE 0) before the fork, so the program — same user,
 * same sandbox — cannot read the harness's memory or environment through /proc/<ppid>/. Without
 * it the program could read check()'s source (its expected answers) out of the parent's memory.
 * The program's own descriptors 1 and 2 lead to /dev/null, not to the harness's channel to the
 * host. A candidate's process ended by SIGXFSZ is an output-limit. (Each found by
 * stryker/python-mutants.cjs: `prctl(4, 0, ...)` -> `prctl(4, 1, ...)`, `os.dup2(null, 1)` ->
 * `pass` and the SIGXFSZ branch's code survived the other tests.)
 */
import { runPythonBatch, pythonSandboxProblem } from '../../src/sandbox/python-runner';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

const probe = String.raw`import os
def f(x):
    out = []
    for name in ("environ", "mem", "maps"):
        try:
            with open("/proc/%d/%s" % (os.getppid(), name), "rb") as fh:
                fh.read(1)
            out.append(name + ": read")
        except PermissionError:
            out.append(name + ": denied")
        except OSError as e:
            out.append(name + ": " + type(e).__name__)
    return out`;

test("the program cannot read the check-mode harness's memory, maps or environment (/proc/<ppid>/...)", async () => {
  const r = await runPythonBatch({
    program: probe,
    entry: 'f',
    inputs: [],
    check: 'def check(candidate):\n    got = candidate(1)\n    assert got == ["environ: denied", "mem: denied", "maps: denied"], got',
    limits: { timeMs: 3000, memoryMb: 128, outputBytes: 2000 },
  });
  expect(r.check).toEqual({ code: 'ok' });
});

test('the same probe outside check mode reads its own process: the denial above is the harness being non-dumpable, not a missing /proc', async () => {
  const self = probe.replace('os.getppid()', 'os.getpid()');
  const r = await runPythonBatch({ program: self, entry: 'f', inputs: [[1]], limits: { timeMs: 3000, memoryMb: 128, outputBytes: 2000 } });
  // its own mem opens (permission granted) and fails only at address 0, which is not mapped (EIO)
  expect(r.outputs).toEqual([{ code: 'ok', text: '["environ: read", "mem: OSError", "maps: read"]' }]);
});

test("in check mode the program's file descriptors 1 and 2 lead nowhere: what it writes past sys.stdout never reaches the host's channel", async () => {
  // 1.5 MB each, above the host's stdout/stderr cap for this batch (2 x 2,000 + 1,000,000 characters)
  const writer = (fd: number) => `import os\ndef f(x):\n    os.write(${fd}, b"@" * 1500000)\n    return x`;
  const runs = await Promise.all(
    [1, 2].map((fd) =>
      runPythonBatch({ program: writer(fd), entry: 'f', inputs: [], check: 'def check(candidate):\n    assert candidate(3) == 3', limits: { timeMs: 3000, memoryMb: 128, outputBytes: 2000 } }),
    ),
  );
  expect(runs.map((r) => [r.code, r.check])).toEqual([
    ['ok', { code: 'ok' }],
    ['ok', { code: 'ok' }],
  ]);
});

test("a candidate's process ended by SIGXFSZ (the file-size limit) is the program's output-limit, in check mode too", async () => {
  // Python ignores SIGXFSZ (a write past the limit fails with EFBIG); a program that restores the default and raises it ends by the signal
  const program = 'import os, signal\ndef f(x):\n    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n    os.kill(os.getpid(), signal.SIGXFSZ)\n    return x';
  const r = await runPythonBatch({ program, entry: 'f', inputs: [], check: 'def check(candidate):\n    candidate(1)', limits: { timeMs: 3000, memoryMb: 128, outputBytes: 2000 } });
  expect(r.check).toEqual({ code: 'output-limit', message: 'the program wrote more output than allowed' });
});

test('a reply on the channel that is not JSON is a malformed reply, at load and on a call', async () => {
  const atCall = 'import os\ndef f(x):\n    os.write(3, b"not json\\n")\n    return x';
  const atLoad = 'import os\nos.write(3, b"{not json\\n")\ndef f(x):\n    return x';
  const runs = await Promise.all(
    [atCall, atLoad].map((program) => runPythonBatch({ program, entry: 'f', inputs: [], check: 'def check(candidate):\n    candidate(1)', limits: { timeMs: 3000, memoryMb: 128, outputBytes: 2000 } })),
  );
  expect(runs[0].check).toEqual({ code: 'runtime-error', message: 'the program wrote a malformed reply' });
  expect([runs[1].code, runs[1].message]).toEqual(['runtime-error', 'the program wrote a malformed reply']);
});

test("a candidate's process that ends between calls: the next call's large argument is not written into a pipe nobody reads (the harness holds no read end of it)", async () => {
  // a thread ends the process 0.2 s after load; check() then sends 200,000 characters, more than a pipe holds
  const program = 'import os, threading, time\ndef _later():\n    time.sleep(0.2)\n    os._exit(5)\nthreading.Thread(target=_later).start()\ndef f(x):\n    return len(x)';
  const check = 'import time\ndef check(candidate):\n    assert candidate("ab") == 2\n    time.sleep(0.6)\n    candidate("x" * 200000)';
  const r = await runPythonBatch({ program, entry: 'f', inputs: [], check, limits: { timeMs: 2000, memoryMb: 128, outputBytes: 2000 } });
  expect(r.check).toEqual({ code: 'exited', message: 'the program ended its process (exit status 5)' });
});

const checkRun = (program: string, timeMs = 1500, outputBytes = 2000) =>
  runPythonBatch({ program, entry: 'f', inputs: [], check: 'def check(candidate):\n    candidate(1)', limits: { timeMs, memoryMb: 128, outputBytes } });

test("a load failure the candidate's process reports passes through with its own code: runtime-error, memory-limit, output-limit", async () => {
  const runs = await Promise.all([
    checkRun('raise ValueError("at load")'),
    checkRun('x = bytearray(10 ** 10)'),
    checkRun('print("x" * 100000)'),
  ]);
  expect(runs.map((r) => r.code)).toEqual(['runtime-error', 'memory-limit', 'output-limit']);
  expect(runs[0].message).toBe('ValueError: at load');
});

test('a load that takes most of its time limit is given it (the first reply waits for the load and every input, plus slack)', async () => {
  const r = await checkRun('import time\ntime.sleep(1.2)\ndef f(x):\n    return x');
  expect([r.code, r.check]).toEqual(['ok', { code: 'ok' }]);
});

test("a reply's code of a call passes through when it is one a candidate can end with (timeout, memory-limit, output-limit, exited)", async () => {
  const forge = (code: string) => `import os\ndef f(x):\n    os.write(3, b'{"code": "${code}", "message": "m"}\\n')\n    return x`;
  const runs = await Promise.all(['timeout', 'memory-limit', 'output-limit', 'exited'].map((c) => checkRun(forge(c))));
  expect(runs.map((r) => r.check)).toEqual(['timeout', 'memory-limit', 'output-limit', 'exited'].map((code) => ({ code, message: 'm' })));
});
