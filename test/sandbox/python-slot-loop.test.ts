/**
 * The slot loop's Python init (python-slot-server.ts `PYTHON_SLOT_LOOP`: `_init` and `_code`),
 * run in a plain python3 with its C calls and the program's start replaced, in a fork that stands
 * for the run's init. Through a real server a program cannot tell its init's descriptors or a
 * failed capability drop apart (the launcher's program is a fresh interpreter, and no capset fails
 * on these machines), so stryker/python-mutants.cjs found those lines' mutants alive: here the
 * init must close every descriptor past 2 (and only those) before it starts the program, end with
 * 121 (no program) when the capability drop or the program's start fails, wait for the program
 * and no other child (in a run, the orphans its pid namespace gives it: they end with the init),
 * and end as the program did (128 + n for a death by signal n, as bwrap reports one).
 */
import { spawnSync } from 'node:child_process';
import { PYTHON_SLOT_LOOP } from '../../src/sandbox/python-slot-server';
import { EXIT_IF_OPEN, REPLACED_LIBC } from './python-probes';

/** The loop's definitions without its last line (`_serve_forever()`, which would start serving). */
const definitions = (): string => {
  const lines = PYTHON_SLOT_LOOP.trimEnd().split('\n');
  expect(lines[lines.length - 1]).toBe('_serve_forever()');
  return lines.slice(0, -1).join('\n');
};

/**
 * Each case forks; the child runs `_init()` with `_C.capset` answering `capset` and a
 * `_start_program` that forks two other children of the init (one ends at once with exit 5, one
 * sleeps, still running when the program ends: the init must not wait for it) and the program,
 * which exits 20 if it holds either end of a pipe the caller opened, 21 if its stdout is closed,
 * else ends as `ends` says. Prints each case's exit status as the caller's `waitpid` sees it, and
 * whether the sleeping child was still alive when the init had ended, and whether the init blocked in
 * `waitpid` or polled (each of its calls counted).
 */
const SCRIPT = String.raw`
import json, os, posix, signal, sys, tempfile, time
${EXIT_IF_OPEN}
exec(sys.stdin.read())
folder = tempfile.mkdtemp()

def case(capset, ends):
    kept = os.pipe()
    _C.capset = lambda header, data: capset
    _C.header = _C.no_caps = 0
    def start():
        if ends == "raise":
            raise OSError("no program")
        if os.fork() == 0:
            os._exit(5)  # another child of the init, which ends first: not the program
        sleeper = os.fork()
        if sleeper == 0:
            time.sleep(60)  # another, still running when the program ends
            os._exit(6)
        with open(os.path.join(folder, "sleeper"), "w") as f:
            f.write(str(sleeper))
        program = os.fork()
        if program == 0:
            os.setsid()  # as both servers' programs: a session (and process group) of its own
            exit_if_open(kept, 20)
            try:
                os.fstat(1)
            except OSError:
                os._exit(21)
            time.sleep(0.2)
            if ends == "SIGTERM":
                os.kill(os.getpid(), signal.SIGTERM)
            os._exit(ends)
        return program
    globals()["_start_program"] = start
    waits = os.path.join(folder, "waits")
    pid = os.fork()
    if pid == 0:
        blocking = posix.waitpid
        def waitpid(pid, options):  # counted: one line per call
            with open(waits, "a") as f:
                f.write("\n")
            return blocking(pid, options)
        posix.waitpid = waitpid
        _init()
        os._exit(99)  # _init never returns
    for fd in kept:
        os.close(fd)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    try:
        with open(waits) as f:
            calls = len(f.read())
        os.remove(waits)
    except OSError:
        calls = 0
    try:
        with open(os.path.join(folder, "sleeper")) as f:
            sleeper = int(f.read())
        os.remove(os.path.join(folder, "sleeper"))
    except OSError:
        return code  # no program was started
    with open("/proc/%d/stat" % sleeper) as f:
        alive = f.read().rsplit(")", 1)[1].split()[0] != "Z"
    os.kill(sleeper, signal.SIGKILL)
    # two children end while the init waits (the one that exits 5 and the program): a blocking waitpid
    # returns at most twice, a polling one (WNOHANG) hundreds of times while the program sleeps
    return [code, "the other child outlived the init" if alive else "the init waited for the other child",
            "the init blocked in waitpid" if calls <= 2 else "the init polled (%d calls)" % calls]

print(json.dumps({
    "exits 7": case(0, 7),
    "exits 0": case(0, 0),
    "SIGTERM": case(0, "SIGTERM"),
    "capset fails": case(-1, 7),
    "start fails": case(0, "raise"),
    "codes": [_code(0), _code(3 << 8), _code(signal.SIGKILL), _code(signal.SIGTERM)],
}))
os.rmdir(folder)
`;

test("the slot loop's Python init closes descriptors past 2, drops capabilities or ends with 121, and ends as its program did", () => {
  const r = spawnSync('python3', ['-I', '-c', SCRIPT], { input: definitions(), encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({
    'exits 7': [7, 'the other child outlived the init', 'the init blocked in waitpid'],
    'exits 0': [0, 'the other child outlived the init', 'the init blocked in waitpid'],
    SIGTERM: [128 + 15, 'the other child outlived the init', 'the init blocked in waitpid'],
    'capset fails': 121,
    'start fails': 121,
    codes: [0, 3, 128 + 9, 128 + 15],
  });
});

/**
 * The server's own start and loop (`_serve_forever`), run in a fork of a plain python3 whose C
 * library has some functions replaced (`ctypes.CDLL` answers it) and whose `_prepare` gives a
 * `start` that notes it was called and answers -1 (no run). The server reads requests on fd 0 and
 * says `ready` on fd 3 (pipes of the caller's); it also inherits both ends of another pipe, which it
 * must close before it says ready (in a sandbox bwrap gives none, but a server that kept one would
 * hand it to every run's init). Prints, for each case: the server's exit status, what it wrote on
 * fd 3, the descriptors past 3 it held once ready (None if it never was), and whether a run started.
 */
const SERVER = String.raw`
import ctypes, json, os, posix, sys, tempfile
exec(sys.stdin.read())
folder = tempfile.mkdtemp()
${REPLACED_LIBC}

def serve(replaced, request):
    requests, control, extra = os.pipe(), os.pipe(), os.pipe()
    started = os.path.join(folder, "started")
    pid = os.fork()
    if pid == 0:
        os.dup2(requests[0], 0)
        os.dup2(control[1], 3)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        for fd in {requests[0], requests[1], control[0], control[1], null} - {0, 1, 2, 3}:
            os.close(fd)
        ctypes.CDLL = lambda name, use_errno=False: Libc(replaced)
        def start():
            open(started, "w").close()
            return -1
        globals()["_prepare"] = lambda libc: start
        _serve_forever()
        os._exit(99)  # never returns
    for fd in (requests[0], control[1]) + extra:
        os.close(fd)
    said = b""
    while not said.endswith(b"\n"):
        chunk = os.read(control[0], 100)
        if not chunk:
            break
        said += chunk
    held = sorted(int(fd) for fd in os.listdir("/proc/%d/fd" % pid) if int(fd) > 3) if said == b"ready\n" else None
    if request:
        os.write(requests[1], b"a request\n")
    os.close(requests[1])  # the host hangs up
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    os.close(control[0])
    ran = os.path.exists(started)
    if ran:
        os.remove(started)
    return [code, said.decode(), held, ran]

print(json.dumps({
    "the host hangs up": serve({}, False),
    "capset fails": serve({"capset": Answer(-1)}, False),
    "a run cannot start": serve({}, True),
}))
os.rmdir(folder)
`;

test("the slot loop's server ends with 120 before it says ready when its capability call fails, holds no descriptor past 3 once ready, ends with 0 when the host hangs up and with 121 when a run cannot start", () => {
  const r = spawnSync('python3', ['-I', '-c', SERVER], { input: definitions(), encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({
    'the host hangs up': [0, 'ready\n', [], false],
    'capset fails': [120, '', null, false],
    'a run cannot start': [121, 'ready\n', [], true],
  });
});
