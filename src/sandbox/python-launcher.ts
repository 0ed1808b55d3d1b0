/**
 * The per-slot Python launcher (`pythonMode: 'launcher'`): a fresh interpreter per program
 * without a sandbox started per program. The launcher is a per-slot server
 * (python-slot-server.ts: one bubblewrap sandbox per slot with the flags of a fresh run, fresh
 * user, IPC, pid and network namespaces per run, an init that drops every capability, the
 * protocol and restarts) that never loads the harness: per request the run's init starts the
 * program's process with `posix_spawn` (a vfork and an exec: nothing of the launcher's or init's
 * memory is copied into it) running `python3 -I -S -c <loader>` — the command line a fresh
 * sandbox runs (python-runner.ts `pythonArgv`), the harness compiled once per Python
 * (python-compiled.ts: its bytes are written ahead of each request, as for a fresh sandbox) — in
 * a session of its own, with the signals Python ignores at start (SIGPIPE, SIGXFSZ) back at
 * their default, and the sandbox's environment (bwrap's: PYTHONDONTWRITEBYTECODE only). The C
 * arguments of that call (argv, envp, the spawn attributes) are built once by the launcher
 * (`_prepare`) and only read by each init: Python's `posix.posix_spawn` converted them in every
 * init (measured: 13 of the init's ~65 page faults; docs/architecture.md, "The sandbox").
 *
 * What programs share, then, is what a fresh sandbox's program shares with the host's other
 * sandboxes and no more than the fork server's share: the read-only mount namespace of the
 * slot's sandbox (nothing writable), its UTS and cgroup namespaces, the uid the slot's sandbox
 * was spawned as (each run in a user namespace of its own, so its own RLIMIT_NPROC count), and
 * the server's stdin, stdout and stderr pipes, one run at a time (the host writes the next
 * request only after the server's end token, written once the run's namespace is gone). The
 * program's interpreter is new (exec: no memory of the launcher's), its rlimits are set by the
 * harness as in a fresh run, and no earlier program's process survives its namespace's init.
 *
 * Compiled code that never says "ready" (another Python under a running arena) is forgotten and
 * the launcher restarted: the next run compiles again, as a fresh run would.
 */
import { DEFAULT_PYTHON_PATHS, preparedHarness, pythonArgv, pythonCommand, type PreparedHarness, type PythonSandboxPaths } from './python-runner';
import { PYTHON_SLOT_LOOP, PythonSlotServer, type SlotServerStart } from './python-slot-server';

/** The launcher: its own arguments are the program's command line; then the slot loop, whose init per request spawns it. */
export const PYTHON_LAUNCHER = String.raw`import posix, sys, _signal

_PROGRAM = sys.argv[1:]  # python3 -I -S -c <loader>
_DEFAULTS = (_signal.SIGPIPE, _signal.SIGXFSZ)  # Python ignores them at start; bwrap's child has them at their default

def _prepare(libc):
    """Builds once, in the server, the C arguments of the program's posix_spawn: the command line and the
    server's environment (the sandbox's) as C arrays, and the attributes (a session of its own, _DEFAULTS
    at their default). Each run's init then makes one C call on them, where Python's posix.posix_spawn
    would convert them again in every init (measured: 13 page faults of its ~65)."""
    attr = ctypes.create_string_buffer(1024)  # a posix_spawnattr_t (336 bytes in glibc), with room to spare
    signals = ctypes.create_string_buffer(1024)  # a sigset_t (128 bytes in glibc)
    if libc.posix_spawnattr_init(attr) != 0 or libc.sigemptyset(signals) != 0:
        posix._exit(120)
    for signal in _DEFAULTS:
        libc.sigaddset(signals, signal)
    # POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF, as posix.posix_spawn(setsid=True, setsigdef=...) sets them
    if libc.posix_spawnattr_setsigdefault(attr, signals) != 0 or libc.posix_spawnattr_setflags(attr, 0x80 | 0x04) != 0:
        posix._exit(120)
    args = [arg.encode(sys.getfilesystemencoding(), "surrogateescape") for arg in _PROGRAM]
    env = [key + b"=" + value for key, value in posix.environ.items()]
    argv = (ctypes.c_char_p * (len(args) + 1))(*args)  # NULL-terminated
    envp = (ctypes.c_char_p * (len(env) + 1))(*env)
    _C.spawned = ctypes.c_int()
    _C.spawn = libc.posix_spawn  # returns 0 or an error number; no argtypes: the arguments below are C values already
    _C.spawn_args = (ctypes.byref(_C.spawned), args[0], None, attr, argv, envp)
    _C.spawn_memory = (attr, signals, args, env, argv, envp)  # kept alive with the server

def _start_program():
    """The program's process: a fresh interpreter (a vfork and an exec) in a session of its own, with the sandbox's environment."""
    error = _C.spawn(*_C.spawn_args)
    if error != 0:
        raise OSError(error, "posix_spawn")
    return _C.spawned.value
${PYTHON_SLOT_LOOP}`;

/** One slot's launcher: started on the first run, restarted after any run it could not end. */
export class PythonLauncher extends PythonSlotServer {
  private harness: PreparedHarness | null = null;

  constructor(paths: PythonSandboxPaths = DEFAULT_PYTHON_PATHS) {
    super(paths, 'the Python launcher');
  }

  protected async prepare(): Promise<SlotServerStart> {
    const harness = await preparedHarness(this.paths);
    this.harness = harness;
    return { command: [...pythonCommand(this.paths, PYTHON_LAUNCHER, { nestedUserNamespaces: true }), ...pythonArgv(this.paths, harness.code)], prefix: harness.prefix };
  }

  protected override neverReady(): void {
    this.harness?.forget();
    this.harness = null;
    this.restart();
  }
}
