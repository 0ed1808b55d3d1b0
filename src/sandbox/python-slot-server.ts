/**
 * A per-slot sandboxed Python server that runs one program per request, each in fresh
 * namespaces: the structure shared by the fork server (python-fork-server.ts: the program's
 * process is a fork of a server that loaded the harness) and the launcher (python-launcher.ts:
 * the program's process execs a fresh interpreter). One bubblewrap sandbox per pool slot (the
 * same flags and uid drop as a fresh run: python-runner.ts `pythonCommand`, `pythonSpawnIds`),
 * started once; one program at a time per server, and nothing of one program reaches the next:
 *
 * - the server never reads a request: it waits until one is there (poll) and clones; the
 *   program's own process reads it, so no earlier program's source or inputs lie in the memory
 *   it copies;
 * - per run the server clones one process straight into fresh user, IPC, pid and network
 *   namespaces: that namespace's init (pid 1) closes every descriptor past 2, drops the
 *   capabilities the new user namespace gave it and starts the program's process (pid 2; it
 *   inherits no capability: `_start_program`, the part each kind of server defines with
 *   `_prepare`), then waits for it, with SIGINT at its default (set once by the server, which
 *   no program can signal). So each program has its own RLIMIT_NPROC count, no System V or POSIX message
 *   queue object or key of an earlier program, no network at all (not even a loopback whose
 *   sockets, TIME_WAIT ones included, would outlive it), and every process it started is killed
 *   when the init ends; rlimits are set by the harness as in a fresh run; nothing is writable,
 *   as in a fresh run;
 * - the server is not dumpable (no program can read its memory or its descriptors; init, a clone
 *   of it, is not either: the fork server's init on x86-64 even shares the server's memory,
 *   python-fork-init.ts, and that memory's dumpability) and writes the end of each run on a
 *   channel (fd 3) no program holds,
 *   with a token drawn after the program's namespace is gone and written after the program's last
 *   byte on stdout and stderr.
 *
 * Protocol (host side, {@link PythonSlotServer}): the host writes one request (the server's
 * per-run prefix, then python-runner.ts `pythonRequest`: the JSON line, the nonce line) on the
 * server's stdin and waits for `done <status> <token>` on fd 3 and the token on stdout and
 * stderr; it never writes the next request before that. The server writes `ready` on fd 3 once,
 * before the first request. While a run is in flight the host watches the memory of the run's
 * processes (run-memory.ts: the run's pid namespace below the server's child, its init). Any run
 * that does not end by itself (wall clock, output limit, memory of the run's processes together,
 * cancellation) kills the whole server; the next run starts a fresh one. A server that ends with
 * a run in flight, or says on fd 3 what it never says, is the sandbox's fault (sandbox-error);
 * whatever the program's process does is the program's (parseRun).
 */
import type { ChildProcess } from 'node:child_process';
import { parseRun, pythonMemoryBytes, pythonRequest, pythonSandboxProblem, pythonSpawnIds, tail, type PythonBatch, type PythonSandboxPaths } from './python-runner';
import type { RawRun } from './raw-run';
import { lastOnlyChild, watchRunMemory, type RunMemoryWatch } from './run-memory';
import { spawnFiltered } from './seccomp';

/**
 * The server's loop, after the code that defines `_prepare(libc)` (called once in the server
 * before its loop: what the kind's runs need, built once into `_C`; it answers None, and each run
 * starts with the loop's init in Python, `_python_init`, or a function that starts a run with
 * an init of the kind's own, with the same namespaces, capability drop and exit status, and
 * answers that init's pid once it has ended: the fork server's machine-code init,
 * python-fork-init.ts) and `_start_program()` (called in the loop's Python init: starts the
 * program's process, answers its pid; `_C` holds the C calls, typed once). Needs `posix` and
 * `sys` imported before it.
 */
export const PYTHON_SLOT_LOOP = String.raw`
import ctypes, select, gc, _signal  # loaded once: every run's processes inherit them

# CLONE_NEWUSER | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET, and SIGCHLD at the end, as for a fork
_CLONE_FLAGS = 0x10000000 | 0x08000000 | 0x20000000 | 0x40000000 | 17
# the clone system call; with no stack or thread pointers its arguments mean the same on both
# (elsewhere the server does not start, and each run is a sandbox-error that says why)
_SYS_CLONE = {"x86_64": 56, "aarch64": 220}[posix.uname().machine]

class _C:
    """The C calls a run makes, looked up and typed once by the server (set in _serve_forever). clone
    is the raw system call, as fork without Python's fork hooks (re-initialising locks, threads,
    at-fork callbacks: the server has one thread, no lock held and no callback, and skipping them
    spares the page faults they cost); _C.clone(_SYS_CLONE, 17, None, None, None, None) is a fork."""

def _code(status):
    """An exit status as bwrap reports one: 128 + n for a death by signal n."""
    if posix.WIFSIGNALED(status):
        return 128 + posix.WTERMSIG(status)
    return posix.WEXITSTATUS(status)

def _init():
    """pid 1 of the run's fresh user, IPC, pid and network namespaces (a clone of the server): drops the
    capabilities its new user namespace gave it, starts the program's process and waits for it;
    its end ends every process left in the namespace. Never returns."""
    code = 121
    try:
        posix.closerange(3, 65536)  # the control channel stays the server's
        if _C.capset(_C.header, _C.no_caps) != 0:
            posix._exit(code)
        program = _start_program()
        while True:
            pid, status = posix.waitpid(-1, 0)
            if pid == program:
                code = _code(status)
                break
    finally:
        posix._exit(code)

def _python_init():
    """Starts a run with the init above: a raw clone of the server into the run's namespaces. Answers
    the init's pid (in the server; the init never returns)."""
    pid = _C.clone(_SYS_CLONE, _CLONE_FLAGS, None, None, None, None)
    if pid == 0:
        _init()
    return pid

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
    _C.clone = ctypes.PyDLL(None, use_errno=True).syscall  # keeps the GIL: the child goes on as after a fork
    _C.clone.restype = ctypes.c_long
    _C.clone.argtypes = (ctypes.c_long, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
    _C.capset = libc.capset
    _C.capset.restype = ctypes.c_int
    _C.capset.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
    _C.prctl = libc.prctl
    _C.prctl.restype = ctypes.c_int
    _C.prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
    header_array = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    no_caps_array = (ctypes.c_uint32 * 6)()
    _C.header, _C.no_caps = ctypes.addressof(header_array), ctypes.addressof(no_caps_array)
    start = _prepare(libc) or _python_init  # how each run starts: the kind's own init, or the one above
    _C.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    if _C.capset(_C.header, _C.no_caps) != 0:  # bwrap left the server none: dropping none checks the call
        posix._exit(120)
    posix.closerange(4, 65536)
    requests = select.poll()
    requests.register(0, select.POLLIN)
    # Python's SIGINT handler would let a program end its init (KeyboardInterrupt); at its default,
    # the kernel drops what a pid namespace's own processes send its init. Set here, once, every
    # init inherits it (no program can signal the server: it is outside every run's pid namespace)
    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
    gc.freeze()  # the collector leaves the server's objects alone in every run's process
    posix.write(3, b"ready\n")
    while True:
        if not requests.poll()[0][1] & select.POLLIN:
            posix._exit(0)  # the host hung up: no request will come
        pid = start()
        if pid < 0:
            posix._exit(121)
        status = _code(posix.waitpid(pid, 0)[1])
        token = posix.urandom(16).hex()
        posix.write(1, ("\n" + token + "\n").encode())
        posix.write(2, ("\n" + token + "\n").encode())
        posix.write(3, ("done %d %s\n" % (status, token)).encode())

_serve_forever()
`;

/** How a kind of server starts: its sandbox's command line, and the bytes written ahead of each request. */
export interface SlotServerStart {
  command: string[];
  prefix: Buffer;
}

interface Current {
  nonce: string;
  batch: PythonBatch;
  resolve: (r: RawRun) => void;
  timer: NodeJS.Timeout;
  /** The server's verdict (`done` line) once it came: exit status and end token. */
  done: { status: number; token: string } | null;
  /** Why the host stopped the run (the server broke its protocol: the sandbox's fault). */
  why: 'timeout' | 'output-limit' | 'memory-limit' | 'aborted' | 'protocol' | null;
  /** The watch on the memory of the run's processes (run-memory.ts), and what they held when it stopped the run. */
  memory: RunMemoryWatch | null;
  held: number;
  cap: number;
  onAbort: () => void;
}

/**
 * The host side of one per-slot server: started on the first run, restarted after any run it
 * could not end. Subclasses say how the server starts ({@link prepare}).
 */
export abstract class PythonSlotServer {
  private child: ChildProcess | null = null;
  private started: Promise<string | null> | null = null;
  private prefix: Buffer = Buffer.alloc(0);
  private out = '';
  private err = '';
  private control = '';
  private current: Current | null = null;
  private closed = false;
  /** The server's host pid (found once it said ready), whose child is each run's init. */
  private serverPid: number | null = null;

  /** `what` names the server in messages ("the Python fork server"). */
  constructor(
    protected readonly paths: PythonSandboxPaths,
    private readonly what: string,
  ) {}

  /** The command line and per-run prefix of a server about to start, or why it cannot start. */
  protected abstract prepare(): Promise<SlotServerStart | string>;

  /**
   * Called when a run ended before the harness said "ready" (no program code ran: the sandbox's
   * fault). The default does nothing; a subclass may forget what it prepared and {@link restart}.
   */
  protected neverReady(): void {}

  /** Runs a batch in the server's next fresh namespaces; resolves with the raw outcome (never rejects). */
  async run(b: PythonBatch): Promise<RawRun> {
    if (this.current) throw new Error(`${this.what} runs one batch at a time`); // the pool's slot guarantees it
    const problem = pythonSandboxProblem(this.paths) ?? (this.closed ? `${this.what} is closed` : null);
    if (problem) return { code: 'sandbox-error', message: problem, outputs: [] };
    const failed = await this.start();
    if (failed) return { code: 'sandbox-error', message: `${this.what} did not start: ${failed}`, outputs: [] };
    if (b.signal?.aborted) {
      this.hold(false); // started for this run, now idle
      return { code: 'sandbox-error', message: 'cancelled', outputs: [] };
    }
    const child = this.child!;
    this.hold(true);
    const { text, nonce, wallMs, outputCap } = pythonRequest(b);
    this.out = '';
    this.err = '';
    return new Promise<RawRun>((resolve) => {
      const onAbort = () => this.stop('aborted');
      const current: Current = { nonce, batch: b, resolve, timer: setTimeout(() => this.stop('timeout'), wallMs), done: null, why: null, cap: outputCap, onAbort, memory: null, held: 0 };
      this.current = current;
      if (this.serverPid !== null) {
        const onOver = (used: number) => {
          current.held = used;
          this.stop('memory-limit');
        };
        current.memory = watchRunMemory({ parent: this.serverPid, limitBytes: pythonMemoryBytes(b.limits), onOver });
      }
      b.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdin!.write(this.prefix.length ? Buffer.concat([this.prefix, Buffer.from(text)]) : text);
    });
  }

  /** Kills the server (a run in flight ends as cancelled). */
  async close(): Promise<void> {
    this.closed = true;
    this.stop('aborted');
  }

  /** Kills the server between runs: the next run starts a fresh one. */
  protected restart(): void {
    if (this.current || !this.child) return;
    this.child.kill('SIGKILL');
    this.child = null; // its end, when seen, is no run's
    this.serverPid = null;
    this.started = null;
  }

  /** Spawns the server once; resolves with null when it said ready, else why it did not. */
  private start(): Promise<string | null> {
    if (this.started) return this.started;
    const started = this.prepare().then((how) => (typeof how === 'string' ? how : this.spawnServer(how)));
    this.started = started;
    // a server that failed to start is not kept: the next run tries again
    void started.then((why) => {
      if (why !== null && this.started === started) this.started = null;
    });
    return started;
  }

  private spawnServer(how: SlotServerStart): Promise<string | null> {
    if (this.closed) return Promise.resolve(`${this.what} is closed`);
    const child = spawnFiltered(how.command, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: {}, ...pythonSpawnIds() });
    this.child = child;
    this.prefix = how.prefix;
    this.control = '';
    let startErr = '';
    return new Promise((resolve) => {
      let ready = false;
      const mine = () => this.child === child; // a server killed by restart() speaks for no run
      child.stdout!.setEncoding('utf8').on('data', (d: string) => mine() && this.onOutput('out', d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        if (!ready) startErr += d;
        if (mine()) this.onOutput('err', d);
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
            // bwrap, its reaper, the server: the end of that chain is the parent of each run's init
            if (mine()) this.serverPid = child.pid === undefined ? null : lastOnlyChild(child.pid);
            resolve(null);
          } else if (mine()) this.onControl(line);
        }
      });
      child.on('error', (e) => resolve(e.message));
      child.on('close', (status, sig) => {
        const current = mine();
        if (current) {
          this.child = null;
          this.serverPid = null;
          this.started = null;
        }
        if (!ready) resolve(startErr.trim().split('\n').pop() || `exit status ${status ?? sig}`);
        if (current) this.onExit(status, sig);
      });
    });
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
    if (!this.current || !m) return this.stop('protocol'); // the server said what it never says: ours to restart
    this.current.done = { status: Number(m[1]), token: m[2] };
    this.maybeFinish();
  }

  /**
   * Ends the run once the server said done and both streams reached the end token, unless the
   * host already stopped it (its verdict stands: the server's end, even if it was already on its
   * way, is no longer the program's — an output past the cap stays an output-limit).
   */
  private maybeFinish(): void {
    const cur = this.current;
    if (!cur?.done || cur.why) return;
    const mark = `\n${cur.done.token}\n`;
    const o = this.out.indexOf(mark);
    const e = this.err.indexOf(mark);
    if (o < 0 || e < 0) return;
    const out = this.out.slice(0, o);
    const err = this.err.slice(0, e);
    this.out = this.out.slice(o + mark.length);
    this.err = this.err.slice(e + mark.length);
    this.finish(parseRun(out, tail(err), cur.nonce, cur.done.status, null, null, cur.batch.limits, cur.batch.inputs.length));
    if (!out.includes(`${cur.nonce}ready`)) this.neverReady();
  }

  private finish(raw: RawRun): void {
    const cur = this.current;
    if (!cur) return;
    this.current = null;
    this.hold(false);
    clearTimeout(cur.timer);
    cur.memory?.stop();
    cur.batch.signal?.removeEventListener('abort', cur.onAbort);
    cur.resolve(raw);
  }

  /**
   * Whether the server keeps the host process alive: while a run is in flight (and while it
   * starts for one: a spawned process holds it by default), never when idle (as the pool's idle
   * JavaScript workers: a command that is done exits without closing the sandbox).
   */
  private hold(on: boolean): void {
    const child = this.child;
    if (!child) return;
    for (const h of [child, ...child.stdio]) {
      const handle = h as { ref?: () => void; unref?: () => void; destroyed?: boolean } | null;
      // a closed stream (the seccomp filter's pipe, written at the spawn) has no handle: its ref() would only add a listener
      if (handle?.destroyed) continue;
      if (on) handle?.ref?.();
      else handle?.unref?.();
    }
  }

  /** Kills the server; the run in flight ends for `why` when the server's exit is seen. */
  private stop(why: NonNullable<Current['why']>): void {
    if (this.current) this.current.why ??= why;
    if (this.child) this.child.kill('SIGKILL');
    else if (this.current) this.onExit(null, 'SIGKILL');
  }

  /** The server ended (or, with no server, a run was stopped): the run in flight ends with it. */
  private onExit(status: number | null, sig: NodeJS.Signals | null): void {
    const cur = this.current;
    if (!cur) return;
    if (cur.why === 'protocol') return this.finish({ code: 'sandbox-error', message: `${this.what} broke its protocol`, outputs: [] });
    if (cur.why) return this.finish(parseRun(this.out, tail(this.err), cur.nonce, status, sig, cur.why, cur.batch.limits, cur.batch.inputs.length, cur.held));
    // the server itself ended with a run in flight: no program can reach it, so it is our fault
    this.finish({ code: 'sandbox-error', message: `${this.what} ended (${sig ?? `exit status ${status}`})`, outputs: [] });
  }
}
