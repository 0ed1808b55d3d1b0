/**
 * The Python harness's output limits at their boundary (`_Capture` and `_run_inputs` in
 * src/sandbox/python-harness.ts): `outputBytes` characters printed, stdout and stderr together
 * over the whole batch, are allowed and one more is an output-limit; a test's output text of
 * exactly `outputBytes` characters is kept and one more is an output-limit. The capture is a
 * writable stream whose `write` answers the count of characters, as a real stdout does, for a
 * program that asks. (Found by stryker/python-mutants.cjs: `>` made `>=` in either check,
 * `writable()` made False and `write` answering None left every other test passing.)
 */
import { runPythonBatch, pythonSandboxProblem } from '../../src/sandbox/python-runner';
import type { JsonValue } from '../../src/core/json';
import type { RawRun } from '../../src/sandbox/raw-run';

beforeAll(() => expect(pythonSandboxProblem()).toBeNull());

const program = `import sys
def f(x, n):
    if x == 'print':
        print('p' * (n - 1))  # n characters with the newline
    if x == 'stderr':
        sys.stderr.write('e' * n)
    if x == 'return':
        return 'r' * (n - 2)  # n characters with the quotes
    if x == 'writable':
        return [sys.stdout.writable(), sys.stderr.writable(), sys.stdout.write('abc')]
    return x`;
const run = (inputs: JsonValue[][]): Promise<RawRun> => runPythonBatch({ program, entry: 'f', inputs, limits: { timeMs: 2000, memoryMb: 128, outputBytes: 50 } });
const codes = (r: RawRun) => r.outputs.map((o) => (o.code === 'ok' ? o.text : `${o.code}: ${o.message}`));

test('printing: exactly the limit, stdout and stderr together over the batch, is allowed; one more character is not', async () => {
  const [exact, over, together] = await Promise.all([
    run([['print', 50], ['x', 0]]),
    run([['print', 51], ['x', 0]]),
    run([['print', 20], ['stderr', 30], ['stderr', 1]]),
  ]);
  expect(codes(exact)).toEqual(['"print"', '"x"']);
  expect(codes(over)).toEqual(['output-limit: more than 50 characters printed', '"x"']);
  expect(codes(together)).toEqual(['"print"', '"stderr"', 'output-limit: more than 50 characters printed']);
});

test("a test's output text: exactly the limit is kept; one more character is an output-limit", async () => {
  const r = await run([['return', 50], ['return', 51]]);
  expect(r.outputs).toEqual([
    { code: 'ok', text: `"${'r'.repeat(48)}"` },
    { code: 'output-limit', message: 'output of 51 characters exceeds 50' },
  ]);
});

test("the program's stdout and stderr say they are writable; a write answers its count of characters", async () => {
  const r = await run([['writable', 0]]);
  expect(codes(r)).toEqual(['[true, true, 3]']);
});
