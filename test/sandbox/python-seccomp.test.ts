/**
 * The Python sandbox's seccomp filter (src/sandbox/seccomp.ts): the filter's bytes, run through a
 * classic-BPF interpreter here, refuse exactly the listed syscalls on both architectures, kill a
 * syscall of another ABI and refuse x32's numbers; and in every Python mode, a program cannot get
 * the kernel memory those syscalls hand out (the SysV segment that held 2.5 GB under a 128 MB
 * limit, socket buffers, memfds, message queues) while pipes, forks and the rest still work.
 */
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { createSandbox, pythonSandboxProblem } from '../../src/sandbox';
import { DENIED_SYSCALLS, SECCOMP_FD, seccompFilter, seccompProblem, spawnFiltered } from '../../src/sandbox/seccomp';
import { PythonLauncher } from '../../src/sandbox/python-launcher';
import { pythonCommand, DEFAULT_PYTHON_PATHS } from '../../src/sandbox/python-runner';

const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050001;
const RET_KILL_PROCESS = 0x80000000;

/** Runs a seccomp filter (only the instructions a filter of this kind may hold) on one syscall. */
function runFilter(filter: Buffer, arch: number, nr: number): number {
  expect(filter.length % 8).toBe(0);
  let acc = 0;
  for (let pc = 0; pc < filter.length / 8; ) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    pc++;
    if (code === 0x20) {
      if (k === 0) acc = nr >>> 0;
      else if (k === 4) acc = arch >>> 0;
      else throw new Error(`load of offset ${k}`);
    } else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x06) return k >>> 0;
    else throw new Error(`opcode ${code.toString(16)}`);
  }
  throw new Error('fell off the end of the filter');
}

const X64 = 0xc000003e;
const ARM64 = 0xc00000b7;
const I386 = 0x40000003;
const X64_DENIED: Record<string, number> = { socket: 41, socketpair: 53, shmget: 29, msgget: 68, memfd_create: 319, memfd_secret: 447, inotify_init: 253, inotify_init1: 294, fanotify_init: 300, io_uring_setup: 425, userfaultfd: 323, bpf: 321, perf_event_open: 298 };
// read, write, open, close, mmap, munmap, brk, pipe, clone, fork, execve, kill, unshare, pipe2, clone3, prctl, capset, setrlimit, wait4, openat
const X64_ALLOWED = [0, 1, 2, 3, 9, 11, 12, 22, 56, 57, 59, 62, 272, 293, 435, 157, 126, 160, 61, 257];
const ARM64_DENIED: Record<string, number> = { socket: 198, socketpair: 199, shmget: 194, msgget: 186, memfd_create: 279, memfd_secret: 447, inotify_init1: 26, fanotify_init: 262, io_uring_setup: 425, userfaultfd: 282, bpf: 280, perf_event_open: 241 };
// io_setup (0: a syscall missing from the table must not turn into number 0), read, write, openat, close, mmap, clone, execve, pipe2, unshare, clone3, wait4
const ARM64_ALLOWED = [0, 63, 64, 56, 57, 222, 220, 221, 59, 97, 435, 260];

describe('the seccomp filter, run through a BPF interpreter', () => {
  test('x86-64: each listed syscall is refused with EPERM; the syscalls a sandbox needs are allowed', () => {
    const f = seccompFilter('x64')!;
    expect(Object.keys(X64_DENIED).sort()).toEqual([...DENIED_SYSCALLS].sort());
    for (const [name, nr] of Object.entries(X64_DENIED)) expect([name, runFilter(f, X64, nr)]).toEqual([name, RET_EPERM]);
    for (const nr of X64_ALLOWED) expect([nr, runFilter(f, X64, nr)]).toEqual([nr, RET_ALLOW]);
  });

  test("x86-64: x32's numbers (bit 30) are refused, whatever the number; another ABI's syscall (i386 through int 0x80) kills the process", () => {
    const f = seccompFilter('x64')!;
    for (const nr of [0x40000000, 0x40000000 | 41, 0x40000000 | 0, 0x7fffffff, 0xffffffff]) expect([nr, runFilter(f, X64, nr)]).toEqual([nr, RET_EPERM]);
    for (const nr of [0, 1, 102, 359]) expect(runFilter(f, I386, nr)).toBe(RET_KILL_PROCESS);
    expect(runFilter(f, ARM64, 0)).toBe(RET_KILL_PROCESS);
  });

  test('arm64: the same list by its own numbers; x86-64 syscalls kill', () => {
    const f = seccompFilter('arm64')!;
    expect(Object.keys(ARM64_DENIED).sort()).toEqual(DENIED_SYSCALLS.filter((n) => n !== 'inotify_init').sort());
    for (const [name, nr] of Object.entries(ARM64_DENIED)) expect([name, runFilter(f, ARM64, nr)]).toEqual([name, RET_EPERM]);
    for (const nr of ARM64_ALLOWED) expect([nr, runFilter(f, ARM64, nr)]).toEqual([nr, RET_ALLOW]);
    // arm64 has no second numbering: a large number is simply not on the list
    expect(runFilter(f, ARM64, 0x40000000 | 198)).toBe(RET_ALLOW);
    expect(runFilter(f, X64, 41)).toBe(RET_KILL_PROCESS);
  });

  test('an architecture without a table gets no filter, and the Python sandbox says why instead of running unfiltered', () => {
    expect(seccompFilter('riscv64')).toBeNull();
    expect(seccompProblem('riscv64')).toBe("the Python sandbox's seccomp filter has no syscall table for riscv64 (only x64 and arm64)");
    expect(seccompProblem('x64')).toBeNull();
    expect(seccompProblem('arm64')).toBeNull();
    expect(pythonSandboxProblem({ bwrap: '/bin/sh', python: '/bin/sh' }, 'riscv64')).toBe(seccompProblem('riscv64'));
    expect(pythonSandboxProblem({ bwrap: '/bin/sh', python: '/bin/sh' }, 'x64')).toBeNull();
  });

  test("bwrap's command line reads the filter from the descriptor the spawn fills, ahead of the command", () => {
    const cmd = pythonCommand(DEFAULT_PYTHON_PATHS, 'pass');
    const at = cmd.indexOf('--seccomp');
    expect(at).toBeGreaterThan(0);
    expect(cmd[at + 1]).toBe(String(SECCOMP_FD));
    expect(at).toBeLessThan(cmd.indexOf('--'));
  });
});

describe('spawnFiltered', () => {
  const stdout = (command: string[]): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const child = spawnFiltered(command, { stdio: ['ignore', 'pipe', 'ignore'] });
      const chunks: Buffer[] = [];
      child.stdout!.on('data', (d: Buffer) => chunks.push(d));
      child.on('error', reject);
      child.on('close', () => resolve(Buffer.concat(chunks)));
    });

  test('a command line carrying --seccomp reads exactly the filter on its descriptor 9; one without it gets no descriptor 9', async () => {
    expect(await stdout(['/bin/sh', '-c', 'cat <&9', '--seccomp'])).toEqual(seccompFilter());
    const fds = (await stdout(['/bin/sh', '-c', 'ls /proc/self/fd'])).toString().split(/\s+/).filter(Boolean).map(Number);
    expect(fds).toContain(1);
    expect(fds).not.toContain(SECCOMP_FD);
  });

  test('a sandbox program that cannot start: the spawn error, and no stray EPIPE from the filter pipe', async () => {
    const child = spawnFiltered(['/nonexistent/bwrap', '--seccomp', String(SECCOMP_FD)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const pipe = (child.stdio as unknown as (Writable | null)[])[SECCOMP_FD]!;
    const [error] = await Promise.all([new Promise<NodeJS.ErrnoException>((resolve) => child.on('error', resolve)), new Promise((resolve) => pipe.on('close', resolve))]);
    expect(error.code).toBe('ENOENT');
    expect(pipe.listenerCount('error')).toBeGreaterThan(0); // the EPIPE of its write, had it no listener, would be thrown
  });
});

const problem = pythonSandboxProblem();
const describeSandbox = problem ? describe.skip : describe;

const PROBE = `
import os, socket, ctypes
def probe(what):
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        if what == 'socketpair':
            socket.socketpair()
        elif what == 'socket':
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        elif what == 'memfd':
            os.memfd_create('x')
        elif what == 'inotify':
            r = libc.inotify_init1(0)
            return [what, r, ctypes.get_errno()]
        elif what in ('shmget', 'msgget'):
            r = getattr(libc, what)(0, 1 << 20, 0o1600) if what == 'shmget' else libc.msgget(0, 0o1600)
            return [what, r, ctypes.get_errno()]
        elif what == 'x32-socket':
            return [what, libc.syscall(0x40000000 | 41, 1, 1, 0), ctypes.get_errno()]
        elif what == 'pipe-fork':
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.write(w, b'child')
                os._exit(0)
            os.waitpid(pid, 0)
            return [what, os.read(r, 5).decode()]
        return [what, 'allowed']
    except OSError as e:
        return [what, 'errno', e.errno]
`;

// one SysV segment of 64 MB after another, each touched and detached: 2.5 GB held without the filter
const SHM_HOARD = `
import ctypes
def hoard(n):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmat.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
    libc.shmdt.argtypes = (ctypes.c_void_p,)
    held = 0
    for i in range(n):
        sid = libc.shmget(0, 64 << 20, 0o1600)
        if sid < 0:
            break
        p = libc.shmat(sid, None, 0)
        ctypes.memset(p, 1, 64 << 20)
        libc.shmdt(ctypes.c_void_p(p))
        held += 64
    return held
`;

describeSandbox('every Python mode runs under the filter', () => {
  for (const pythonMode of ['fresh-sandbox', 'launcher', 'fork-server'] as const) {
    test(`${pythonMode}: sockets, memfds, inotify, SysV segments and queues, x32 numbers refused with EPERM; pipes and forks work`, async () => {
      const sb = createSandbox({ concurrency: 1, pythonMode });
      try {
        const got: unknown[] = [];
        for (const what of ['socketpair', 'socket', 'memfd', 'inotify', 'shmget', 'msgget', 'x32-socket', 'pipe-fork']) {
          const r = await sb.code.run({ language: 'python', program: PROBE, entry: 'probe', tests: [{ input: [what] }], limits: { timeMs: 20_000 } });
          expect([what, r.code, r.message]).toEqual([what, 'ok', undefined]);
          got.push(r.tests[0].actual);
        }
        expect(got).toEqual([
          ['socketpair', 'errno', 1],
          ['socket', 'errno', 1],
          ['memfd', 'errno', 1],
          ['inotify', -1, 1],
          ['shmget', -1, 1],
          ['msgget', -1, 1],
          ['x32-socket', -1, 1],
          ['pipe-fork', 'child'],
        ]);
      } finally {
        await sb.close();
      }
    }, 120_000);

    test(`${pythonMode}: the SysV hoard that held 2.5 GB under a 128 MB limit gets no segment`, async () => {
      const sb = createSandbox({ concurrency: 1, pythonMode });
      try {
        const r = await sb.code.run({ language: 'python', program: SHM_HOARD, entry: 'hoard', tests: [{ input: [40] }], limits: { timeMs: 20_000, memoryMb: 128 } });
        expect([r.code, r.tests[0]?.actual]).toEqual(['ok', 0]);
      } finally {
        await sb.close();
      }
    }, 60_000);
  }

  test("a slot server's handles are held and let go run after run without a listener piling up on the filter's closed pipe", async () => {
    const l = new PythonLauncher();
    try {
      const connectListeners = (): number => {
        const child = (l as unknown as { child: ChildProcess | null }).child!;
        return (child.stdio as unknown as (Writable | null)[])[SECCOMP_FD]!.listenerCount('connect');
      };
      for (let i = 0; i < 12; i++) {
        const r = await l.run({ program: 'def f(x):\n    return x', entry: 'f', inputs: [[i]], limits: { timeMs: 20_000, memoryMb: 128, outputBytes: 10_000 } });
        expect(r.code).toBe('ok');
      }
      // ref() on a closed socket adds a 'connect' listener each time (12 runs: 24 without the check)
      expect(connectListeners()).toBe(0);
    } finally {
      await l.close();
    }
  }, 120_000);
});
