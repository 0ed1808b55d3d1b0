/**
 * The per-slot Python servers (python-slot-server.ts), in both kinds: the launcher
 * (`pythonMode: 'launcher'`, a fresh interpreter per program) and the fork server
 * (`pythonMode: 'fork-server'`). Nothing of one program reaches the next program run by the
 * same server — module globals, the environment, files, System V IPC objects, keys in the
 * kernel's keyrings, abstract sockets, processes left behind — and a run the server cannot end
 * (wall clock) costs only a restart. The same cross-run test runs against a bubblewrap sandbox
 * per program (`fresh-sandbox`). The escape corpus and the rlimit tests run in every mode too
 * (escape-python.test.ts, python-limits.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { createSandbox, pythonSandboxProblem, type PythonMode, type Sandbox } from '../../src/sandbox';
import type { CodeRunResult } from '../../src/core/sandbox';
import { PythonForkServer } from '../../src/sandbox/python-fork-server';
import { PythonLauncher } from '../../src/sandbox/python-launcher';
import { DEFAULT_PYTHON_PATHS, runPythonBatch } from '../../src/sandbox/python-runner';
import type { SlotServerStart } from '../../src/sandbox/python-slot-server';
import { eventually, processesNamed } from './processes';
import { unfiltered } from './unfiltered';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

/** Looks for every trace program A tries to leave (with `marker` and SysV `key`); answers what it finds. */
const look = (marker: string, key: number): string => `import os, sys, builtins, socket, ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, KEYCTL = {'x86_64': (248, 250), 'aarch64': (217, 219)}[os.uname().machine]
def f():
    seen = []
    if getattr(builtins, 'arena_mark', None) or getattr(sys, 'arena_mark', None) or getattr(os, 'arena_mark', None):
        seen.append('global')
    if os.environ.get('ARENA_MARK'):
        seen.append('environment')
    if os.path.exists('/tmp/${marker}') or os.path.exists('/${marker}'):
        seen.append('file')
    if libc.msgget(${key}, 0) >= 0:
        seen.append('sysv message queue')
    if libc.shmget(${key}, 0, 0) >= 0:
        seen.append('sysv shared memory')
    if libc.semget(${key}, 0, 0) >= 0:
        seen.append('sysv semaphore')
    for ring in (-3, -4, -5):  # session, user, user session keyrings
        if libc.syscall(KEYCTL, 10, ring, b'user', b'${marker}', 0) >= 0:  # KEYCTL_SEARCH
            seen.append('key %d' % ring)
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect('\\0${marker}')
        seen.append('abstract socket')
    except OSError:
        pass
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                if open('/proc/%s/comm' % p).read().strip() == '${marker}':
                    seen.append('process')
            except OSError:
                pass
    return seen`;

/** What a probe needs of a run's result. */
type Ran = Pick<CodeRunResult, 'code'> & { tests: { actual?: unknown }[] };

/**
 * A slot server of `kind` started without the seccomp filter: what its namespaces isolate on their
 * own (SysV objects and abstract sockets exist there), the run as `Ran`.
 */
function unfilteredServer(kind: 'launcher' | 'fork-server'): { run: (program: string) => Promise<Ran>; close: () => Promise<void> } {
  const server = kind === 'launcher' ? new PythonLauncher() : new PythonForkServer();
  const own = server as unknown as { prepare: () => Promise<SlotServerStart | string> };
  const prepare = own.prepare.bind(server);
  own.prepare = async () => {
    const how = await prepare();
    if (typeof how === 'string') return how;
    return { ...how, command: unfiltered(how.command) };
  };
  return {
    run: async (program) => {
      const r = await server.run({ program, entry: 'f', inputs: [[]], limits: { timeMs: 3000, memoryMb: 128, outputBytes: 100_000 } });
      const out = r.outputs[0];
      return { code: r.code === 'ok' && out?.code !== 'ok' ? (out?.code ?? r.code) : r.code, tests: [{ actual: out?.text ? JSON.parse(out.text) : undefined }] };
    },
    close: () => server.close(),
  };
}

/**
 * Program A leaves traces everywhere it can; program B, run next by `run`, sees none; and no
 * process A started outlives its run on the host.
 */
async function nothingCarriesOver(run: (program: string) => Promise<Ran>, filtered = true): Promise<void> {
  const marker = `m${randomBytes(5).toString('hex')}`;
  const key = 0x5a000000 + (randomBytes(2).readUInt16BE() << 4);
    const a = await run(`import os, sys, builtins, socket, ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, KEYCTL = {'x86_64': (248, 250), 'aarch64': (217, 219)}[os.uname().machine]
def f():
    left = []
    builtins.arena_mark = sys.arena_mark = os.arena_mark = 1
    os.environ['ARENA_MARK'] = '1'
    left.append('global')
    for path in ('/tmp/${marker}', '/${marker}'):
        try:
            open(path, 'w').write('x')
            left.append('file')
        except OSError:
            pass
    if libc.msgget(${key}, 0o1666) >= 0:  # IPC_CREAT, mode 666
        left.append('sysv message queue')
    if libc.shmget(${key}, 4096, 0o1666) >= 0:
        left.append('sysv shared memory')
    if libc.semget(${key}, 1, 0o1666) >= 0:
        left.append('sysv semaphore')
    for ring in (-3, -4, -5):
        if libc.syscall(ADD_KEY, b'user', b'${marker}', b'secret', 6, ring) >= 0:
            left.append('key %d' % ring)
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            open('/proc/self/comm', 'w').write('${marker}')
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.bind('\\0${marker}')
                s.listen(1)
                os.write(w, b'1')
            except OSError:  # no socket under the seccomp filter
                os.write(w, b'0')
            while True:
                time.sleep(0.05)
        os._exit(0)
    if os.read(r, 1) == b'1':
        left.append('abstract socket')
    left.append('process')
    return left`);
    expect(a.code).toBe('ok');
    // control: A did leave each trace inside its own run (files cannot be written at all; under the
    // seccomp filter no message queue, shared memory or socket can be made either)
    expect(a.tests[0].actual).toEqual(filtered ? ['global', 'sysv semaphore', 'key -3', 'key -4', 'key -5', 'process'] : ['global', 'sysv message queue', 'sysv shared memory', 'sysv semaphore', 'key -3', 'key -4', 'key -5', 'abstract socket', 'process']);
    const selfCheck = await run(look(marker, key).replace(/def f\(\):\n/, `def f():\n    builtins.arena_mark = 1\n`));
    expect(selfCheck.tests[0].actual).toEqual(['global']); // the probe sees a trace where there is one
    const b = await run(look(marker, key));
    expect(b.code).toBe('ok');
    expect(b.tests[0].actual).toEqual([]);
    expect(processesNamed(marker)).toEqual([]); // and the host sees no process A left
  }

describe.each([
  ["the launcher (a fresh interpreter per program)", 'launcher'],
  ['the fork server', 'fork-server'],
] as const)('Python per-slot server, %s: nothing of one program reaches the next', (_how, pythonMode: PythonMode) => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = createSandbox({ concurrency: 1, pythonMode }); // one slot: every run on the same server
  });
  afterAll(() => sb.close());

  const py = (program: string, timeMs = 3000): Promise<CodeRunResult> => sb.code.run({ language: 'python', program, entry: 'f', tests: [{ input: [] }], limits: { timeMs, memoryMb: 128 } });

  test('program A leaves traces everywhere it can; program B, on the same server, sees none', () => nothingCarriesOver(py));

  test('the same without the seccomp filter: the namespaces alone keep SysV objects and abstract sockets from the next program', async () => {
    const server = unfilteredServer(pythonMode as 'launcher' | 'fork-server');
    try {
      await nothingCarriesOver(server.run, false);
    } finally {
      await server.close();
    }
  });

  test('a run past its wall clock kills the server; the next run starts a fresh one', async () => {
    const name = `w${randomBytes(5).toString('hex')}`;
    const stuck = await py(`def f():\n    open('/proc/self/comm', 'w').write('${name}')\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass`, 300);
    expect(stuck.code).toBe('timeout');
    expect(await eventually(() => processesNamed(name).length === 0, 10_000)).toBe(true);
    const after = await py('def f():\n    return 7');
    expect(after).toMatchObject({ code: 'ok', tests: [{ code: 'ok', actual: 7 }] });
  });

  test('the program, and the init of its namespaces (to which the new user namespace gave every capability), hold none', async () => {
    // /proc is the sandbox's: the init of the program's namespaces is its parent there (pid 1 inside)
    const r = await py(`def f():
    def status(pid):
        return dict(line.split(':\\t', 1) for line in open('/proc/%s/status' % pid).read().splitlines() if ':\\t' in line)
    init = status('self')['PPid'].strip()
    out = {}
    for who, pid in (('program', 'self'), ('init', init)):
        for k, v in status(pid).items():
            if k in ('CapInh', 'CapPrm', 'CapEff', 'CapAmb'):
                out[who + ' ' + k] = int(v, 16)
    return [out, sorted(int(fd) for fd in __import__('os').listdir('/proc/self/fd')), __import__('os').getppid()]`);
    expect(r.code).toBe('ok');
    const [caps, fds, ppid] = r.tests[0].actual as [Record<string, number>, number[], number];
    expect(ppid).toBe(1); // that parent is the namespace's init
    expect(caps).toEqual({ 'program CapInh': 0, 'program CapPrm': 0, 'program CapEff': 0, 'program CapAmb': 0, 'init CapInh': 0, 'init CapPrm': 0, 'init CapEff': 0, 'init CapAmb': 0 });
    expect(fds.slice(0, 3)).toEqual([0, 1, 2]); // and the descriptor listdir opened: no control channel (3) among them
    expect(fds.length).toBeLessThanOrEqual(4);
  });

  test("the program cannot read or write the memory of its namespace's init (the fork server's init shares the live server's memory), nor trace it", async () => {
    // what the program can do to the memory of process pid; the same probe against a child of its own is the control
    const probe = `import os, ctypes, signal, time
libc = ctypes.CDLL(None, use_errno=True)
def reach(pid, proc):
    """pid: in the program's pid namespace; proc: the same process in the sandbox's /proc."""
    got = []
    for mode in ('rb', 'r+b'):
        try:
            with open('/proc/%d/mem' % proc, mode, buffering=0):
                got.append('mem ' + mode)
        except OSError:
            pass
    buf = ctypes.create_string_buffer(8)
    local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 8)  # one iovec
    remote = (ctypes.c_void_p * 2)(id(None), 8)  # None: at the same address in every copy of the interpreter
    if libc.process_vm_readv(pid, local, 1, remote, 1, 0) == 8:
        got.append('process_vm_readv')
    if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
        got.append('ptrace')
        libc.ptrace(17, pid, None, None)  # PTRACE_DETACH
    return got
def f():
    # /proc is the sandbox's: the init of the program's namespaces is its parent there (pid 1 inside)
    init = int([line.split()[1] for line in open('/proc/self/status') if line.startswith('PPid:')][0])
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(w, open('/proc/self/status').read().split('\\nPid:')[1].split()[0].encode() + b'\\n')
        time.sleep(30)
        os._exit(0)
    try:
        mine = int(os.read(r, 100))
        return [reach(1, init), reach(child, mine)]
    finally:
        os.kill(child, signal.SIGKILL)`;
    const r = await py(probe);
    expect(r.code).toBe('ok');
    const [init, control] = r.tests[0].actual as [string[], string[]];
    expect(control).toEqual(['mem rb', 'mem r+b', 'process_vm_readv', 'ptrace']); // the probe finds access where there is some
    expect(init).toEqual([]);
  });

  test("the program's code and constants are mapped as in a fresh interpreter (the server's page-table trick restores every protection)", async () => {
    const probe = `def f():
    maps = [line.split() for line in open('/proc/self/maps')]
    # (the trick may merge neighbouring mappings of a file: compared as kinds of mapping, not as a list)
    return sorted(set(m[1] + ' ' + m[5].split('/')[-1] for m in maps if len(m) >= 6 and m[5].split('/')[-1] in ('python3.11', 'libc.so.6', 'ld-linux-x86-64.so.2')))`;
    const forked = await py(probe);
    const fresh = await runPythonBatch({ program: probe, entry: 'f', inputs: [[]], limits: { timeMs: 3000, memoryMb: 128, outputBytes: 100_000 } });
    expect(forked.code).toBe('ok');
    const mine = forked.tests[0].actual as string[];
    expect(mine.length).toBeGreaterThanOrEqual(9); // read-only, code, constants and data of each file
    expect(mine.filter((m) => m.startsWith('rwx') || m.startsWith('-wx'))).toEqual([]);
    expect(mine).toEqual(JSON.parse(fresh.outputs[0].text!));
  });

  test("each program has a network namespace of its own, with nothing up: not even the server's loopback, where sockets (TIME_WAIT ones too) outlive a program", async () => {
    const connect = `import socket, errno\ndef f():\n    try:\n        s = socket.socket()\n        s.connect(('127.0.0.1', 9))\n        return 'connected'\n    except OSError as e:\n        return errno.errorcode.get(e.errno, str(e.errno))`;
    // the namespace alone (no filter): a socket, and no network (on the sandbox's own loopback: ECONNREFUSED)
    const server = unfilteredServer(pythonMode as 'launcher' | 'fork-server');
    try {
      expect((await server.run(connect)).tests[0].actual).toBe('ENETUNREACH');
    } finally {
      await server.close();
    }
    // as the arena runs it: no socket at all
    expect((await py(connect)).tests[0].actual).toBe('EPERM');
  });

  test("a program that signals its namespace's init (pid 1) changes nothing; its own SIGINT is still Python's KeyboardInterrupt", async () => {
    // (SIGINT: the server's Python handler, were init to keep it, would end init, and the run with it)
    const r = await py(`import os, signal, time\ndef f():\n    for s in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGSTOP):\n        os.kill(1, s)\n    time.sleep(0.3)\n    try:\n        os.kill(os.getpid(), signal.SIGINT)\n        time.sleep(1)\n    except KeyboardInterrupt:\n        return os.getppid()`);
    expect(r).toMatchObject({ code: 'ok', tests: [{ code: 'ok', actual: 1 }] });
  });

  test('each program gets its own process, pid namespace and user namespace', async () => {
    const probe = `import os\ndef f():\n    return [os.getpid(), os.readlink('/proc/self/ns/user'), os.readlink('/proc/self/ns/pid')]`;
    const [x, y] = [await py(probe), await py(probe)];
    const [px, ux, nx] = x.tests[0].actual as [number, string, string];
    const [py2, uy, ny] = y.tests[0].actual as [number, string, string];
    expect(px).toBe(2); // the namespace's init is 1, the program 2: a namespace of its own
    expect(py2).toBe(2); // in a shared pid namespace the second program would have a later pid
    // Namespace inode numbers are no evidence across runs: the kernel hands a freed namespace's
    // number to the next one (the first program's namespaces are gone when the second starts), so
    // equal numbers are allowed here. That the user namespace is the program's own is shown by the
    // test above (keyrings, SysV IPC: state scoped to the user and IPC namespaces does not carry).
    for (const ns of [ux, uy]) expect(ns).toMatch(/^user:\[\d+\]$/);
    for (const ns of [nx, ny]) expect(ns).toMatch(/^pid:\[\d+\]$/);
  });
});

describe('a bubblewrap sandbox per program: nothing of one program reaches the next either', () => {
  let fresh: Sandbox;
  beforeAll(() => {
    fresh = createSandbox({ concurrency: 1, pythonMode: 'fresh-sandbox' });
  });
  afterAll(() => fresh.close());

  test('program A leaves traces everywhere it can; program B sees none', () =>
    nothingCarriesOver((program) => fresh.code.run({ language: 'python', program, entry: 'f', tests: [{ input: [] }], limits: { timeMs: 3000, memoryMb: 128 } })));
});

describe('a per-slot server that cannot start names itself', () => {
  test.each([
    ['launcher', 'the Python launcher'],
    ['fork-server', 'the Python fork server'],
  ] as const)('%s with no Python there: sandbox-error "%s did not start"', async (pythonMode, name) => {
    const sb = createSandbox({ concurrency: 1, pythonMode, python: { ...DEFAULT_PYTHON_PATHS, python: '/bin/false' } });
    try {
      const r = await sb.code.run({ language: 'python', program: 'def f():\n    return 1', entry: 'f', tests: [{ input: [] }] });
      expect(r).toMatchObject({ code: 'sandbox-error', message: expect.stringContaining(`${name} did not start`) });
    } finally {
      await sb.close();
    }
  });
});
