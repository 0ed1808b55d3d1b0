/**
 * The Python side of a batch run, inside the bubblewrap sandbox. stdin: line 1 the request
 * ({program, entry, inputs (JSON texts), check, timeMs, outputBytes, child}), line 2 the nonce.
 * stdout: one line `nonce + JSON` with the outputs. Expected values never enter the sandbox:
 * outputs are compared on the host, so a program that forges this line only claims outputs —
 * as returning them would — and the host validates the line's shape.
 *
 * A HumanEval `check(candidate)` holds the expected values, so it must not run beside the
 * program: the harness (made non-dumpable, so nothing in the sandbox can read its memory or
 * descriptors) starts the program in a fresh interpreter of its own (CHILD below) and calls the
 * candidate through a pipe; values cross as Python literals (`repr` / `ast.literal_eval`: no
 * object with a lying `__eq__` comes back), and check() runs in the harness.
 */

/** Reading and running the program; shared by the one-process harness and the child. */
const COMMON = String.raw`
import sys, os, json, signal, io

class _Timeout(BaseException):
    pass

class _OutputLimit(BaseException):
    pass

MAX_DEPTH = 200

def _depth(v, d=0):
    if d > MAX_DEPTH:
        raise ValueError("the output is nested deeper than %d levels" % MAX_DEPTH)
    if isinstance(v, (list, tuple)):
        for x in v:
            _depth(x, d + 1)
    elif isinstance(v, dict):
        for x in v.values():
            _depth(x, d + 1)

def _failure(e, data):
    if isinstance(e, _Timeout):
        return {"code": "timeout", "message": "time limit of %d ms exceeded" % data["timeMs"]}
    if isinstance(e, _OutputLimit):
        return {"code": "output-limit", "message": "more than %d characters printed" % data["outputBytes"]}
    if isinstance(e, MemoryError):
        return {"code": "memory-limit", "message": "MemoryError"}
    text = ("%s: %s" % (type(e).__name__, e)).splitlines()[0] if str(e) else type(e).__name__
    return {"code": "runtime-error", "message": text[:300]}

def _setup(data):
    limit = data["outputBytes"]
    class _Capture(io.TextIOBase):
        size = 0
        def writable(self):
            return True
        def write(self, s):
            _Capture.size += len(s)
            if _Capture.size > limit:
                raise _OutputLimit()
            return len(s)
    def on_alarm(signum, frame):
        raise _Timeout()
    signal.signal(signal.SIGALRM, on_alarm)
    sys.stdout = _Capture()
    sys.stderr = _Capture()

def _timed(seconds, f):
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return f()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)

def _load(data):
    """(scope, entry function) or a failure dict."""
    try:
        code = compile(data["program"], "program.py", "exec")
    except (SyntaxError, ValueError) as e:
        return {"code": "syntax-error", "message": ("%s: %s" % (type(e).__name__, e))[:300]}
    scope = {"__name__": "__sandbox__", "__builtins__": __builtins__}
    try:
        _timed(data["timeMs"] / 1000.0, lambda: exec(code, scope))
    except BaseException as e:
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
            args = json.loads(args_json)  # fresh objects per test
            value = _timed(data["timeMs"] / 1000.0, lambda: fn(*args))
            try:
                _depth(value)
                text = json.dumps(value, allow_nan=False)
            except (TypeError, ValueError, RecursionError) as e:
                outputs.append({"code": "runtime-error", "message": "the output is not JSON (%s)" % str(e)[:100]})
                continue
            if len(text) > limit:
                outputs.append({"code": "output-limit", "message": "output of %d characters exceeds %d" % (len(text), limit)})
            else:
                outputs.append({"code": "ok", "text": text})
        except BaseException as e:
            outputs.append(_failure(e, data))
    return outputs
`;

/** The one-process harness (runs without a check), and the parent of the check mode. */
export const PYTHON_HARNESS = String.raw`${COMMON}
def _main():
    os.closerange(3, 65536)  # descriptors the sandbox inherited are nobody's business
    data = json.loads(sys.stdin.readline())
    nonce = sys.stdin.readline().strip()
    real_out = sys.stdout
    def emit(obj):
        real_out.write(nonce + json.dumps(obj) + "\n")
        real_out.flush()
    if data.get("check"):
        return _check_mode(data, emit)
    _setup(data)
    loaded = _load(data)
    if isinstance(loaded, dict):
        loaded["outputs"] = []
        return emit(loaded)
    emit({"code": "ok", "outputs": _run_inputs(data, loaded[1])})

def _check_mode(data, emit):
    import ctypes, ast, select
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

    def read_line(timeout):
        ready, _, _ = select.select([recv], [], [], timeout)
        if not ready:
            raise TimeoutError()
        line = recv.readline()
        if not line:
            raise EOFError()
        return json.loads(line)

    def kill():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    send.write(json.dumps({k: data[k] for k in ("program", "entry", "inputs", "timeMs", "outputBytes")}) + "\n")
    send.flush()
    result = {"code": "ok", "outputs": []}
    try:
        first = read_line(seconds * (len(data["inputs"]) + 2) + 1)
        if first.get("code") != "ok":
            kill()
            first["outputs"] = []
            return emit(first)
        result["outputs"] = first.get("outputs", [])
        callables = [c for c in first.get("callables", []) if isinstance(c, str)]
    except (TimeoutError, EOFError, ValueError):
        kill()
        return emit({"code": "timeout", "message": "the program did not load in time", "outputs": []})

    def remote(name):
        def call(*args):
            send.write(repr((name, list(args))) + "\n")
            send.flush()
            return answer()
        call.__name__ = name
        return call

    def answer():
        try:
            reply = read_line(seconds)
        except TimeoutError:
            kill()
            raise RuntimeError("the candidate timed out (%d ms)" % data["timeMs"])
        except (EOFError, ValueError):
            raise RuntimeError("the candidate's process ended")
        if reply.get("code") != "ok":
            raise RuntimeError(reply.get("message", "the candidate failed"))
        return ast.literal_eval(reply["value"])

    # check() sees the program's functions as calls into the program's process, as HumanEval's
    # harness (program and check in one namespace) would see the functions themselves
    scope = {"__name__": "__check__"}
    for name in callables:
        scope[name] = remote(name)
    try:
        exec(compile(data["check"], "check.py", "exec"), scope)
        scope["check"](remote(data["entry"]))
        result["check"] = {"code": "ok"}
    except AssertionError as e:
        result["check"] = {"code": "wrong-answer", "message": ("AssertionError: %s" % e)[:300] if str(e) else "an assertion of check() failed"}
    except BaseException as e:
        message = ("%s: %s" % (type(e).__name__, e)).splitlines()[0][:300]
        result["check"] = {"code": "timeout" if "timed out" in message else "runtime-error", "message": message}
    kill()
    emit(result)

_main()
`;

/**
 * The program's process in check mode: loads the program, runs the JSON tests (outputs on fd 3),
 * then answers candidate calls (a Python literal list of arguments per line) with the value's
 * `repr`. Its stdout and stderr are /dev/null.
 */
export const PYTHON_CHILD = String.raw`${COMMON}
def _child():
    data = json.loads(sys.stdin.readline())
    out = os.fdopen(3, "w")
    _setup(data)
    loaded = _load(data)
    if isinstance(loaded, dict):
        out.write(json.dumps(loaded) + "\n")
        out.flush()
        return
    scope, fn = loaded
    # every top-level function of the program may be called by check() (HumanEval's checks use helpers of the prompt)
    callables = [k for k, v in scope.items() if callable(v) and not k.startswith("__") and isinstance(k, str)]
    out.write(json.dumps({"code": "ok", "outputs": _run_inputs(data, fn), "callables": callables}) + "\n")
    out.flush()
    import ast
    for line in sys.stdin:
        try:
            name, args = ast.literal_eval(line)
            target = scope[name] if name in callables else None
            if target is None:
                raise NameError("no function %r in the program" % name)
            value = _timed(data["timeMs"] / 1000.0, lambda: target(*args))
            _depth(value)
            text = repr(value)
            ast.literal_eval(text)  # only literals go back
            reply = {"code": "ok", "value": text}
        except BaseException as e:
            reply = _failure(e, data)
        out.write(json.dumps(reply) + "\n")
        out.flush()

_child()
`;
