/**
 * A run's memory, summed over all its processes and watched from the host (issue 23): the
 * Python sandbox's RLIMIT_AS binds each process, and a run may start up to RLIMIT_NPROC of them,
 * so the per-process limit alone let a run hold many times its `memoryMb`. There is no writable
 * cgroup where the arena runs; the host polls instead.
 *
 * Which processes are a run's: those of the run's pid namespace, its init excluded. The caller
 * names the host process whose child is that init (`parent`): for a fresh sandbox the bwrap the
 * host spawned (its child is bwrap's reaper, pid 1 of the sandbox's namespace); for the per-slot
 * servers the server itself (its one child during a run is the run's init). A namespace's
 * processes are its init's descendants: an orphan re-parents to the init (or to a subreaper
 * inside the namespace), and no process leaves its pid namespace. The walk reads
 * `/proc/<pid>/task/<tid>/children` for every thread (a child is listed under the thread that
 * started it), then reads the init's children again and walks any it had not seen: a process
 * whose parent ended during the walk has re-parented to the init by then. The init is not
 * counted: it runs no program code, and the fork server's init shares the server's memory
 * (python-fork-init.ts), which would count the server's pages.
 *
 * What the processes hold together: the sum of their proportional set sizes (`Pss:` of
 * `/proc/<pid>/smaps_rollup`), so pages shared copy-on-write by a process and the children it
 * forked (or by the fork server and its programs) count once in all, divided among them. Reading
 * smaps_rollup walks the process's page tables (measured: ~1 ms for a process holding 100 MB,
 * under load), so a check first sums the resident sets (`VmRSS:` of status, ~40 µs a process),
 * an upper bound of the PSS sum (a shared page counts in each process), and reads the PSS only
 * when that bound is over the limit. Where smaps_rollup cannot be read (a non-dumpable process
 * when the arena is not root) a process counts its resident set (an overcount, never an
 * undercount). A process that ends between the directory read and the file read holds nothing:
 * no read here ever throws.
 *
 * Cost: nothing until the first check ({@link RUN_MEMORY_POLL_MS} after the run starts), then
 * one walk per interval with synchronous reads of /proc (no disk; a few small files per
 * process). Overshoot: a run is stopped at the first check that finds it over its limit, so it
 * may hold what its processes allocate in one interval (plus the time the kill takes) beyond it
 * (docs/architecture.md, "The sandbox").
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Milliseconds from a run's start to its first check, and between checks. */
export const RUN_MEMORY_POLL_MS = 25;

/** Reads a /proc file, or answers '' when it is gone or unreadable. */
function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The pids of a process's children, over all its threads; [] when the process is gone. */
export function childrenOf(pid: number, proc = '/proc'): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`${proc}/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tasks) {
    for (const [c] of read(`${proc}/${pid}/task/${tid}/children`).matchAll(/\d+/g)) out.push(Number(c));
  }
  return out;
}

/**
 * The processes of the pid namespace(s) whose init is a child of `parent`, the inits excluded:
 * each init's descendants, then any of its children not seen in the first read of them.
 */
export function namespaceProcesses(parent: number, proc = '/proc'): number[] {
  const seen = new Set<number>();
  // depth first; a process seen already is not walked again (its subtree was: the guard saves reads)
  const walk = (pids: number[]): void => {
    for (const p of pids) {
      if (seen.has(p)) continue;
      seen.add(p);
      walk(childrenOf(p, proc));
    }
  };
  for (const init of childrenOf(parent, proc)) {
    walk(childrenOf(init, proc));
    walk(childrenOf(init, proc)); // orphans that re-parented to the init during the walk
  }
  return [...seen];
}

/**
 * The end of a chain of only children from `pid`: the first process down it that has no child
 * or several (`pid` itself when it has none or is gone). For a slot's sandbox once its server
 * said ready (bwrap, bwrap's reaper, the server), the server.
 */
export function lastOnlyChild(pid: number, proc = '/proc'): number {
  for (;;) {
    const children = childrenOf(pid, proc);
    if (children.length !== 1) return pid;
    pid = children[0];
  }
}

/** A process's resident set in bytes (VmRSS), or 0 (gone, or a zombie). */
export function processRss(pid: number, proc = '/proc'): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(read(`${proc}/${pid}/status`));
  return kb ? Number(kb[1]) * 1024 : 0;
}

/** A process's proportional set size in bytes (Pss), else its resident set (smaps_rollup unreadable), else 0. */
export function processPss(pid: number, proc = '/proc'): number {
  const kb = /^Pss:\s+(\d+) kB/m.exec(read(`${proc}/${pid}/smaps_rollup`));
  return kb ? Number(kb[1]) * 1024 : processRss(pid, proc);
}

/**
 * Bytes the run's processes (see {@link namespaceProcesses}) hold together, as a check measures
 * it: the sum of their resident sets while that is at most `limitBytes` (an upper bound of what
 * they hold), else the sum of their PSS. With no limit, the PSS sum.
 */
export function runMemory(parent: number, limitBytes = 0, proc = '/proc'): number {
  const pids = namespaceProcesses(parent, proc);
  let rss = 0;
  for (const pid of pids) rss += processRss(pid, proc);
  if (rss <= limitBytes) return rss;
  let pss = 0;
  for (const pid of pids) pss += processPss(pid, proc);
  return pss;
}

/** What a watch saw, once stopped. */
export interface RunMemoryReport {
  /** The most the run's processes held together at one check, in bytes, as {@link runMemory} measures it (0 when none ran). */
  peakBytes: number;
  /** How many checks ran. */
  checks: number;
}

/** A watch in progress. */
export interface RunMemoryWatch {
  /** Stops the watch (idempotent) and says what it saw. */
  stop(): RunMemoryReport;
}

/** What to watch. */
export interface RunMemoryOptions {
  /** The host process whose child is the run's pid namespace's init (see the module's comment). */
  parent: number;
  /** The most the run's processes may hold together, in bytes. */
  limitBytes: number;
  /** Called once, with the bytes held, at the first check that finds more than `limitBytes`; the watch then stops. */
  onOver: (usedBytes: number) => void;
  /** Between checks (and before the first), ms; {@link RUN_MEMORY_POLL_MS} by default. */
  everyMs?: number;
  /** Where /proc is (tests). */
  proc?: string;
}

/**
 * Checks a run's memory every `everyMs` until stopped or over its limit. The timer does not
 * keep the host alive (the run's process or server does); a check never throws (`onOver` aside).
 */
export function watchRunMemory(o: RunMemoryOptions): RunMemoryWatch {
  const every = o.everyMs ?? RUN_MEMORY_POLL_MS;
  const report: RunMemoryReport = { peakBytes: 0, checks: 0 };
  let timer: NodeJS.Timeout | null = null;
  const check = () => {
    timer = null;
    const used = runMemory(o.parent, o.limitBytes, o.proc);
    report.checks++;
    report.peakBytes = Math.max(report.peakBytes, used);
    if (used > o.limitBytes) return o.onOver(used);
    arm();
  };
  const arm = () => {
    timer = setTimeout(check, every);
    timer.unref();
  };
  arm();
  return {
    stop: () => {
      clearTimeout(timer ?? undefined);
      timer = null;
      return { ...report };
    },
  };
}
