/**
 * Python shared by the scripts of the init tests (python-fork-init.test.ts, python-slot-loop.test.ts),
 * which run in a plain python3 with `os` (and, for {@link REPLACED_LIBC}, `ctypes`) imported.
 */

/** `exit_if_open(fds, code)`: ends the process with `code` when it holds any of `fds` (an init must have closed them). */
export const EXIT_IF_OPEN = String.raw`
def exit_if_open(fds, code):
    for fd in fds:
        try:
            os.fstat(fd)
        except OSError:
            continue
        os._exit(code)
`;

/**
 * `real_libc` (the C library through ctypes), `Answer(value)` (a stand-in C function answering
 * `value`; its `restype` and `argtypes` may be set and are ignored) and `Libc(replaced)`: the C
 * library with the functions named in the dict `replaced` answered by the objects there instead —
 * how a test makes one C call fail for code that looks its functions up on a library object.
 */
export const REPLACED_LIBC = String.raw`
real_libc = ctypes.CDLL(None, use_errno=True)

class Answer:
    def __init__(self, value):
        self.value = value
    def __call__(self, *args):
        return self.value

class Libc:
    def __init__(self, replaced):
        self.replaced = replaced
    def __getattr__(self, name):
        return self.replaced[name] if name in self.replaced else getattr(real_libc, name)
`;
