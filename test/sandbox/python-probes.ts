/**
 * Python shared by the scripts of the init tests (python-fork-init.test.ts, python-slot-loop.test.ts),
 * which run in a plain python3 with `os` imported.
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
