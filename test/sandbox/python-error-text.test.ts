/**
 * How the Python harness names a program's exception (`_text` in src/sandbox/python-harness.ts):
 * never by trusting the exception. A metaclass can make a class's `__name__` anything; the
 * message is then "an exception", and the run goes on. (Found by stryker/python-mutants.cjs: the
 * `name = "an exception"` fallback could be dropped without a test failing.)
 */
import { runPythonBatch, pythonSandboxProblem } from '../../src/sandbox/python-runner';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

test('an exception whose class has a __name__ that is not a string is "an exception"; the next test still runs', async () => {
  const program = [
    'class M(type):',
    '    __name__ = property(lambda c: 5)',
    'class E(Exception, metaclass=M):',
    '    def __str__(self):',
    '        return ""',
    'def f(x):',
    '    if x == 1:',
    '        raise E()',
    '    return x',
  ].join('\n');
  const r = await runPythonBatch({ program, entry: 'f', inputs: [[1], [2]], limits: { timeMs: 2000, memoryMb: 128, outputBytes: 2000 } });
  expect(r.code).toBe('ok');
  expect(r.outputs).toEqual([
    { code: 'runtime-error', message: 'an exception' },
    { code: 'ok', text: '2' },
  ]);
});
