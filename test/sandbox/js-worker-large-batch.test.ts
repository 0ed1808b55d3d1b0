/**
 * A batch whose answers each fit in one message but not together (src/sandbox/worker/js-worker.cjs,
 * answer-text.cjs): three code runs of maximal output — 64 million characters of text per test,
 * two tests, about 256 million characters of JSON per answer, escaped — are 768 million together,
 * past V8's longest string (about 537 million). The worker answers the first two, the second
 * marked `retire`, and ends; the pool sends the third again to a fresh worker. (Before, the
 * answers were joined outside any check: the worker died of a RangeError with no answer, and the
 * pool ran all three again, each alone.) Heavy: about 2 GB of memory and seconds of CPU; kept
 * out of the mutation lists.
 */
import type { ChildProcess } from 'node:child_process';
import { startWorker } from './js-worker-process';
import { constants } from 'node:buffer';

jest.setTimeout(120_000);

let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));

/** 32 million backslashes: JSON text of 64 million characters (the largest output), twice as long again in an answer. */
const PROGRAM = 'function f(){ return "\\\\".repeat(31_999_999) }';
const run = (id: number) =>
  JSON.stringify({ id, op: 'tests', req: { program: PROGRAM, entry: 'f', tests: [{ input: [] }, { input: [] }], limits: { timeMs: 20_000, memoryMb: 1024, outputBytes: 64_000_000 } } });

test('a batch too long for one message is answered in part, its last answer marked retire, and the worker ends', async () => {
  worker = startWorker();
  const exited = new Promise<string>((resolve) => worker!.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`)));
  const answer = new Promise<string>((resolve, reject) => {
    worker!.once('message', (m) => resolve(m as string));
    void exited.then((how) => reject(new Error(`the worker ended with no answer (${how})`)));
  });
  worker.send(`[${run(1)},${run(2)},${run(3)}]`);
  const text = await answer;
  expect(text.length).toBeLessThanOrEqual(constants.MAX_STRING_LENGTH);
  const got = JSON.parse(text) as { id: number; ok: boolean; retire?: boolean; res: { code: string; outputs: { code: string; text: string }[] } }[];
  expect(got.map((a) => [a.id, a.ok, a.res.code, a.res.outputs.map((o) => [o.code, o.text.length]), a.retire ?? false])).toEqual([
    [1, true, 'ok', [['ok', 64_000_000], ['ok', 64_000_000]], false],
    [2, true, 'ok', [['ok', 64_000_000], ['ok', 64_000_000]], true],
  ]);
  expect(await exited).toBe('SIGKILL');
});
