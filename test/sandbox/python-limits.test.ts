/**
 * The Python sandbox's privilege drop and rlimits, each checked where it bites: the program runs
 * as an unprivileged uid seen from the host (as root RLIMIT_NPROC would not bind it), the harness
 * has set every rlimit to the value the run's limits give before the program runs, the program
 * cannot raise one again, and a fork bomb meets the process limit. Each test fails when its
 * defence is removed (the spawn's uid, a `setrlimit` of the harness). Run in every mode: a fresh
 * sandbox per program, a fresh interpreter per program from the slot's launcher, and the fork server.
 */
import { runPythonBatch, pythonSandboxProblem, type PythonBatch } from '../../src/sandbox/python-runner';
import { PythonForkServer } from '../../src/sandbox/python-fork-server';
import { PythonLauncher } from '../../src/sandbox/python-launcher';
import type { RawRun } from '../../src/sandbox/raw-run';
import { randomBytes } from 'node:crypto';
import { eventually, hostIds, processesNamed } from './processes';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());
const server = new PythonForkServer();
const launcher = new PythonLauncher();
afterAll(() => Promise.all([server.close(), launcher.close()]));

describe.each([
  ['a fresh sandbox per program', (b: PythonBatch) => runPythonBatch(b)],
  ["a fresh interpreter per program from the slot's launcher", (b: PythonBatch) => launcher.run(b)],
  ['the fork server', (b: PythonBatch) => server.run(b)],
])('%s', (_how, runBatch) => {

// one test of 1,500 ms: a wall clock of 1500 * (1 + 2) + 3000 ms, so RLIMIT_CPU is 8 s
const limits = { timeMs: 1500, memoryMb: 128, outputBytes: 200 };
const run = (program: string, signal?: AbortSignal, timeMs = limits.timeMs): Promise<RawRun> => runBatch({ program, entry: 'f', inputs: [[]], limits: { ...limits, timeMs, outputBytes: 10_000 }, signal });
const value = (r: RawRun): unknown => {
  expect(r).toMatchObject({ code: 'ok', outputs: [{ code: 'ok' }] });
  return JSON.parse(r.outputs[0].text!);
};

describe('Python sandbox: rlimits set by the harness', () => {
  test('every rlimit has the value the limits give, soft = hard', async () => {
    const r = await run(`import resource
def f():
    return [list(resource.getrlimit(getattr(resource, 'RLIMIT_' + n))) for n in ('CPU', 'AS', 'NPROC', 'FSIZE', 'NOFILE')]`);
    expect(value(r)).toEqual([
      [8, 8],
      [(128 + 64) * 1024 * 1024, (128 + 64) * 1024 * 1024],
      [64, 64],
      [1_048_576, 1_048_576], // outputBytes below 1 MB: 1 MB
      [64, 64],
    ]);
  });

  test('the program cannot raise a limit again', async () => {
    const r = await run(`import resource
def f():
    out = []
    for n in ('CPU', 'AS', 'NPROC', 'FSIZE', 'NOFILE'):
        which = getattr(resource, 'RLIMIT_' + n)
        try:
            resource.setrlimit(which, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            out.append(n + ' raised')
        except (ValueError, OSError):
            out.append(n + ' refused')
    return out`);
    expect(value(r)).toEqual(['CPU refused', 'AS refused', 'NPROC refused', 'FSIZE refused', 'NOFILE refused']);
  });

  test('a fork bomb meets the process limit: fork fails with EAGAIN before 64 processes', async () => {
    const r = await run(`import os, time
def f():
    n = 0
    try:
        while n < 300:
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
            n += 1
    except BlockingIOError:
        return ['stopped', n]
    return ['not stopped', n]`, undefined, 20_000); // 60 forks take seconds on a loaded machine
    const [how, n] = value(r) as [string, number];
    expect(how).toBe('stopped');
    expect(n).toBeLessThan(64);
  });
});

describe('Python sandbox: the uid drop', () => {
  test('the program has no group and is not root inside', async () => {
    const r = await run(`import os
def f():
    return [os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups()]`);
    const [uid, euid, gid, egid, groups] = value(r) as [number, number, number, number, number[]];
    for (const id of [uid, euid, gid, egid]) expect(id).not.toBe(0);
    expect(groups).toEqual([]);
  });

  test('seen from the host, the program runs as an unprivileged uid and gid with no groups', async () => {
    const marker = `uid${randomBytes(5).toString('hex')}`;
    const stop = new AbortController();
    const pending = run(
      `import time
def f():
    open('/proc/self/comm', 'w').write(${JSON.stringify(marker)})
    while True:
        time.sleep(0.05)`,
      stop.signal,
    );
    let pid = '';
    const seen = await eventually(() => ((pid = processesNamed(marker)[0] ?? ''), pid !== ''), 30_000);
    const ids = seen ? hostIds(pid) : null;
    stop.abort();
    await pending;
    expect(seen).toBe(true);
    const me = process.getuid!();
    if (me === 0) {
      // the uid range of python-runner.ts; its own gid; supplementary groups cleared
      expect(ids!.uid).toBeGreaterThanOrEqual(61000);
      expect(ids!.uid).toBeLessThan(61000 + 1024);
      expect(ids!.gid).toBe(ids!.uid);
      expect(ids!.groups).toEqual([]);
    } else {
      expect(ids!.uid).toBe(me);
    }
  });
});
});
