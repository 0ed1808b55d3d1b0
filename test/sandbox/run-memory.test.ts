/**
 * The host's view of a run's memory (run-memory.ts): the walk finds every process below the
 * namespace's init (grandchildren included, the init excluded) on a real process tree and on a
 * /proc laid out by hand (a child listed under a second thread, a process gone between the
 * directory read and the file read, a process whose smaps_rollup cannot be read), the sum uses
 * the resident sets only while they are within the limit and the PSS otherwise, and the watch
 * calls its callback once when over and never after it is stopped. The Python runs themselves,
 * in every mode, are python-run-memory.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenOf, lastOnlyChild, namespaceProcesses, processPss, processRss, runMemory, watchRunMemory } from '../../src/sandbox/run-memory';
import { eventually } from './processes';

const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

describe('on a real process tree', () => {
  // parent (sh) -> "init" (sh) -> sleep, and a sh whose child is another sleep
  let parent: ChildProcess;
  beforeAll(() => {
    parent = spawn('sh', ['-c', `sh -c 'sleep 60 & sh -c "sleep 60 & wait" & wait' & wait`], { stdio: 'ignore' });
  });
  afterAll(() => {
    // the group: every sh and sleep of the tree
    for (const pid of [parent.pid!, ...namespaceProcesses(parent.pid!), ...childrenOf(parent.pid!)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });

  /** The tree is built: three processes below the init, each past its exec (a forked sh is `sh` until it becomes `sleep`). */
  const built = (): boolean => {
    try {
      return namespaceProcesses(parent.pid!).map(comm).sort().join() === 'sh,sleep,sleep';
    } catch {
      return false; // one ended between the walk and its read
    }
  };

  test('the processes below the init: children and grandchildren, not the init', async () => {
    expect(await eventually(built, 30_000)).toBe(true);
    const [init] = childrenOf(parent.pid!);
    expect(childrenOf(parent.pid!)).toEqual([init]);
    const found = namespaceProcesses(parent.pid!);
    expect(found).not.toContain(init);
    expect(found).not.toContain(parent.pid);
    expect(found.map(comm).sort()).toEqual(['sh', 'sleep', 'sleep']);
    const inner = found.find((p) => comm(p) === 'sh')!;
    expect(found).toEqual(expect.arrayContaining(childrenOf(inner)));
    expect(found).toEqual(expect.arrayContaining(childrenOf(init)));
    // a chain of only children ends at the first process with several
    expect(lastOnlyChild(parent.pid!)).toBe(init);
  });

  test('what they hold: resident sets within the limit, PSS over it', async () => {
    expect(await eventually(built, 30_000)).toBe(true);
    const pids = namespaceProcesses(parent.pid!);
    for (const p of pids) {
      expect(processRss(p)).toBeGreaterThan(0);
      expect(processPss(p)).toBeGreaterThan(0);
      // the same binary's pages, shared by the three: each counts only its share
      expect(processPss(p)).toBeLessThan(processRss(p));
    }
    const rss = runMemory(parent.pid!, Number.MAX_SAFE_INTEGER);
    const pss = runMemory(parent.pid!);
    expect(pss).toBeGreaterThan(0);
    expect(pss).toBeLessThan(rss);
    expect(runMemory(parent.pid!, rss - 1)).toBeLessThan(rss); // just over the bound: the PSS is read
  });

  test('a process that has ended has no children and holds nothing', async () => {
    const done = spawn('true');
    await new Promise((r) => done.on('exit', r));
    await new Promise((r) => setImmediate(r)); // reaped by Node once exit is seen
    expect(childrenOf(done.pid!)).toEqual([]);
    expect(namespaceProcesses(done.pid!)).toEqual([]);
    expect(processRss(done.pid!)).toBe(0);
    expect(processPss(done.pid!)).toBe(0);
    expect(runMemory(done.pid!)).toBe(0);
  });
});

describe('on a /proc laid out by hand', () => {
  let proc: string;
  const file = (path: string, text: string) => {
    mkdirSync(join(proc, path, '..'), { recursive: true });
    writeFileSync(join(proc, path), text);
  };
  beforeEach(() => {
    proc = mkdtempSync(join(tmpdir(), 'run-memory-'));
    // 10 -> 11 (the init: two threads) -> 20 (under thread 11), 21 (under thread 12) -> 22 (gone)
    file('10/task/10/children', '11 ');
    file('11/task/11/children', '20 ');
    file('11/task/12/children', '21\n'); // the kernel writes "21 "; any space or end will do
    file('11/smaps_rollup', 'Rss: 9000 kB\nPss: 5000 kB\n');
    file('11/status', 'VmRSS:\t    9000 kB\n');
    file('20/task/20/children', '');
    file('20/status', 'Name:\tpython3\nVmRSS:\t     300 kB\n'); // no smaps_rollup: unreadable
    file('21/task/21/children', '22 ');
    // only the line "Pss:" is the PSS (SwapPss is swapped out; first here to tell them apart)
    file('21/smaps_rollup', '00400000-7fff [rollup]\nSwapPss:    7 kB\nRss:    900 kB\nPss:    100 kB\nPss_Anon:   50 kB\n');
    file('21/status', 'VmRSS:\t     900 kB\n');
  });
  afterEach(() => rmSync(proc, { recursive: true, force: true }));

  test('children of every thread; a listed process that is gone is walked as having none', () => {
    expect(childrenOf(11, proc).sort()).toEqual([20, 21]);
    expect(namespaceProcesses(10, proc).sort()).toEqual([20, 21, 22]);
    expect(lastOnlyChild(10, proc)).toBe(11);
    expect(lastOnlyChild(22, proc)).toBe(22);
  });

  test('PSS where smaps_rollup reads, VmRSS where it does not, 0 for a process gone', () => {
    expect(processPss(21, proc)).toBe(100 * 1024);
    expect(processPss(20, proc)).toBe(300 * 1024);
    expect(processPss(22, proc)).toBe(0);
    expect(processRss(21, proc)).toBe(900 * 1024);
    expect(processRss(22, proc)).toBe(0);
    // the init's 5000 kB are not the run's
    expect(runMemory(10, 0, proc)).toBe((300 + 100) * 1024);
    expect(runMemory(10, 1200 * 1024, proc)).toBe((300 + 900) * 1024);
    expect(runMemory(10, 1200 * 1024 - 1, proc)).toBe((300 + 100) * 1024);
  });

  test('a zombie (empty smaps_rollup, no VmRSS) and unreadable entries hold nothing, and nothing throws', () => {
    file('22/smaps_rollup', '');
    file('22/status', 'Name:\tpython3\nState:\tZ (zombie)\n');
    mkdirSync(join(proc, '22/task/22/children'), { recursive: true }); // a directory where a file should be
    file('30/task', 'not a directory');
    expect(processPss(22, proc)).toBe(0);
    expect(childrenOf(22, proc)).toEqual([]);
    expect(childrenOf(30, proc)).toEqual([]);
    expect(namespaceProcesses(30, proc)).toEqual([]);
    expect(() => runMemory(10, 0, '/nonexistent-proc')).not.toThrow();
    expect(runMemory(10, 0, '/nonexistent-proc')).toBe(0);
  });

  test('the watch calls onOver once, with what the processes hold, then stops checking', async () => {
    const calls: number[] = [];
    let stop: () => void = () => undefined;
    const over = new Promise<void>((r) => (stop = r));
    const watch = watchRunMemory({ parent: 10, limitBytes: 350 * 1024, proc, everyMs: 1, onOver: (used) => (calls.push(used), stop()) });
    await over;
    const seen = watch.stop();
    expect(calls).toEqual([400 * 1024]);
    expect(seen).toEqual({ peakBytes: 400 * 1024, checks: 1 });
    await new Promise((r) => setTimeout(r, 10)); // later than any check would come (everyMs 1)
    expect(calls).toHaveLength(1);
    expect(watch.stop()).toEqual(seen);
  });

  test('a watch within the limit checks on and never calls onOver; a stopped one never checks again', async () => {
    const onOver = jest.fn();
    const watch = watchRunMemory({ parent: 10, limitBytes: 2000 * 1024, proc, everyMs: 1, onOver });
    await new Promise((r) => setTimeout(r, 10)); // a timer of 10 ms fires after those of 1 ms set before it
    const seen = watch.stop();
    expect(seen.checks).toBeGreaterThan(0);
    expect(seen.peakBytes).toBe((300 + 900) * 1024); // within the limit: the resident sets
    // exactly at the limit is within it (the resident sets, 1200 kB, are over; the PSS, 400 kB, is not)
    const at = watchRunMemory({ parent: 10, limitBytes: 400 * 1024, proc, everyMs: 1, onOver });
    await new Promise((r) => setTimeout(r, 10));
    expect(at.stop()).toMatchObject({ peakBytes: 400 * 1024 });
    expect(onOver).not.toHaveBeenCalled();
    file('20/status', 'VmRSS:\t 9999999 kB\n');
    await new Promise((r) => setTimeout(r, 10));
    expect(watch.stop()).toEqual(seen);
    expect(onOver).not.toHaveBeenCalled();

    const never = watchRunMemory({ parent: 10, limitBytes: 0, proc, everyMs: 1, onOver });
    expect(never.stop()).toEqual({ peakBytes: 0, checks: 0 });
    await new Promise((r) => setTimeout(r, 10));
    expect(onOver).not.toHaveBeenCalled();
  });
});
