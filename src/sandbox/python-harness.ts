/**
 * The Python side of a batch run, inside the bubblewrap sandbox. stdin: line 1 the request
 * ({program, entry, inputs (JSON texts), check, helpers, timeMs, outputBytes, rlimits, child}),
 * line 2 the nonce, read with `posix.read` until both are in (no buffered reader; in a fresh run
 * the harness's own compiled code comes first on stdin, read by the loader of
 * python-compiled.ts). The harness first sets the request's rlimits on itself (`resource`: CPU,
 * address space, processes, file size, open files; soft = hard, so the program cannot raise
 * them again) and closes inherited descriptors. stdout: `nonce + "ready"` once that is done
 * (before any program code: the host
 * then knows that whatever ends the process early is the program's doing), then one line
 * `nonce + JSON` with the outputs, both written with `posix.write` on fd 1. Expected values never enter the sandbox: outputs are compared
 * on the host, so a program that forges this line only claims outputs — as returning them
 * would — and the host validates the line's shape.
 *
 * A HumanEval `check(candidate)` holds the expected values, so it must not run beside the
 * program: the harness (made non-dumpable, so nothing in the sandbox can read its memory or
 * descriptors) starts the program in a fresh interpreter of its own (CHILD below) and calls the
 * candidate through a pipe; values cross as Python literals (`repr` / `ast.literal_eval`: no
 * object with a lying `__eq__` comes back), and check() runs in the harness. check()'s namespace
 * holds the builtins, the task's helpers (the request's `helpers`: for HumanEval the prompt, which
 * defines e.g. `poly` and `encode_cyclic`) and exactly one name from the program: the entry point,
 * as `candidate` and under its own name. A program's `abs`, `tuple` or `poly` never reaches it.
 *
 * Start-up cost is most of a fresh sandbox's cost, so the harness imports only built-in modules
 * and `resource`: `posix`, `_signal` and `_json` (the C halves of os, signal and json; the Python
 * halves import `re` and `enum`, several times the interpreter's own start-up). `_dumps` and
 * `_loads` are json.dumps (ensure_ascii, allow_nan as asked, ", " / ": ") and json.loads built
 * from the same C encoder and scanner. What every run needs is made once when the harness loads
 * (the capture class of the program's stdout and stderr, the alarm handler, `resource`), so a
 * fork server's program process only uses it. The program's source runs by `exec` of the str, never
 * through `compile()`, whose first call in a process builds every AST node type (`_load`).
 *
 * A fresh interpreter (PYTHON_HARNESS) ends with `posix._exit(0)` once `_main()` is done, as the
 * fork server's program process does: Python's finalization was 42 page faults of a launcher
 * run's ~800 in that process, and no program code runs after its result (atexit handlers,
 * finalizers; a thread the program left running does not hold the run until the wall clock).
 */

/** Reading and running the program; shared by the one-process harness and the child. */
const COMMON = String.raw`
import sys, posix, _signal, _json, io

class _Timeout(BaseException):
    pass

class _OutputLimit(BaseException):
    pass

MAX_DEPTH = 200
BIG = "$bigint"

def _depth(v, d=0):
    if d > MAX_DEPTH:
        raise ValueError("the output is nested deeper than %d levels" % MAX_DEPTH)
    if isinstance(v, (list, tuple)):
        for x in v:
            _depth(x, d + 1)
    elif isinstance(v, dict):
        for x in v.values():
            _depth(x, d + 1)

def _not_json(o):
    raise TypeError("Object of type %s is not JSON serializable" % o.__class__.__name__)

def _dumps(value, allow_nan=True):
    """json.dumps(value, allow_nan=allow_nan); a fresh encoder each time (its circular-reference
    markers must not outlive a failed call)."""
    encode = _json.make_encoder({}, _not_json, _json.encode_basestring_ascii, None, ": ", ", ", False, False, allow_nan)
    return "".join(encode(value, 0))

def _no_constant(name):
    raise ValueError("%s is not JSON" % name)

class _ScanContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_no_constant)  # NaN and Infinity are not JSON: a reply with one is malformed

def _loads(text, hook=None):
    """json.loads(text, object_hook=hook) for the host's JSON and the candidate process's replies
    (hostile: any malformed text is a ValueError, NaN and Infinity included — the result line must
    stay JSON that the host can read; the C scanner reports an error inside an object or array
    through json.decoder, which is not importable here, as SystemError)."""
    context = _ScanContext()
    context.object_hook = hook
    text = text.strip(" \t\n\r")
    try:
        value, end = _json.make_scanner(context)(text, 0)
    except Exception:
        raise ValueError("not JSON")
    if end != len(text):
        raise ValueError("more than one JSON value")
    return value

def _args(text):
    """Arguments from JSON; an integer the host tagged {"$bigint": digits} is the int itself."""
    def hook(o):
        digits = o.get(BIG) if len(o) == 1 else None
        if isinstance(digits, str) and 16 <= len(digits) < 4000 and all(c in "-0123456789" for c in digits):
            try:
                n = int(digits)
            except ValueError:
                return o
            if str(n) == digits and abs(n) > 2 ** 53 - 1:
                return n
        return o
    return _loads(text, hook)

def _text(e):
    """One line naming an exception; never raises (a program's exception may lie in __str__)."""
    try:
        name = type(e).__name__
        if not isinstance(name, str):
            name = "an exception"
    except BaseException:
        name = "an exception"
    try:
        detail = str(e)
        if not isinstance(detail, str):
            detail = ""
    except BaseException:
        detail = ""
    line = ("%s: %s" % (name, detail)) if detail else name
    return (line.splitlines() or [name])[0][:300]

def _failure(e, data):
    if isinstance(e, _Timeout):
        return {"code": "timeout", "message": "time limit of %d ms exceeded" % data["timeMs"]}
    if isinstance(e, _OutputLimit):
        return {"code": "output-limit", "message": "more than %d characters printed" % data["outputBytes"]}
    if isinstance(e, MemoryError):
        return {"code": "memory-limit", "message": "MemoryError"}
    if isinstance(e, SystemExit):
        return {"code": "exited", "message": "the program asked to exit (%s)" % _text(e)}
    return {"code": "runtime-error", "message": _text(e)}

class _Capture(io.TextIOBase):
    """The program's sys.stdout and sys.stderr: counts what it prints (both together), keeps nothing."""
    size = 0
    limit = 0
    def writable(self):
        return True
    def write(self, s):
        _Capture.size += len(s)
        if _Capture.size > _Capture.limit:
            raise _OutputLimit()
        return len(s)

def _on_alarm(signum, frame):
    raise _Timeout()

def _setup(data):
    _Capture.limit = data["outputBytes"]
    _signal.signal(_signal.SIGALRM, _on_alarm)
    sys.stdout = _Capture()
    sys.stderr = _Capture()

def _timed(seconds, f):
    _signal.setitimer(_signal.ITIMER_REAL, seconds)
    try:
        return f()
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)

def _ran(e, scope):
    """Whether e came through a frame of the program's code (the frames whose globals are scope); read
    with BaseException's own getter, which a program's exception class cannot override."""
    tb = BaseException.__traceback__.__get__(e)
    while tb is not None:
        if tb.tb_frame.f_globals is scope:
            return True
        tb = tb.tb_next
    return False

def _load(data):
    """(scope, entry function) or a failure dict. The program's source is run by exec of the str itself,
    not exec(compile(...)): compile() builds every AST node type on its first call in a process (~60 page
    faults, ~2 ms of a fresh interpreter), exec of a str never does. A source that does not compile is
    told from the program's own SyntaxError or ValueError by the traceback: none of the program's frames
    is in it, as none ran."""
    scope = {"__name__": "__sandbox__", "__builtins__": __builtins__}
    try:
        _timed(data["timeMs"] / 1000.0, lambda: exec(data["program"], scope))
    except BaseException as e:
        if isinstance(e, (SyntaxError, ValueError)) and not _ran(e, scope):
            if isinstance(e, SyntaxError):
                e.filename = "program.py"  # the name the program's errors have always had (exec's is "<string>")
            return {"code": "syntax-error", "message": _text(e)}
        return _failure(e, data)
    fn = scope.get(data["entry"])
    if not callable(fn):
        return {"code": "runtime-error", "message": "the program defines no function %r" % data["entry"]}
    return (scope, fn)

def _run_inputs(data, fn):
    outputs = []
    limit = data["outputBytes"]
    for args_json in data["inputs"]:
        try:
            args = _args(args_json)  # fresh objects per test
            value = _timed(data["timeMs"] / 1000.0, lambda: fn(*args))
            try:
                _depth(value)
                text = _dumps(value, allow_nan=False)
            except (TypeError, ValueError, RecursionError) as e:
                outputs.append({"code": "runtime-error", "message": "the output is not JSON (%s)" % _text(e)[:100]})
                continue
            if len(text) > limit:
                outputs.append({"code": "output-limit", "message": "output of %d characters exceeds %d" % (len(text), limit)})
            else:
                outputs.append({"code": "ok", "text": text})
        except BaseException as e:
            outputs.append(_failure(e, data))
    return outputs
`;

/**
 * The harness's functions without the call that runs them: `_main()` reads one request from
 * stdin and runs it (the fork server of python-fork-server.ts calls it in each program's process).
 */
export const PYTHON_HARNESS_BODY = String.raw`${COMMON}
import resource

def _limit(rlimits):
    """Sets each rlimit, soft = hard (lowering needs no privilege; raising it again does)."""
    for name, which in (("cpu", resource.RLIMIT_CPU), ("as", resource.RLIMIT_AS), ("nproc", resource.RLIMIT_NPROC), ("fsize", resource.RLIMIT_FSIZE), ("nofile", resource.RLIMIT_NOFILE)):
        resource.setrlimit(which, (rlimits[name], rlimits[name]))

def _request():
    """The request's two lines (JSON, nonce), read from fd 0 with posix.read until both are in."""
    chunks = []
    newlines = 0
    while newlines < 2:
        chunk = posix.read(0, 1048576)
        if not chunk:
            break
        chunks.append(chunk)
        newlines += chunk.count(b"\n")
    lines = b"".join(chunks).decode().split("\n")
    return lines[0], lines[1].strip() if len(lines) > 1 else ""

def _write(text):
    """All of text on fd 1 (a write to a pipe that a signal cuts short goes on)."""
    data = text.encode()
    while data:
        data = data[posix.write(1, data):]

def _main():
    posix.closerange(3, 65536)  # descriptors the sandbox inherited are nobody's business
    line, nonce = _request()
    data = _loads(line)
    null = posix.open("/dev/null", posix.O_RDONLY)  # the request was all: stdin is empty from here
    posix.dup2(null, 0)
    posix.close(null)
    _limit(data["rlimits"])
    _write(nonce + "ready\n")
    def emit(obj):
        _write(nonce + _dumps(obj) + "\n")
    if data.get("check"):
        return _check_mode(data, emit)
    _setup(data)
    loaded = _load(data)
    if isinstance(loaded, dict):
        loaded["outputs"] = []
        return emit(loaded)
    emit({"code": "ok", "outputs": _run_inputs(data, loaded[1])})

class _Ended(BaseException):
    """The program's process ended, timed out or failed in a way check() must not catch."""
    def __init__(self, code, message):
        BaseException.__init__(self, message)
        self.code = code
        self.message = message

def _check_mode(data, emit):
    import ctypes, ast, select, time, os, signal
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: the program cannot read this process
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(to_child_r, 0)
        os.dup2(from_child_w, 3)
        null = os.open("/dev/null", os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.closerange(4, 65536)
        os.execv(sys.executable, [sys.executable, "-I", "-S", "-c", data["child"]])
    os.close(to_child_r)
    os.close(from_child_w)
    send = os.fdopen(to_child_w, "w")
    recv = os.fdopen(from_child_r, "r")
    seconds = data["timeMs"] / 1000.0

    def kill():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    def ended():
        """Why the program's process stopped answering: its exit status or signal."""
        status = None
        for _ in range(40):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.005)
        else:
            kill()
            return _Ended("runtime-error", "the program closed the harness's channel")
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig == signal.SIGXCPU:
                return _Ended("timeout", "the program ran past its CPU time")
            if sig == signal.SIGXFSZ:
                return _Ended("output-limit", "the program wrote more output than allowed")
            if sig in (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT):
                return _Ended("runtime-error", "the program crashed (%s)" % signal.Signals(sig).name)
            return _Ended("killed-by-signal", "the program's process was killed by %s" % signal.Signals(sig).name)
        return _Ended("exited", "the program ended its process (exit status %d)" % os.WEXITSTATUS(status))

    def read_line(timeout):
        ready, _, _ = select.select([recv], [], [], timeout)
        if not ready:
            kill()
            raise _Ended("timeout", "the candidate timed out (%d ms)" % data["timeMs"])
        line = recv.readline()
        if not line:
            raise ended()
        try:
            reply = _loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            kill()
            raise _Ended("runtime-error", "the program wrote a malformed reply")
        return reply

    def write(text):
        try:
            send.write(text + "\n")
            send.flush()
        except OSError:
            raise ended()

    def fault(e):
        return {"code": e.code, "message": e.message[:300]}

    write(_dumps({k: data[k] for k in ("program", "entry", "inputs", "timeMs", "outputBytes")}))
    result = {"code": "ok", "outputs": []}
    try:
        first = read_line(seconds * (len(data["inputs"]) + 2) + 1)
    except _Ended as e:
        kill()
        return emit(dict(fault(e), outputs=[]))
    if first.get("code") != "ok":
        kill()
        # a load failure the child can report; anything else is a reply the program forged
        if first.get("code") not in ("syntax-error", "runtime-error", "timeout", "memory-limit", "output-limit", "exited") or not isinstance(first.get("message", ""), str):
            return emit({"code": "runtime-error", "message": "the program wrote a malformed reply", "outputs": []})
        return emit({"code": first.get("code"), "message": first.get("message", ""), "outputs": []})
    outputs = first.get("outputs", [])
    result["outputs"] = outputs if isinstance(outputs, list) else []

    def candidate(*args):
        write(repr(list(args)))
        reply = read_line(seconds)
        code = reply.get("code")
        if code == "ok":
            try:
                return ast.literal_eval(reply.get("value"))
            except Exception:
                raise _Ended("runtime-error", "the candidate's value is not a Python literal")
        message = reply.get("message") if isinstance(reply.get("message"), str) else "the candidate failed"
        if code == "runtime-error":
            raise RuntimeError(message)
        raise _Ended(code if code in ("timeout", "memory-limit", "output-limit", "exited") else "runtime-error", message)
    candidate.__name__ = data["entry"]

    # check()'s namespace: the builtins, the task's helpers, and the entry point only
    scope = {"__name__": "__check__"}
    try:
        if data.get("helpers"):
            exec(compile(data["helpers"], "helpers.py", "exec"), scope)
        scope[data["entry"]] = candidate
        exec(compile(data["check"], "check.py", "exec"), scope)
        scope["check"](candidate)
        result["check"] = {"code": "ok"}
    except AssertionError as e:
        text = _text(e)
        result["check"] = {"code": "wrong-answer", "message": text if text != "AssertionError" else "an assertion of check() failed"}
    except _Ended as e:
        result["check"] = fault(e)
    except BaseException as e:
        result["check"] = {"code": "runtime-error", "message": _text(e)}
    kill()
    emit(result)
`;

/** The one-process harness (runs without a check), and the parent of the check mode. */
export const PYTHON_HARNESS = `${PYTHON_HARNESS_BODY}\n_main()\nposix._exit(0)\n`;

/**
 * The program's process in check mode: loads the program, runs the JSON tests (outputs on fd 3),
 * then answers candidate calls (a Python literal list of arguments per line) with the value's
 * `repr`. Only the entry point answers. Its stdout and stderr are /dev/null.
 */
export const PYTHON_CHILD = String.raw`${COMMON}
def _child():
    data = _loads(sys.stdin.readline())
    out = io.open(3, "w")
    _setup(data)
    loaded = _load(data)
    if isinstance(loaded, dict):
        out.write(_dumps(loaded) + "\n")
        out.flush()
        return
    fn = loaded[1]
    out.write(_dumps({"code": "ok", "outputs": _run_inputs(data, fn)}) + "\n")
    out.flush()
    import ast
    for line in sys.stdin:
        try:
            args = ast.literal_eval(line)
            value = _timed(data["timeMs"] / 1000.0, lambda: fn(*args))
            _depth(value)
            text = repr(value)
            ast.literal_eval(text)  # only literals go back
            reply = {"code": "ok", "value": text}
        except BaseException as e:
            reply = _failure(e, data)
        out.write(_dumps(reply) + "\n")
        out.flush()

_child()
`;
