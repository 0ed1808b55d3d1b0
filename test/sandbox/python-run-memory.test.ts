/**
 * The memory limit of a whole Python run (issue 23; run-memory.ts, watched by the host): RLIMIT_AS
 * binds each process, so a program that forks children each within it but together far over
 * the run's memory ends as memory-limit, in every mode; children that share their parent's
 * pages copy-on-write count them once (the PSS, not the resident sets), so a run that forks and
 * stays within its memory passes, as does one process using most of it. Each run is held to its own
 * limit (its watch ends with it, however it ends), and after a run stopped for memory the next run on the same server is served as ever.
 */
import { runPythonBatch, pythonSandboxProblem, type PythonBatch } from '../../src/sandbox/python-runner';
import { PythonForkServer } from '../../src/sandbox/python-fork-server';
import { PythonLauncher } from '../../src/sandbox/python-launcher';
import type { RawRun } from '../../src/sandbox/raw-run';
import * as memory from '../../src/sandbox/run-memory';
import { readFileSync } from 'node:fs';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());
const server = new PythonForkServer();
const launcher = new PythonLauncher();
afterAll(() => Promise.all([server.close(), launcher.close()]));

// RLIMIT_AS and the run's whole memory: (128 + 64) MB
const limits = { timeMs: 20_000, memoryMb: 128, outputBytes: 10_000 };

/**
 * A program that forks `n` children, each allocating (and touching) `mb` MB and holding it until
 * every child has (a pipe: each writes a byte once allocated, then waits for its parent), and
 * answers the children's exit statuses. `parentMb`: MB the parent allocates before it forks.
 */
const forking = (n: number, mb: number, parentMb = 0) => `import os
def f():
    kept = bytearray(${parentMb} * 1024 * 1024)
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pids = []
    for i in range(${n}):
        pid = os.fork()
        if pid == 0:
            try:
                block = bytearray(${mb} * 1024 * 1024)
                os.write(ready_w, b'x')
                os.read(go_r, 1)
                os._exit(0)
            except MemoryError:
                os._exit(3)
        pids.append(pid)
    os.close(ready_w)  # a child that failed to allocate ends its read early: its status says so
    for i in range(${n}):
        os.read(ready_r, 1)
    # all of them hold their memory now: give the host time to look (a second), then let them go
    import time
    time.sleep(1)
    os.write(go_w, b'x' * ${n})
    return [os.waitpid(p, 0)[1] for p in pids] + [len(kept) // (1024 * 1024)]`;

/** A host process's name and its parent's, read while it lives. */
const names = (pid: number): string[] => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return [pid, ppid].map((p) => readFileSync(`/proc/${p}/comm`, 'utf8').trim());
};

// how each mode is watched: from the bwrap the host spawned (its child is the sandbox's pid 1), or
// from the slot's server (python3, below bwrap's reaper; its child is each run's init)
describe.each([
  ['a fresh sandbox per program', (b: PythonBatch) => runPythonBatch(b), 'bwrap'],
  ["a fresh interpreter per program from the slot's launcher", (b: PythonBatch) => launcher.run(b), 'python3 below bwrap'],
  ['the fork server', (b: PythonBatch) => server.run(b), 'python3 below bwrap'],
])('%s', (_how, runBatch, watchedFrom) => {
  const run = (program: string): Promise<RawRun> => runBatch({ program, entry: 'f', inputs: [[]], limits });

  test('6 children of 140 MB each (each within RLIMIT_AS, together 840 MB) end as memory-limit; the next run is served', async () => {
    const r = await run(forking(6, 140));
    expect(r.code).toBe('memory-limit');
    const held = Number(/^the run's processes together held (\d+\.\d) MB, over its limit of 192 MB \(memoryMb 128 and 64 MB for the interpreter\)$/.exec(r.message ?? '')?.[1]);
    expect(held).toBeGreaterThan(192);
    expect(await run('def f():\n    return 7')).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '7' }] });
  });

  test('4 children of 20 MB each (together within the limit) pass', async () => {
    const r = await run(forking(4, 20));
    expect(r).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '[0, 0, 0, 0, 0]' }] });
  });

  test("5 children sharing their parent's 60 MB copy-on-write (resident sets ~5 x 70 MB, PSS ~70 MB) pass", async () => {
    const r = await run(forking(5, 0, 60));
    expect(r).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '[0, 0, 0, 0, 0, 60]' }] });
  });

  test("each run is held to its own limit: after a run of 128 MB, one of 512 MB whose 3 children hold 300 MB passes", async () => {
    expect(await run('def f():\n    return 1')).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '1' }] });
    const r = await runBatch({ program: forking(3, 100), entry: 'f', inputs: [[]], limits: { ...limits, memoryMb: 512 } });
    expect(r).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '[0, 0, 0, 0]' }] });
  });

  test('each run starts a watch (from the process whose child is its init) and stops it when it ends: done, over its memory, or cancelled', async () => {
    const real = memory.watchRunMemory;
    const stops: jest.Mock[] = [];
    const from: string[] = [];
    let onWatch = () => {};
    const spy = jest.spyOn(memory, 'watchRunMemory').mockImplementation((o) => {
      const [name, parent] = names(o.parent);
      from.push(name === 'bwrap' ? name : `${name} below ${parent}`);
      const watch = real(o);
      const stop = jest.fn(() => watch.stop());
      stops.push(stop);
      onWatch();
      return { stop };
    });
    try {
      expect((await run('def f():\n    return 1')).code).toBe('ok');
      expect((await run(forking(6, 140))).code).toBe('memory-limit');
      const cancel = new AbortController();
      // once the run has started (its watch is on); not at once: a bwrap killed before it set up
      // --die-with-parent leaves its sandbox to end by itself (here within the test's 2 s)
      onWatch = () => void setTimeout(() => cancel.abort(), 200);
      const r = await runBatch({ program: 'def f():\n    while True:\n        pass', entry: 'f', inputs: [[]], limits: { ...limits, timeMs: 2000 }, signal: cancel.signal });
      expect(r).toMatchObject({ code: 'sandbox-error', message: 'cancelled' });
    } finally {
      spy.mockRestore();
    }
    expect(from).toEqual([watchedFrom, watchedFrom, watchedFrom]);
    expect(stops).toHaveLength(3);
    for (const stop of stops) expect(stop).toHaveBeenCalled();
  });

  test('one process using 120 MB of its 128 MB passes', async () => {
    const r = await run(`import time
def f():
    block = bytearray(120 * 1024 * 1024)
    time.sleep(0.5)
    return len(block) // (1024 * 1024)`);
    expect(r).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '120' }] });
  });
});
