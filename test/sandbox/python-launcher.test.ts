/**
 * The per-slot Python launcher (python-launcher.ts), where it can fail: the launcher killed under
 * a run (the sandbox's fault, and the next run starts a fresh one), the program's process killed
 * (the program's), a wall clock run out, compiled code that does not load (forgotten, the
 * launcher restarted), a launcher that cannot start. And the default mode of `createSandbox` is the launcher: each program a fresh
 * interpreter in namespaces of its own. Isolation between programs is python-slot-server.test.ts.
 */
import { readFileSync } from 'node:fs';
import * as compiled from '../../src/sandbox/python-compiled';
import { randomBytes } from 'node:crypto';
import { createSandbox, pythonSandboxProblem } from '../../src/sandbox';
import { PythonLauncher } from '../../src/sandbox/python-launcher';
import { DEFAULT_PYTHON_PATHS, runPythonBatch, type PythonBatch, type PythonSandboxPaths } from '../../src/sandbox/python-runner';
import type { SlotServerStart } from '../../src/sandbox/python-slot-server';
import type { RawRun } from '../../src/sandbox/raw-run';
import { eventually, processesNamed } from './processes';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

const launchers: PythonLauncher[] = [];
afterAll(() => Promise.all(launchers.map((l) => l.close())));
function launcher(paths?: PythonSandboxPaths): PythonLauncher {
  const l = new PythonLauncher(paths);
  launchers.push(l);
  return l;
}

const batch = (program: string, timeMs = 3000, signal?: AbortSignal): PythonBatch => ({ program, entry: 'f', inputs: [[]], limits: { timeMs, memoryMb: 128, outputBytes: 10_000 }, signal });
const value = (r: RawRun): unknown => {
  expect(r).toMatchObject({ code: 'ok', outputs: [{ code: 'ok' }] });
  return JSON.parse(r.outputs[0].text!);
};
/** The host's parent pid of a host process. */
const parentOf = (pid: string): string => /^PPid:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];

/** A program that names its process `marker` and waits. */
const waiting = (marker: string): string => `import time\ndef f():\n    open('/proc/self/comm', 'w').write(${JSON.stringify(marker)})\n    while True:\n        time.sleep(0.05)`;

describe('the Python launcher: where a run can fail', () => {
  test('the launcher killed under a run: sandbox-error naming it (no program can reach it); the next run starts a fresh launcher', async () => {
    const l = launcher();
    const marker = `l${randomBytes(5).toString('hex')}`;
    const pending = l.run(batch(waiting(marker), 20_000));
    let program = '';
    expect(await eventually(() => ((program = processesNamed(marker)[0] ?? ''), program !== ''), 30_000)).toBe(true);
    const init = parentOf(program);
    const server = parentOf(init); // the launcher: the parent of the run's init
    expect(readFileSync(`/proc/${server}/comm`, 'utf8').trim()).toMatch(/^python/);
    process.kill(Number(server), 'SIGKILL');
    const r = await pending;
    expect(r.code).toBe('sandbox-error');
    expect(r.message).toMatch(/^the Python launcher ended/);
    expect(await eventually(() => processesNamed(marker).length === 0, 10_000)).toBe(true); // the program died with it
    expect(value(await l.run(batch('def f():\n    return 5')))).toBe(5);
  });

  test("the program's process killed by a signal, its own or the host's: killed-by-signal, the program's; the launcher goes on", async () => {
    const l = launcher();
    const self = await l.run(batch('import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGTERM)'));
    expect(self).toMatchObject({ code: 'killed-by-signal', message: expect.stringMatching(/SIGTERM/) });
    const marker = `k${randomBytes(5).toString('hex')}`;
    const pending = l.run(batch(waiting(marker), 20_000));
    let program = '';
    expect(await eventually(() => ((program = processesNamed(marker)[0] ?? ''), program !== ''), 30_000)).toBe(true);
    const server = parentOf(parentOf(program));
    process.kill(Number(program), 'SIGKILL');
    expect(await pending).toMatchObject({ code: 'killed-by-signal', message: expect.stringMatching(/SIGKILL/) });
    // the same launcher ran the next program (no restart after a program's own end)
    const marker2 = `n${randomBytes(5).toString('hex')}`;
    const stop = new AbortController();
    const next = l.run(batch(waiting(marker2), 20_000, stop.signal));
    let program2 = '';
    expect(await eventually(() => ((program2 = processesNamed(marker2)[0] ?? ''), program2 !== ''), 30_000)).toBe(true);
    expect(parentOf(parentOf(program2))).toBe(server);
    stop.abort();
    expect(await next).toMatchObject({ code: 'sandbox-error', message: 'cancelled' });
  });

  test('a run past its wall clock: timeout (the program was running), every process of it gone, and the next run fine', async () => {
    const l = launcher();
    const marker = `t${randomBytes(5).toString('hex')}`;
    const stuck = await l.run(batch(`def f():\n    open('/proc/self/comm', 'w').write('${marker}')\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass`, 300));
    expect(stuck.code).toBe('timeout');
    expect(await eventually(() => processesNamed(marker).length === 0, 10_000)).toBe(true);
    expect(value(await l.run(batch('def f():\n    return 6')))).toBe(6);
  });

  test('compiled code that does not load: sandbox-error (no program code ran); the bytes are forgotten and the launcher restarted, so the next run compiles again and runs', async () => {
    /** A launcher whose first start writes bytes that are not the compiled harness. */
    class Corrupted extends PythonLauncher {
      starts = 0;
      protected override async prepare(): Promise<SlotServerStart> {
        const start = await super.prepare();
        return this.starts++ === 0 ? { ...start, prefix: Buffer.alloc(start.prefix.length, 0x7f) } : start;
      }
    }
    const l = new Corrupted();
    launchers.push(l);
    const forgot = jest.spyOn(compiled, 'forgetCompiled');
    const bad = await l.run(batch('def f():\n    return 1'));
    expect(bad.code).toBe('sandbox-error');
    expect(bad.message).toMatch(/did not start/);
    expect(forgot).toHaveBeenCalledTimes(1); // the bytes that did not load are not used again
    forgot.mockRestore();
    expect(value(await l.run(batch('def f():\n    return 2')))).toBe(2);
    expect(l.starts).toBe(2);
  });

  test('a launcher that cannot start (no Python there): sandbox-error that says so, for every run', async () => {
    const l = launcher({ ...DEFAULT_PYTHON_PATHS, python: '/bin/false' });
    for (let i = 0; i < 2; i++) {
      const r = await l.run(batch('def f():\n    return 1'));
      expect(r.code).toBe('sandbox-error');
      expect(r.message).toMatch(/^the Python launcher did not start/);
    }
  });
});

describe("the launcher's program process", () => {
  test("it starts as a fresh sandbox's program does (pid 2 under its namespace's init, the sandbox's environment, no capability), in a session of its own", async () => {
    const probe = "import os\ndef f():\n    caps = [l.split()[1] for l in open('/proc/self/status') if l.startswith(('CapEff', 'CapPrm', 'CapInh'))]\n    return [os.getpid(), os.getppid(), sorted(os.environ.items()), caps, os.getsid(0) == os.getpid()]";
    const mine = value(await launcher().run(batch(probe))) as unknown[];
    const fresh = value(await runPythonBatch(batch(probe))) as unknown[];
    expect(mine.slice(0, 4)).toEqual([2, 1, expect.arrayContaining([['PYTHONDONTWRITEBYTECODE', '1']]), ['0000000000000000', '0000000000000000', '0000000000000000']]);
    expect(mine.slice(0, 4)).toEqual(fresh.slice(0, 4));
    expect(mine[4]).toBe(true); // not in the launcher's session (bwrap's program is in its init's)
  });
});

describe("createSandbox's default Python mode: the launcher", () => {
  test("a program runs in the run's namespaces under a per-slot launcher (seen in the sandbox's /proc, two pid levels: the slot's sandbox and the run), not in a sandbox of its own (one)", async () => {
    const sb = createSandbox({ concurrency: 1 });
    const fresh = createSandbox({ concurrency: 1, pythonMode: 'fresh-sandbox' });
    try {
      const probe = { language: 'python' as const, program: "def f():\n    return [l for l in open('/proc/self/status').read().splitlines() if l.startswith('NSpid:')][0].split()[1:]", entry: 'f', tests: [{ input: [] }] };
      const levels = async (s: typeof sb): Promise<number> => {
        const r = await s.code.run(probe);
        expect(r.code).toBe('ok');
        return (r.tests[0].actual as string[]).length;
      };
      expect(await levels(sb)).toBe(2);
      expect(await levels(fresh)).toBe(1);
    } finally {
      await Promise.all([sb.close(), fresh.close()]);
    }
  });
});
