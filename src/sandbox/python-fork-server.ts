/**
 * A pre-started Python fork server, an option of the sandbox (`pythonForkServer: true`): one
 * bubblewrap sandbox per pool slot (the same flags and uid drop as a fresh run) runs a server
 * that has loaded the harness once; each program then runs in a freshly forked process instead
 * of a new interpreter. One program at a time per server, and nothing of one program reaches the
 * next:
 *
 * - the server never reads a request: it waits until one is there (poll) and clones; the
 *   program's own process reads it, so no earlier program's source or inputs lie in the memory
 *   it copies;
 * - per run the server clones one process straight into fresh user, IPC, pid and network
 *   namespaces: that namespace's init (pid 1) closes every descriptor past 2, drops the
 *   capabilities the new user namespace gave it and forks the program's process (pid 2; it
 *   inherits no capability), then waits for it. So each program has its own RLIMIT_NPROC count,
 *   no System V or POSIX message queue object or key of an earlier program, no network at all
 *   (not even a loopback whose sockets, TIME_WAIT ones included, would outlive it), and every
 *   process it started is killed when the init ends; rlimits are set by the harness as in a fresh
 *   run; nothing is writable, as in a fresh run;
 * - the server is not dumpable (no program can read its memory or its descriptors; init, a clone
 *   of it, is not either) and writes the end of each run on a channel (fd 3) no program holds,
 *   with a token drawn after the program's namespace is gone and written after the program's last
 *   byte on stdout and stderr.
 *
 * Protocol (host side): the host writes one request (python-runner.ts `pythonRequest`: the JSON
 * line, the nonce line) on the server's stdin and waits for `done <status> <token>` on fd 3 and
 * the token on stdout and stderr; it never writes the next request before that. The server
 * writes `ready` on fd 3 once, before the first request.
 *
 * Cost (measured on the 2-vCPU build machine, a paravirtualized VM where a page first touched
 * costs 30-50 µs, so a run costs about its count of page faults): the clone straight into the
 * namespaces saves the intermediate process of an unshare; the C calls a run makes are looked
 * up and typed once in the server; the collector's view of the server is frozen (gc.freeze); and
 * at start the server gives each read-only file mapping one private page of its own (restoring
 * its protection), so fork copies those mappings' page-table entries and a run's processes do not
 * fault the interpreter's code in page by page: 794 -> 421 page faults and 52 -> 32 ms of CPU per
 * run, host included (docs/architecture.md, "The sandbox").
 *
 * Any run that does not end by itself (wall clock, output limit, cancellation) kills the whole
 * server; the next run starts a fresh one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PYTHON_HARNESS_BODY } from './python-harness';
import { DEFAULT_PYTHON_PATHS, parseRun, pythonCommand, pythonRequest, pythonSandboxProblem, pythonSpawnIds, type PythonBatch, type PythonSandboxPaths } from './python-runner';
import type { RawRun } from './raw-run';

/** The server: the harness's functions, then a loop that clones one isolated init (which forks the program's process) per request. */
export const PYTHON_FORK_SERVER = String.raw`${PYTHON_HARNESS_BODY}
import ctypes, select, resource, gc  # loaded once: every program's process inherits them

# CLONE_NEWUSER | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET, and SIGCHLD at the end, as for a fork
_CLONE_FLAGS = 0x10000000 | 0x08000000 | 0x20000000 | 0x40000000 | 17
# the clone system call; with no stack or thread pointers its arguments mean the same on both
# (elsewhere the server does not start, and each run is a sandbox-error that says why)
_SYS_CLONE = {"x86_64": 56, "aarch64": 220}[posix.uname().machine]

def _code(status):
    """An exit status as bwrap reports one: 128 + n for a death by signal n."""
    if posix.WIFSIGNALED(status):
        return 128 + posix.WTERMSIG(status)
    return posix.WEXITSTATUS(status)

def _program(prctl):
    """The program's process: dumpable again (as any fresh process; the server and init are not), a session of its own, then the harness."""
    prctl(4, 1, 0, 0, 0)
    posix.setsid()
    _main()
    sys.stdout.flush()
    posix._exit(0)

def _init(capset, prctl, header, no_caps):
    """pid 1 of the run's fresh user, IPC, pid and network namespaces (a clone of the server): drops the
    capabilities its new user namespace gave it, starts the program's process and waits for it;
    its end ends every process left in the namespace. Never returns."""
    code = 121
    try:
        posix.closerange(3, 65536)  # the control channel stays the server's
        if capset(header, no_caps) != 0:
            posix._exit(code)
        program = posix.fork()
        if program == 0:
            _program(prctl)
        while True:
            pid, status = posix.waitpid(-1, 0)
            if pid == program:
                code = _code(status)
                break
    finally:
        posix._exit(code)

def _copied_at_fork(libc):
    """Gives each read-only private file mapping (the interpreter's and libraries' code and constants)
    one private page of its own, identical to the file's: the kernel then copies the mapping's
    page table entries at fork, as it does for any mapping with private pages, and a run's processes
    find the code the server already mapped instead of faulting it in page by page."""
    mprotect = libc.mprotect
    mprotect.restype = ctypes.c_int
    mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    try:
        with open("/proc/self/maps") as maps:
            lines = maps.read().splitlines()
    except OSError:
        return  # no /proc: runs fault the code in, as they would
    for line in lines:
        fields = line.split()
        if len(fields) < 6 or not fields[5].startswith("/") or fields[1][3] != "p" or "w" in fields[1]:
            continue
        start, end = (int(x, 16) for x in fields[0].split("-"))
        prot = (1 if fields[1][0] == "r" else 0) | (4 if fields[1][2] == "x" else 0)
        # the whole mapping at once: a part would split it, and only that part would be copied
        if mprotect(start, end - start, prot | 2) == 0:
            ctypes.memmove(start, start, 1)
            mprotect(start, end - start, prot)

def _serve_forever():
    libc = ctypes.CDLL(None, use_errno=True)
    _copied_at_fork(libc)
    # every C call a run makes is looked up and typed here, once: a run's processes only call them
    clone = ctypes.PyDLL(None, use_errno=True).syscall  # keeps the GIL: the child goes on as after a fork
    clone.restype = ctypes.c_long
    clone.argtypes = (ctypes.c_long, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
    capset = libc.capset
    capset.restype = ctypes.c_int
    capset.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
    prctl = libc.prctl
    prctl.restype = ctypes.c_int
    prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
    header_array = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    no_caps_array = (ctypes.c_uint32 * 6)()
    header, no_caps = ctypes.addressof(header_array), ctypes.addressof(no_caps_array)
    prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    if capset(header, no_caps) != 0:  # bwrap left the server none: dropping none checks the call
        posix._exit(120)
    posix.closerange(4, 65536)
    requests = select.poll()
    requests.register(0, select.POLLIN)
    gc.freeze()  # the collector leaves the server's objects alone in every run's process
    posix.write(3, b"ready\n")
    while True:
        if not requests.poll()[0][1] & select.POLLIN:
            posix._exit(0)  # the host hung up: no request will come
        pid = clone(_SYS_CLONE, _CLONE_FLAGS, None, None, None, None)
        if pid == 0:
            _init(capset, prctl, header, no_caps)
        if pid < 0:
            posix._exit(121)
        status = _code(posix.waitpid(pid, 0)[1])
        token = posix.urandom(16).hex()
        posix.write(1, ("\n" + token + "\n").encode())
        posix.write(2, ("\n" + token + "\n").encode())
        posix.write(3, ("done %d %s\n" % (status, token)).encode())

_serve_forever()
`;

interface Current {
  nonce: string;
  batch: PythonBatch;
  resolve: (r: RawRun) => void;
  timer: NodeJS.Timeout;
  /** The server's verdict (`done` line) once it came: exit status and end token. */
  done: { status: number; token: string } | null;
  why: 'timeout' | 'output-limit' | 'aborted' | null;
  cap: number;
  onAbort: () => void;
}

/** One fork server: started on the first run, restarted after any run it could not end. */
export class PythonForkServer {
  private child: ChildProcess | null = null;
  private started: Promise<string | null> | null = null;
  private out = '';
  private err = '';
  private control = '';
  private current: Current | null = null;
  private closed = false;

  constructor(private readonly paths: PythonSandboxPaths = DEFAULT_PYTHON_PATHS) {}

  /** Runs a batch in a forked process; resolves with the raw outcome (never rejects). */
  async run(b: PythonBatch): Promise<RawRun> {
    if (this.current) throw new Error('a fork server runs one batch at a time'); // the pool's slot guarantees it
    const problem = pythonSandboxProblem(this.paths) ?? (this.closed ? 'the Python fork server is closed' : null);
    if (problem) return { code: 'sandbox-error', message: problem, outputs: [] };
    const failed = await this.start();
    if (failed) return { code: 'sandbox-error', message: `the Python fork server did not start: ${failed}`, outputs: [] };
    const child = this.child!;
    const { text, nonce, wallMs, outputCap } = pythonRequest(b);
    this.out = '';
    this.err = '';
    return new Promise<RawRun>((resolve) => {
      const onAbort = () => this.stop('aborted');
      const current: Current = { nonce, batch: b, resolve, timer: setTimeout(() => this.stop('timeout'), wallMs), done: null, why: null, cap: outputCap, onAbort };
      this.current = current;
      if (b.signal?.aborted) return this.stop('aborted');
      b.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdin!.write(text);
    });
  }

  /** Kills the server (a run in flight ends as cancelled). */
  async close(): Promise<void> {
    this.closed = true;
    this.stop('aborted');
  }

  /** Spawns the server once; resolves with null when it said ready, else why it did not. */
  private start(): Promise<string | null> {
    if (this.child && this.started) return this.started;
    const [cmd, ...args] = pythonCommand(this.paths, PYTHON_FORK_SERVER);
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: {}, ...pythonSpawnIds() });
    this.child = child;
    this.control = '';
    let startErr = '';
    this.started = new Promise((resolve) => {
      let ready = false;
      child.stdout!.setEncoding('utf8').on('data', (d: string) => this.onOutput('out', d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        if (!ready) startErr += d;
        this.onOutput('err', d);
      });
      child.stdin!.on('error', () => undefined); // a server that died closes its stdin: its exit says why
      const controlPipe = child.stdio[3] as NodeJS.ReadableStream;
      controlPipe.setEncoding('utf8');
      controlPipe.on('data', (d: string) => {
        this.control += d;
        let nl: number;
        while ((nl = this.control.indexOf('\n')) >= 0) {
          const line = this.control.slice(0, nl);
          this.control = this.control.slice(nl + 1);
          if (line === 'ready' && !ready) {
            ready = true;
            resolve(null);
          } else this.onControl(line);
        }
      });
      child.on('error', (e) => resolve(e.message));
      child.on('close', (status, sig) => {
        if (this.child === child) {
          this.child = null;
          this.started = null;
        }
        if (!ready) resolve(startErr.trim().split('\n').pop() || `exit status ${status ?? sig}`);
        this.onExit(child, status, sig);
      });
    });
    return this.started;
  }

  private onOutput(stream: 'out' | 'err', d: string): void {
    const cur = this.current;
    if (!cur) return; // between runs only the server's end tokens come, and they are read with the run
    if (stream === 'out') this.out += d;
    else this.err += d;
    if (this.out.length > cur.cap || this.err.length > cur.cap) this.stop('output-limit');
    else this.maybeFinish();
  }

  private onControl(line: string): void {
    const m = /^done (\d+) ([0-9a-f]{32})$/.exec(line);
    if (!this.current || !m) return this.stop('aborted'); // the server said what it never says: ours to restart
    this.current.done = { status: Number(m[1]), token: m[2] };
    this.maybeFinish();
  }

  /** Ends the run once the server said done and both streams reached the end token. */
  private maybeFinish(): void {
    const cur = this.current;
    if (!cur?.done) return;
    const mark = `\n${cur.done.token}\n`;
    const o = this.out.indexOf(mark);
    const e = this.err.indexOf(mark);
    if (o < 0 || e < 0) return;
    const out = this.out.slice(0, o);
    const err = this.err.slice(0, e);
    this.out = this.out.slice(o + mark.length);
    this.err = this.err.slice(e + mark.length);
    this.finish(parseRun(out, err.slice(0, 65_536), cur.nonce, cur.done.status, null, null, cur.batch.limits, cur.batch.inputs.length));
  }

  private finish(raw: RawRun): void {
    const cur = this.current;
    if (!cur) return;
    this.current = null;
    clearTimeout(cur.timer);
    cur.batch.signal?.removeEventListener('abort', cur.onAbort);
    cur.resolve(raw);
  }

  /** Kills the server; the run in flight ends for `why` when the server's exit is seen. */
  private stop(why: NonNullable<Current['why']>): void {
    if (this.current) this.current.why ??= why;
    if (this.child) this.child.kill('SIGKILL');
    else if (this.current) this.onExit(null, null, 'SIGKILL');
  }

  private onExit(child: ChildProcess | null, status: number | null, sig: NodeJS.Signals | null): void {
    const cur = this.current;
    if (!cur || (child && this.child && child !== this.child)) return;
    if (cur.why) return this.finish(parseRun(this.out, this.err.slice(0, 65_536), cur.nonce, status, sig, cur.why, cur.batch.limits, cur.batch.inputs.length));
    // the server itself ended with a run in flight: no program can reach it, so it is our fault
    this.finish({ code: 'sandbox-error', message: `the Python fork server ended (${sig ?? `exit status ${status}`})`, outputs: [] });
  }
}
