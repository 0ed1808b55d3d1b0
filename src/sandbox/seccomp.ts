/**
 * The seccomp filter every Python sandbox runs under (bubblewrap's `--seccomp FD`: bwrap reads a
 * classic BPF program from that descriptor, closes it, and installs it with no_new_privs just
 * before it executes Python, so every process of the sandbox, the slot servers and all their runs
 * included, inherits it and none can remove it).
 *
 * Why: the memory limit (RLIMIT_AS per process, and the run's sum of processes) binds memory that
 * processes map. Some syscalls hand a program kernel memory that no process maps and no per-user
 * limit bounds, measured through `code.run` under `memoryMb: 128` (2026-12-03):
 * - SysV shared memory (`shmget`): a segment stays allocated after `shmdt`, so one process
 *   attaching, touching and detaching 40 segments of 64 MB held 2.5 GB (MemAvailable fell by
 *   2,469 MB) in every Python mode;
 * - socket buffers (`socket`, `socketpair`): up to twice `net.core.wmem_max` per socket (4 MB
 *   here), so 20 forked processes filling 28 socket pairs each queued 4.4 GB (3.4 GB of
 *   MemAvailable); 62 processes, 14 GB;
 * - `memfd_create`: a memfd's pages stay with the descriptor after `munmap` (1 MB each under
 *   RLIMIT_FSIZE, 64 descriptors a process, 64 processes);
 * - System V message queues (`msgget`: 16 KB a queue, 32,000 queues in the run's IPC namespace);
 * - inotify watches (`inotify_init`, `inotify_init1`; `fanotify_init` alike): each pins an inode,
 *   and one run reached the per-user limit of 201,226 watches over /usr (MemAvailable -166 MB).
 * None of them is needed by the programs a grader runs (no network exists in the sandbox
 * either). Also refused, as attack surface no program needs: `io_uring_setup` (its rings and
 * buffers), `userfaultfd`, `bpf`, `perf_event_open`, `memfd_secret`. A refused call fails with
 * EPERM (Python raises PermissionError: the program's `runtime-error`).
 *
 * The filter checks the architecture first: a syscall made through another ABI (an x86-64
 * process can enter the kernel as i386 with `int 0x80`, where the numbers differ) kills the
 * process, and x86-64's x32 numbers (bit 30 set) are refused, so no number escapes the list by
 * being spelled another way.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { Writable } from 'node:stream';

/** The descriptor bwrap reads the filter from (`--seccomp 9`; the spawn puts a pipe there). */
export const SECCOMP_FD = 9;

/** What the filter refuses, in order (why: the module's comment). */
export const DENIED_SYSCALLS: readonly string[] = [
  'socket', // socket buffers: kernel memory outside every process (2 x wmem_max a socket)
  'socketpair',
  'shmget', // a SysV segment outlives its detach
  'msgget', // SysV message queues hold kernel memory
  'memfd_create', // a memfd's pages outlive their mapping
  'memfd_secret',
  'inotify_init', // each watch pins an inode
  'inotify_init1',
  'fanotify_init',
  'io_uring_setup', // kernel rings and buffers; attack surface
  'userfaultfd', // attack surface, as the next two
  'bpf',
  'perf_event_open',
];

/** One architecture: its audit number and the syscall numbers of {@link DENIED_SYSCALLS}. */
interface Abi {
  audit: number;
  /** Numbers at or above this are another ABI's (x32 on x86-64), refused as a block. */
  foreignFrom?: number;
  /** Missing: the architecture has no such syscall (arm64 has no `inotify_init`). */
  numbers: Record<string, number | undefined>;
}

// from the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl; include/uapi/asm-generic/unistd.h)
const ABIS: Partial<Record<NodeJS.Architecture, Abi>> = {
  x64: {
    audit: 0xc000003e, // AUDIT_ARCH_X86_64
    foreignFrom: 0x40000000, // __X32_SYSCALL_BIT
    numbers: { socket: 41, socketpair: 53, shmget: 29, msgget: 68, memfd_create: 319, memfd_secret: 447, inotify_init: 253, inotify_init1: 294, fanotify_init: 300, io_uring_setup: 425, userfaultfd: 323, bpf: 321, perf_event_open: 298 },
  },
  arm64: {
    audit: 0xc00000b7, // AUDIT_ARCH_AARCH64
    numbers: { socket: 198, socketpair: 199, shmget: 194, msgget: 186, memfd_create: 279, memfd_secret: 447, inotify_init1: 26, fanotify_init: 262, io_uring_setup: 425, userfaultfd: 282, bpf: 280, perf_event_open: 241 },
  },
};

// classic BPF (linux/filter.h, linux/seccomp.h)
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_EPERM = 0x00050000 | 1;
const NR_OFFSET = 0; // struct seccomp_data: int nr; __u32 arch; ...
const ARCH_OFFSET = 4;

/**
 * The filter for `arch` (default: this process's), as the bytes bwrap reads: an array of
 * `struct sock_filter` in this machine's byte order. Null where no table exists for `arch` (the
 * Python sandbox then refuses to run: {@link seccompProblem}).
 */
export function seccompFilter(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const abi = ABIS[arch];
  if (!abi) return null;
  const prog: [number, number, number, number][] = [];
  const denied = DENIED_SYSCALLS.map((name) => abi.numbers[name]).filter((nr): nr is number => nr !== undefined);
  // tail, from the end: [..., ret ALLOW, ret EPERM, ret KILL]
  prog.push([LD_W_ABS, 0, 0, ARCH_OFFSET]);
  const afterArch = prog.length;
  prog.push([JEQ_K, 0, 0 /* to KILL, patched */, abi.audit]);
  prog.push([LD_W_ABS, 0, 0, NR_OFFSET]);
  const foreign = abi.foreignFrom === undefined ? -1 : prog.length;
  if (abi.foreignFrom !== undefined) prog.push([JGE_K, 0 /* to EPERM, patched */, 0, abi.foreignFrom]);
  const firstDenied = prog.length;
  for (const nr of denied) prog.push([JEQ_K, 0 /* to EPERM, patched */, 0, nr]);
  const allow = prog.length;
  prog.push([RET_K, 0, 0, RET_ALLOW]);
  const eperm = prog.length;
  prog.push([RET_K, 0, 0, RET_EPERM]);
  const kill = prog.length;
  prog.push([RET_K, 0, 0, RET_KILL_PROCESS]);
  // jumps are relative to the next instruction
  prog[afterArch][3] = abi.audit;
  prog[afterArch][2] = kill - (afterArch + 1);
  if (foreign >= 0) prog[foreign][1] = eperm - (foreign + 1);
  for (let i = firstDenied; i < allow; i++) prog[i][1] = eperm - (i + 1);
  const out = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

/** Why the filter cannot be made here (an architecture without a table), or null. */
export function seccompProblem(arch: NodeJS.Architecture = process.arch): string | null {
  return ABIS[arch] ? null : `the Python sandbox's seccomp filter has no syscall table for ${arch} (only x64 and arm64)`;
}

/** This machine's filter, built once (every sandbox spawn sends it). */
let ownFilter: Buffer | undefined;

/**
 * Spawns a sandbox command line that carries `--seccomp SECCOMP_FD` (python-runner.ts
 * `pythonCommand`): `stdio` (the caller's descriptors from 0) is padded to SECCOMP_FD, where a
 * pipe carries the filter, written and closed at once. Nothing else changes from `spawn`. A
 * command line without the flag (a test's, showing what the namespaces do alone) gets no such
 * pipe: bwrap would pass an unread descriptor on to the program.
 */
export function spawnFiltered(command: readonly string[], options: Omit<SpawnOptions, 'stdio'> & { stdio: ('pipe' | 'ignore')[] }): ChildProcess {
  const [cmd, ...args] = command;
  if (!command.includes('--seccomp')) return spawn(cmd, args, options);
  const stdio: ('pipe' | 'ignore')[] = [...options.stdio];
  while (stdio.length < SECCOMP_FD) stdio.push('ignore');
  stdio[SECCOMP_FD] = 'pipe';
  const child = spawn(cmd, args, { ...options, stdio });
  const pipe = (child.stdio as unknown as (Writable | null)[])[SECCOMP_FD];
  // a sandbox that dies before reading it closes the pipe: its exit says why
  pipe?.on('error', () => undefined);
  pipe?.end((ownFilter ??= seccompFilter() ?? Buffer.alloc(0)));
  return child;
}
