/**
 * The fork server's machine-code init on x86-64 (python-fork-init.ts): the bytes are the assembly
 * of the source shown beside them, and every way a program's process can end reaches the host as
 * through a bubblewrap sandbox per program (its exit status, a signal, orphans reaped by the init
 * while the program still runs), and as through the slot loop's Python init, which the fork server
 * keeps for other machines. `start_run` keeps the System V ABI's callee-saved registers and the
 * stack pointer where it returns, in the server and in the program's process (called from a
 * wrapper of known register values; the Python that calls it through ctypes does not notice a
 * lost r12 or r13, so no run through the server could show one: stryker/asm-mutants.cjs found
 * those mutants alive). A program's process of the fork server faults in fewer pages than one of
 * a server that skips the slot loop's `_copied_at_fork` (no other test saw that step), and none of
 * its mappings is both writable and executable (that step makes the code writable for a moment). What the
 * init may not give a program (capabilities, descriptors,
 * its memory, which is the server's) is python-slot-server.test.ts, for both kinds of server.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, pythonSandboxProblem, type Sandbox } from '../../src/sandbox';
import { FORK_INIT_X86_64_HEX, FORK_INIT_X86_64_SOURCE, PYTHON_MACHINE_INIT } from '../../src/sandbox/python-fork-init';
import { PYTHON_FORK_SERVER, PythonForkServer } from '../../src/sandbox/python-fork-server';
import { pythonCommand } from '../../src/sandbox/python-runner';
import type { SlotServerStart } from '../../src/sandbox/python-slot-server';
import { EXIT_IF_OPEN, REPLACED_LIBC } from './python-probes';

/** A fork server whose Python has `from` replaced by `to` (which must be there). */
class EditedForkServer extends PythonForkServer {
  constructor(
    private readonly from: string,
    private readonly to: string,
  ) {
    super();
  }
  protected override prepare(): Promise<SlotServerStart> {
    const code = PYTHON_FORK_SERVER.replace(this.from, this.to);
    expect(code).not.toBe(PYTHON_FORK_SERVER);
    return Promise.resolve({ command: pythonCommand(this.paths, code, { nestedUserNamespaces: true }), prefix: Buffer.alloc(0) });
  }
}
/** A fork server with the slot loop's Python init, as on a machine that is not x86-64. */
const pythonInitServer = () => new EditedForkServer('if posix.uname().machine != "x86_64":', 'if True:');
/** A fork server whose slot loop skips `_copied_at_fork` (its runs fault in the code the server mapped, page by page). */
const uncopiedServer = () => new EditedForkServer('    _copied_at_fork(libc)\n', '    pass\n');
/** A fork server whose slot loop leaves its objects to the collector (`gc.unfreeze()` after its `gc.freeze()`). */
const unfrozenServer = () => new EditedForkServer('    posix.write(3, b"ready\\n")', '    gc.unfreeze()\n    posix.write(3, b"ready\\n")');

const assembler = spawnSync('as', ['--version']).status === 0 && spawnSync('objcopy', ['--version']).status === 0;

/** An x86-64 source (GNU as, Intel syntax) assembled: its .text section's bytes, in hex. */
function assembled(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fork-init-'));
  try {
    writeFileSync(join(dir, 'a.s'), source);
    execFileSync('as', ['--64', '-o', join(dir, 'a.o'), join(dir, 'a.s')]);
    execFileSync('objcopy', ['-O', 'binary', '-j', '.text', join(dir, 'a.o'), join(dir, 'a.bin')]);
    return readFileSync(join(dir, 'a.bin')).toString('hex');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the machine-code init', () => {
  (assembler ? test : test.skip)('its bytes are the assembly of its source (GNU as and objcopy)', () => {
    expect(assembled(FORK_INIT_X86_64_SOURCE)).toBe(FORK_INIT_X86_64_HEX);
  });

  /**
   * long wrap(long *ctx, long *out, void *start_run): calls start_run(ctx) with known values in
   * rbx, rbp, r12–r15 and writes what they hold after it, then the stack pointer after and before
   * the call, to out[0..7].
   */
  const WRAPPER = `    .intel_syntax noprefix
    .text
wrap:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    push rsi
    mov [rsi+56], rsp
    movabs rbx, 0x1111111111111111
    movabs rbp, 0x2222222222222222
    movabs r12, 0x3333333333333333
    movabs r13, 0x4444444444444444
    movabs r14, 0x5555555555555555
    movabs r15, 0x6666666666666666
    call rdx
    mov rsi, [rsp]
    mov [rsi], rbx
    mov [rsi+8], rbp
    mov [rsi+16], r12
    mov [rsi+24], r13
    mov [rsi+32], r14
    mov [rsi+40], r15
    mov [rsi+48], rsp
    pop rsi
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
`;
  /**
   * Runs start_run (the bytes of FORK_INIT_X86_64_HEX) through the wrapper in a plain python3
   * (no sandbox: a clone with CLONE_VM | CLONE_VFORK and no namespace; the init drops its own
   * capabilities and forks the program's process as in the server). The program's process exits
   * 0 when its registers are the wrapper's (else 10 + the index of the first that is not), it
   * holds none of the caller's descriptors past 2 (else 20: the init closes them before the fork;
   * in the server one of them is the control channel) and no capability (else 30: the init drops
   * them; only a caller that has some, root, can tell). The server's side also reads its init's
   * stack: the init waits on its own stack (`ctx` + 64), where the program's wait status lands.
   * A second call, with a capability header capset refuses: the init ends with 121, no program.
   */
  const REGISTERS = String.raw`
import ctypes, json, os, sys
${EXIT_IF_OPEN}
wrapper, init = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
page = libc.mmap(None, 8192, 3, 0x22, -1, 0)
stack = libc.mmap(None, 65536, 3, 0x22, -1, 0)
ctypes.memmove(page, wrapper, len(wrapper))
ctypes.memmove(page + 4096, init, len(init))
assert libc.mprotect(page, 8192, 5) == 0
header = (ctypes.c_uint32 * 2)(0x20080522, 0)
data = (ctypes.c_uint32 * 6)()
ctx = (ctypes.c_uint64 * 12)()
ctx[7] = 0x100 | 0x4000 | 17  # CLONE_VM | CLONE_VFORK, SIGCHLD
ctx[8] = stack + 65536
ctx[9], ctx[10] = ctypes.addressof(header), ctypes.addressof(data)
out = (ctypes.c_uint64 * 8)()
wrap = ctypes.PYFUNCTYPE(ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(page)
expected = [0x1111111111111111 * k for k in range(1, 7)]
ctypes.memset(stack, 0xAA, 65536)
kept = os.pipe()  # descriptors past 2 that the init must close before it forks the program's process
pid = wrap(ctypes.addressof(ctx), ctypes.addressof(out), page + 4096)
seen = list(out[:6]) + [out[6] - out[7]]
if pid == 0:  # the program's process
    wrong = [i for i, (a, b) in enumerate(zip(seen, expected + [0])) if a != b]
    if wrong:
        os._exit(10 + wrong[0])
    exit_if_open(kept, 20)
    with open("/proc/self/status") as status:
        caps = [line.split()[1] for line in status if line.startswith("CapEff:")][0]
    os._exit(30 if int(caps, 16) else 0)
status = os.waitpid(pid, 0)[1]
on_stack = ctypes.c_uint32.from_address(stack + 65536 - 16).value
header[0] = 0  # no capability version: capset fails, and the init must end (121) before any program runs
failed = wrap(ctypes.addressof(ctx), ctypes.addressof(out), page + 4096)
if failed == 0:  # a program's process: it should never have been started
    os._exit(0)
print(json.dumps({"server": [hex(v) for v in seen], "initStack": hex(on_stack), "program": os.waitstatus_to_exitcode(status), "capsetFails": os.waitstatus_to_exitcode(os.waitpid(failed, 0)[1])}))
`;

  (assembler && arch() === 'x64' ? test : test.skip)('start_run keeps rbx, rbp, r12–r15 and the stack pointer, where the server called it and in the program\'s process; the init runs on its own stack, the program gets no descriptor past 2 and no capability from it, and none runs where the capability drop fails', () => {
    const r = spawnSync('python3', ['-I', '-c', REGISTERS, assembled(WRAPPER), FORK_INIT_X86_64_HEX], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      server: ['0x1111111111111111', '0x2222222222222222', '0x3333333333333333', '0x4444444444444444', '0x5555555555555555', '0x6666666666666666', '0x0'],
      initStack: '0x0', // the program's wait status (exit 0), written where the init's stack begins
      program: 0,
      capsetFails: 121, // the init's own failure, and no program's exit
    });
  });

  /**
   * `_machine_init` in a plain python3 with a C library whose `mmap` fails for the code's page or
   * the init's stack (it answers MAP_FAILED), or whose `mprotect` refuses: each time the server
   * must answer None (the slot loop's Python init then starts every run) and touch neither
   * mapping; with both mapped and protected, a start function. Prints what it answered in each
   * case. Then starts a run with that function (no namespace: the clone flags are SIGCHLD's), its
   * stack mapped so that it ends at a 4 GiB boundary (close_range's last descriptor, ~0U, must be
   * set: the low 32 bits of the stack top, left in esi by the clone, would be 0 there), and prints
   * the init's exit status and the wait status found at the top of that stack (the init waits there).
   * The program's process exits 20 if it holds either end of a pipe the caller opened, else 7.
   */
  const MAPPING = String.raw`
import ctypes, json, os, posix, sys
${EXIT_IF_OPEN}
${REPLACED_LIBC}
exec(sys.argv[1])
class _C:
    header = no_caps = 0
_CLONE_FLAGS = 0
real = ctypes.CDLL(None, use_errno=True)  # mmap typed here; real_libc's functions stay untyped until _machine_init types them
real.mmap.restype = ctypes.c_void_p
real.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
MAP_FAILED = ctypes.c_void_p(-1).value

def at_4gib_boundary(size):
    """A mapping of size bytes that ends at a multiple of 4 GiB (MAP_FIXED_NOREPLACE: none is replaced)."""
    for n in range(0x7000, 0x10, -0x100):
        want = (n << 32) - size
        got = real.mmap(want, size, 3, 0x22 | 0x100000, -1, 0)
        if got == want:
            return got
    raise OSError("no free address below a 4 GiB boundary")

class Mmap:
    """mmap answering MAP_FAILED at the calls listed in fails (0: the code's page, 1: the stack);
    with boundary, the stack ends at a 4 GiB boundary."""
    def __init__(self, fails, boundary=False):
        self.fails, self.calls, self.boundary, self.stack = fails, 0, boundary, None
    def __call__(self, *args):
        self.calls += 1
        if self.calls - 1 in self.fails:
            return MAP_FAILED
        if self.calls == 2 and self.boundary:
            self.stack = at_4gib_boundary(args[1])
            return self.stack
        return real.mmap(*args)

def answer(fails, replaced={}):
    start = _machine_init(Libc({"mmap": Mmap(fails), **replaced}), lambda: None)
    return "None" if start is None else "a start" if callable(start) else repr(start)

answers = {
    "both mapped": answer(()),
    "no page for the code": answer((0,)),
    "no stack": answer((1,)),
    "neither": answer((0, 1)),
    "mprotect refuses": answer((), {"mprotect": Answer(-1)}),
}
header, data = (ctypes.c_uint32 * 2)(0x20080522, 0), (ctypes.c_uint32 * 6)()
_C.header, _C.no_caps = ctypes.addressof(header), ctypes.addressof(data)
_CLONE_FLAGS = 17
kept = os.pipe()
def program():
    exit_if_open(kept, 20)
    os._exit(7)
mmap = Mmap((), boundary=True)
start = _machine_init(Libc({"mmap": mmap}), program)
top = mmap.stack + 65536
ctypes.memset(mmap.stack, 0xAA, 65536)
init = start()
answers["init"] = os.waitstatus_to_exitcode(os.waitpid(init, 0)[1])
answers["initStack"] = hex(ctypes.c_uint32.from_address(top - 16).value)
answers["stackTopLow32"] = top & 0xFFFFFFFF
print(json.dumps(answers))
`;

  (arch() === 'x64' ? test : test.skip)('a server that cannot map the code or its stack, or make the code executable, keeps the Python init (and touches no failed mapping); where it can, a run starts on the init\'s own stack, wherever that stack lies', () => {
    const r = spawnSync('python3', ['-I', '-c', MAPPING, PYTHON_MACHINE_INIT], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      'both mapped': 'a start',
      'no page for the code': 'None',
      'no stack': 'None',
      neither: 'None',
      'mprotect refuses': 'None',
      init: 7, // the program's exit: it held none of the caller's descriptors past 2
      initStack: '0x700', // its wait status, where the init's stack begins
      stackTopLow32: 0,
    });
  });

  test('the server maps it from those bytes, readable and executable, never writable', () => {
    expect(PYTHON_MACHINE_INIT).toContain(`bytes.fromhex("${FORK_INIT_X86_64_HEX}")`);
    expect(PYTHON_MACHINE_INIT).toMatch(/mprotect\(page, 4096, 5\)/); // PROT_READ | PROT_EXEC
  });
});

(arch() === 'x64' ? describe : describe.skip)('every end of a program through the machine-code init is what a bubblewrap sandbox per program reports', () => {
  let fork: Sandbox;
  let fresh: Sandbox;
  const machineInit = new PythonForkServer();
  const pythonInit = pythonInitServer();
  beforeAll(() => {
    expect(pythonSandboxProblem()).toBeNull();
    fork = createSandbox({ concurrency: 1, pythonMode: 'fork-server' });
    fresh = createSandbox({ concurrency: 1, pythonMode: 'fresh-sandbox' });
  });
  afterAll(() => Promise.all([fork.close(), fresh.close(), machineInit.close(), pythonInit.close()]));

  /** A Python expression: the minor page faults so far (field 10 of /proc/<pid>/stat) of the process the Python expression `pid` names. */
  const minorFaults = (pid: string) => `int(open("/proc/%s/stat" % ${pid}).read().rsplit(")", 1)[1].split()[7])`;

  /** Runs `program` (its `f` answers a number) on `server`: that number. */
  const numberFrom = async (server: PythonForkServer, program: string): Promise<number> => {
    const r = await server.run({ program, entry: 'f', inputs: [[]], limits: { timeMs: 5000, memoryMb: 128, outputBytes: 1_000 } });
    expect(r).toMatchObject({ code: 'ok', outputs: [{ code: 'ok' }] });
    return Number(r.outputs[0].text);
  };

  test("on x86-64 the run's init is the machine code: by the time the program runs, it has taken (almost) no page fault", async () => {
    // the Python init faults dozens of the server's pages in (its copy-on-write writes): the control
    const probe = `def f():\n    init = [line.split()[1] for line in open("/proc/self/status") if line.startswith("PPid:")][0]\n    return ${minorFaults('init')}`;
    const faults = (server: PythonForkServer) => numberFrom(server, probe);
    await faults(machineInit); // the first run maps the init's stack
    expect(await faults(machineInit)).toBeLessThan(5);
    expect(await faults(pythonInit)).toBeGreaterThan(20);
  });

  test("the program's process finds the code the server mapped: it faults in fewer pages than where the server skipped _copied_at_fork", async () => {
    // measured 2026-12-03: 209 against 288 minor faults per run (Python 3.11), the same in every run
    const probe = `def f():\n    return ${minorFaults('"self"')}`;
    const uncopied = uncopiedServer();
    try {
      const faults = (server: PythonForkServer) => numberFrom(server, probe);
      await Promise.all([faults(machineInit), faults(uncopied)]); // the first run of each maps what runs reuse
      expect(await faults(machineInit)).toBeLessThan((await faults(uncopied)) - 30);
    } finally {
      await uncopied.close();
    }
  });

  test("a collection in the program's process leaves the server's objects alone (gc.freeze): it faults in fewer pages than where the server unfroze them", async () => {
    // a full collection writes to every object it tracks: the server's, where they are not frozen, each page a
    // copy-on-write fault. Measured 2026-12-03: 22 against 159 minor faults (Python 3.11)
    const probe = `import gc\ndef f():\n    faults = lambda: ${minorFaults('"self"')}\n    before = faults()\n    gc.collect()\n    return faults() - before`;
    const unfrozen = unfrozenServer();
    try {
      const faults = (server: PythonForkServer) => numberFrom(server, probe);
      const [frozen, all] = [await faults(machineInit), await faults(unfrozen)];
      expect(frozen).toBeLessThan(all / 2);
    } finally {
      await unfrozen.close();
    }
  });

  test("no mapping of a program's process is both writable and executable (the code _copied_at_fork made writable for a moment, the init's page)", async () => {
    const probe = 'def f():\n    return [line.strip() for line in open("/proc/self/maps") if "w" in line.split()[1] and "x" in line.split()[1]]';
    const r = await machineInit.run({ program: probe, entry: 'f', inputs: [[]], limits: { timeMs: 5000, memoryMb: 128, outputBytes: 100_000 } });
    expect(r).toMatchObject({ code: 'ok', outputs: [{ code: 'ok', text: '[]' }] });
  });

  const ends: [string, string][] = [
    ['returns', 'def f():\n    return 7'],
    ['os._exit(3)', 'import os\ndef f():\n    os._exit(3)'],
    ['os._exit(0) while loading', 'import os\nos._exit(0)\ndef f():\n    return 1'],
    ['SIGTERM to itself', 'import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGTERM)'],
    ['SIGKILL to itself', 'import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGKILL)'],
    ['SIGSEGV to itself', 'import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGSEGV)'],
    // a grandchild orphaned to the init, which ends while the program runs: the init reaps it and waits on
    ['an orphan ends first', 'import os, time\ndef f():\n    if os.fork() == 0:\n        if os.fork() == 0:\n            time.sleep(0.1)\n            os._exit(9)\n        os._exit(0)\n    os.wait()\n    time.sleep(0.5)\n    return 5'],
    // an orphan still running when the program ends: it ends with the namespace, the run does not wait for it
    ['an orphan outlives it', 'import os, time\ndef f():\n    if os.fork() == 0:\n        if os.fork() == 0:\n            time.sleep(60)\n        os._exit(0)\n    os.wait()\n    return 6'],
  ];
  test.each(ends)('%s (and the same through the Python init kept for other machines)', async (_what, program) => {
    const run = (sb: Sandbox) => sb.code.run({ language: 'python', program, entry: 'f', tests: [{ input: [] }], limits: { timeMs: 5000, memoryMb: 128 } });
    const [a, b] = [await run(fork), await run(fresh)];
    expect({ code: a.code, message: a.message, tests: a.tests.map((t) => [t.code, t.actual, t.message]) }).toEqual({ code: b.code, message: b.message, tests: b.tests.map((t) => [t.code, t.actual, t.message]) });
    const batch = { program, entry: 'f', inputs: [[]], limits: { timeMs: 5000, memoryMb: 128, outputBytes: 1_000_000 } };
    const [m, p] = [await machineInit.run(batch), await pythonInit.run(batch)];
    expect(m).toEqual(p);
  });
});
