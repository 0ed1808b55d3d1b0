/**
 * How a Python batch's end becomes a code, without a sandbox (issue 23): the result line when
 * there is a valid one; before the harness said "ready" every failure is the sandbox's; after,
 * every early end is the program's (exited, killed-by-signal, timeout, output-limit, crash).
 */
import { endedEarly, parseRun } from '../../src/sandbox/python-runner';
import type { ResolvedLimits } from '../../src/sandbox/limits';

const limits: ResolvedLimits = { timeMs: 1000, memoryMb: 128, outputBytes: 1000 };
const N = '@@arena-0123456789abcdef@@';
const READY = `${N}ready\n`;
const line = (o: unknown) => `${N}${JSON.stringify(o)}\n`;

describe('parseRun', () => {
  test('a valid result line is the run, the last one wins; a malformed one is the program\'s runtime error', () => {
    const ok = { code: 'ok', outputs: [{ code: 'ok', text: '2' }] };
    expect(parseRun(READY + line(ok), '', N, 0, null, null, limits, 1)).toEqual(ok);
    expect(parseRun(READY + line({ code: 'ok', outputs: [] }) + 'noise\n' + line(ok), '', N, 0, null, null, limits, 1)).toEqual(ok);
    expect(parseRun(READY + line({ code: 'pwned', outputs: [] }), '', N, 0, null, null, limits, 1)).toEqual({ code: 'runtime-error', message: 'the program wrote a malformed result line', outputs: [] });
    // a line that answers fewer (or more) tests than ran, or claims the sandbox's fault, is forged
    expect(parseRun(READY + line({ code: 'ok', outputs: [] }), '', N, 0, null, null, limits, 1).message).toBe('the program wrote a malformed result line');
    expect(parseRun(READY + line(ok), '', N, 0, null, null, limits, 2).message).toBe('the program wrote a malformed result line');
    expect(parseRun(READY + line({ code: 'sandbox-error', outputs: [] }), '', N, 0, null, null, limits, 1).code).toBe('runtime-error');
    expect(parseRun(READY + line({ code: 'ok', outputs: [{ code: 'sandbox-error' }] }), '', N, 0, null, null, limits, 1).code).toBe('runtime-error');
    expect(parseRun(READY + line({ code: 'ok', outputs: [{ code: 'ok', text: '1' }], check: { code: 'sandbox-error' } }), '', N, 0, null, null, limits, 1).code).toBe('runtime-error');
    // a run that did not load answers no test
    expect(parseRun(READY + line({ code: 'syntax-error', message: 'x', outputs: [] }), '', N, 0, null, null, limits, 3)).toEqual({ code: 'syntax-error', message: 'x', outputs: [] });
    // a line cut short reads as no line
    expect(parseRun(READY + `${N}{"code": "ok", "outp`, '', N, 0, null, null, limits, 1).code).toBe('exited');
  });

  test('a result line does not count once the host killed the run (timeout, output-limit, memory-limit) or it was cancelled', () => {
    const ok = line({ code: 'ok', outputs: [] });
    expect(parseRun(READY + ok, '', N, null, 'SIGKILL', 'timeout', limits, 1).code).toBe('timeout');
    expect(parseRun(READY + ok, '', N, null, 'SIGKILL', 'output-limit', limits, 1).code).toBe('output-limit');
    // the run's processes together over memoryMb and the interpreter's 64 MB (run-memory.ts)
    expect(parseRun(READY + ok, '', N, null, 'SIGKILL', 'memory-limit', limits, 1, 200.26 * 1024 * 1024)).toEqual({ code: 'memory-limit', message: "the run's processes together held 200.3 MB, over its limit of 192 MB (memoryMb 128 and 64 MB for the interpreter)", outputs: [] });
    expect(parseRun(READY + ok, '', N, null, 'SIGKILL', 'aborted', limits, 1)).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
  });

  test('before the harness ran, any end is a sandbox-error naming what went wrong', () => {
    expect(parseRun('', 'bwrap: Creating new namespace failed\n', N, 1, null, null, limits, 1)).toEqual({ code: 'sandbox-error', message: 'the Python sandbox did not start: bwrap: Creating new namespace failed', outputs: [] });
    expect(parseRun('', '', N, 137, null, 'timeout', limits, 1)).toEqual({ code: 'sandbox-error', message: 'the Python sandbox did not start: exit status 137, SIGKILL', outputs: [] });
    // a program cannot print the marker: it is only ever written by the harness, before the program loads
    expect(parseRun(`${N}read\n`, '', N, 0, null, null, limits, 1).code).toBe('sandbox-error');
  });

  test("after the harness said ready, an end without a result is the program's, with bwrap's 128 + n read as signal n", () => {
    expect(parseRun(READY, '', N, 0, null, null, limits, 1)).toEqual({ code: 'exited', message: "the program ended the sandbox's process (exit status 0) before its results were written", outputs: [] });
    expect(parseRun(READY, 'Traceback...\nValueError: x\n', N, 1, null, null, limits, 1).message).toBe("the program ended the sandbox's process (exit status 1) before its results were written: ValueError: x");
    expect(parseRun(READY, '', N, 137, null, null, limits, 1)).toEqual({ code: 'killed-by-signal', message: "the program's process was killed by SIGKILL", outputs: [] });
    expect(parseRun(READY, '', N, 143, null, null, limits, 1).message).toBe("the program's process was killed by SIGTERM");
    expect(parseRun(READY, '', N, 128 + 40, null, null, limits, 1).message).toBe("the program's process was killed by signal 40");
    expect(parseRun(READY, '', N, null, 'SIGKILL', null, limits, 1).code).toBe('killed-by-signal');
    expect(parseRun(READY, '', N, 128 + 24, null, null, limits, 1).code).toBe('timeout');
    expect(parseRun(READY, '', N, 128 + 25, null, null, limits, 1).code).toBe('output-limit');
    expect(parseRun(READY, '', N, 128 + 11, null, null, limits, 1)).toEqual({ code: 'runtime-error', message: 'the program crashed (SIGSEGV)', outputs: [] });
    expect(parseRun(READY, '', N, 128, null, null, limits, 1).code).toBe('exited'); // 128 + 0 is no signal
    expect(parseRun(READY, 'MemoryError\n', N, 1, null, null, limits, 1)).toEqual({ code: 'memory-limit', message: 'MemoryError', outputs: [] });
  });

  test('endedEarly names each code', () => {
    expect(endedEarly(null, 'SIGXCPU', '', limits)).toEqual({ code: 'timeout', message: 'the program ran past its time budget (1000 ms per test)', outputs: [] });
    expect(endedEarly(null, 'SIGXFSZ', '', limits)).toEqual({ code: 'output-limit', message: 'the program wrote more output than allowed', outputs: [] });
    expect(endedEarly(null, 'SIGABRT', '', limits).code).toBe('runtime-error');
    expect(endedEarly(null, 'SIGBUS', '', limits).code).toBe('runtime-error');
    expect(endedEarly(null, 'SIGUSR1', '', limits).code).toBe('killed-by-signal');
    expect(endedEarly(3, null, '', limits).message).toBe("the program ended the sandbox's process (exit status 3) before its results were written");
  });
});
