/**
 * A call's timer ends with the call (`_timed` in src/sandbox/python-harness.ts): in check mode
 * the candidate's process waits between calls for as long as check() takes, and no alarm of an
 * earlier call may fire there. A check() that works longer than the time limit between two
 * quick calls passes. (Found by stryker/python-mutants.cjs: the timer left running after a call,
 * or set to 1 s instead of cancelled, killed nothing else: in one process the next call sets a
 * fresh timer at once.)
 */
import { runPythonBatch, pythonSandboxProblem } from '../../src/sandbox/python-runner';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

test("check() may take longer than the time limit between the candidate's calls", async () => {
  // longer than the 1,000 ms limit and than 1 s; the run's wall clock (6 s here) covers it
  const check = 'def check(candidate):\n    assert candidate(1) == 1\n    import time\n    time.sleep(1.3)\n    assert candidate(2) == 2';
  const r = await runPythonBatch({ program: 'def f(x):\n    return x', entry: 'f', inputs: [], check, limits: { timeMs: 1000, memoryMb: 128, outputBytes: 100 } });
  expect(r.check).toEqual({ code: 'ok' });
});
