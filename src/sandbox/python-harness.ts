/**
 * The Python side of a batch run: this script runs inside the bubblewrap sandbox with the
 * request on stdin ({program, entry, inputs (each a JSON text), check, timeMs, outputBytes, nonce}). It loads the
 * program, calls `entry` on each input under a per-test timer, optionally runs a HumanEval
 * `check(candidate)`, and prints one line `nonce + JSON` with the outputs. Expected values never
 * enter the sandbox: outputs are compared on the host. The program's own printing is captured
 * into a bounded buffer (exceeding it is an output-limit), never mixed into the result line.
 */
export const PYTHON_HARNESS = String.raw`
import sys, json, signal, io

class _Timeout(BaseException):
    pass

class _OutputLimit(BaseException):
    pass

def _main():
    data = json.loads(sys.stdin.read())
    nonce = data["nonce"]
    limit = data["outputBytes"]
    seconds = data["timeMs"] / 1000.0
    real_out = sys.stdout

    class _Capture(io.TextIOBase):
        size = 0
        def writable(self):
            return True
        def write(self, s):
            _Capture.size += len(s)
            if _Capture.size > limit:
                raise _OutputLimit()
            return len(s)

    def emit(obj):
        real_out.write(nonce + json.dumps(obj) + "\n")
        real_out.flush()

    def on_alarm(signum, frame):
        raise _Timeout()

    signal.signal(signal.SIGALRM, on_alarm)

    def timed(f):
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return f()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def failure(e):
        if isinstance(e, _Timeout):
            return {"code": "timeout", "message": "time limit of %d ms exceeded" % data["timeMs"]}
        if isinstance(e, _OutputLimit):
            return {"code": "output-limit", "message": "more than %d characters printed" % limit}
        if isinstance(e, MemoryError):
            return {"code": "memory-limit", "message": "MemoryError"}
        text = ("%s: %s" % (type(e).__name__, e)).splitlines()[0] if str(e) else type(e).__name__
        return {"code": "runtime-error", "message": text[:300]}

    sys.stdout = _Capture()
    sys.stderr = _Capture()
    try:
        code = compile(data["program"], "program.py", "exec")
    except (SyntaxError, ValueError) as e:
        emit({"code": "syntax-error", "message": ("%s: %s" % (type(e).__name__, e))[:300], "outputs": []})
        return
    scope = {"__name__": "__sandbox__", "__builtins__": __builtins__}
    try:
        timed(lambda: exec(code, scope))
    except BaseException as e:
        r = failure(e)
        r["outputs"] = []
        emit(r)
        return
    fn = scope.get(data["entry"])
    if not callable(fn):
        emit({"code": "runtime-error", "message": "the program defines no function %r" % data["entry"], "outputs": []})
        return
    outputs = []
    for args_json in data["inputs"]:
        try:
            # each test parses its own arguments: fresh objects, whatever an earlier call mutated
            args = json.loads(args_json)
            value = timed(lambda: fn(*args))
            try:
                text = json.dumps(value, allow_nan=False)
            except (TypeError, ValueError) as e:
                outputs.append({"code": "runtime-error", "message": "the output is not JSON (%s)" % type(value).__name__})
                continue
            if len(text) > limit:
                outputs.append({"code": "output-limit", "message": "output of %d characters exceeds %d" % (len(text), limit)})
            else:
                outputs.append({"code": "ok", "text": text})
        except BaseException as e:
            outputs.append(failure(e))
    result = {"code": "ok", "outputs": outputs}
    if data.get("check"):
        try:
            # as HumanEval's own harness does: check() runs in the program's namespace (it may use its helpers)
            exec(compile(data["check"], "check.py", "exec"), scope)
            timed(lambda: scope["check"](fn))
            result["check"] = {"code": "ok"}
        except AssertionError as e:
            result["check"] = {"code": "wrong-answer", "message": ("AssertionError: %s" % e)[:300] if str(e) else "an assertion of check() failed"}
        except BaseException as e:
            result["check"] = failure(e)
    emit(result)

_main()
`;
