/**
 * A pre-started Python fork server, an option of the sandbox (`pythonMode: 'fork-server'`): a
 * per-slot server (python-slot-server.ts: one sandbox per slot, fresh user, IPC, pid and network
 * namespaces per run, an init that drops every capability, the protocol and restarts) that has
 * loaded the harness once; each program's process is a fork of the run's init (on x86-64 a
 * machine-code init sharing the server's memory, so a fork of the server itself: python-fork-init.ts),
 * which goes on in the harness (`_main`), instead of a new interpreter. It is made dumpable again (as any fresh
 * process; the server and init are not) and gets a session of its own. The program's process
 * shares nothing written by an earlier program: it is forked from the server (through its init)
 * before it reads its own request, and the server never reads one.
 *
 * Cost (measured on the 2-vCPU build machine, a paravirtualized VM where a page first touched
 * costs 30-50 µs, so a run costs about its count of page faults): the clone straight into the
 * namespaces saves the intermediate process of an unshare; the C calls a run makes are looked
 * up and typed once in the server; the collector's view of the server is frozen (gc.freeze); and
 * at start the server gives each read-only file mapping one private page of its own (restoring
 * its protection), so fork copies those mappings' page-table entries and a run's processes do not
 * fault the interpreter's code in page by page: 794 -> 421 page faults and 52 -> 32 ms of CPU per
 * run, host included (docs/architecture.md, "The sandbox"). Before its loop the server runs a
 * run's steps once on a constant request of its own (`_warm_up`: load and call a small program,
 * JSON in and out), so the structures a first run in a process builds are already in the memory
 * each program's process copies: 428 -> 325 page faults per run. On x86-64 each run's init is
 * machine code that shares the server's memory instead of a Python copy of it (python-fork-init.ts:
 * the init's own copy-on-write faults, ~70 per run, and its interpreter work were a quarter of a
 * run's CPU): 306 -> 233 page faults and 22.7 -> 16.5-17.6 ms of CPU per run under load, 1.78 ->
 * 2.28-2.30 times a bare spawn's runs per core (docs/architecture.md, "The sandbox").
 */
import { PYTHON_MACHINE_INIT } from './python-fork-init';
import { PYTHON_HARNESS_BODY } from './python-harness';
import { DEFAULT_PYTHON_PATHS, pythonCommand, type PythonSandboxPaths } from './python-runner';
import { PYTHON_SLOT_LOOP, PythonSlotServer, type SlotServerStart } from './python-slot-server';

/** The server: the harness's functions, then the slot loop, whose init per request forks the program's process. */
export const PYTHON_FORK_SERVER = String.raw`${PYTHON_HARNESS_BODY}
def _program():
    """The program's process: dumpable again (as any fresh process; the server and init are not), Python's
    SIGINT handler back (init left it at its default), a session of its own, then the harness."""
    _C.prctl(4, 1, 0, 0, 0)
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    posix.setsid()
    _main()
    sys.stdout.flush()
    posix._exit(0)

def _prepare(libc):
    """On x86-64, each run's init is machine code sharing the server's memory (python-fork-init.ts), which
    forks the program's process and returns into _program there; elsewhere the slot loop's Python init,
    which calls _start_program below."""
    return _machine_init(libc, _program)

def _start_program():
    pid = _C.clone(_SYS_CLONE, 17, None, None, None, None)  # a fork (SIGCHLD to init at its end)
    if pid == 0:
        _program()
    if pid < 0:
        posix._exit(121)
    return pid

def _warm_up():
    """Runs a run's steps once on a constant request of the server's own (never a program's): loading and
    calling a small program (_load: the compiler, a timer set and cleared), reading JSON arguments,
    writing a JSON value. The first of each in a process touches code and allocates structures that
    every later one reuses; done here, a program's process finds them in the memory it copies instead
    of faulting them in (measured: 428 -> 325 page faults per run)."""
    data = _loads('{"program": "def f(x, y):\\n    return [x + 1, y, 0.5, None, True, {\\"k\\": (x,)}]", "entry": "f", "inputs": ["[1, \\"a\\"]"], "timeMs": 60000}')
    scope, fn = _load(data)
    value = fn(*_args(data["inputs"][0]))
    _depth(value)
    _dumps(value, allow_nan=False)
    scope.clear()  # the function and its globals refer to each other: nothing of it is kept

_warm_up()
${PYTHON_MACHINE_INIT}
${PYTHON_SLOT_LOOP}`;

/** One fork server: started on the first run, restarted after any run it could not end. */
export class PythonForkServer extends PythonSlotServer {
  constructor(paths: PythonSandboxPaths = DEFAULT_PYTHON_PATHS) {
    super(paths, 'the Python fork server');
  }

  protected prepare(): Promise<SlotServerStart> {
    return Promise.resolve({ command: pythonCommand(this.paths, PYTHON_FORK_SERVER, { nestedUserNamespaces: true }), prefix: Buffer.alloc(0) });
  }
}
