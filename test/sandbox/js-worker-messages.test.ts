/**
 * The JavaScript sandbox worker's message loop (src/sandbox/worker/js-worker.cjs) spoken to
 * directly: a request that is not JSON, or not an object, is answered as an unknown op — the
 * worker never dies of a message. (Found by mutation testing: the `?.` reading a malformed
 * request's fields could be dropped without a test failing.)
 */
import type { ChildProcess } from 'node:child_process';
import { startWorker } from './js-worker-process';

let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));

test('a request that is not JSON, or JSON null, is answered with an unknown-op error, and the worker answers the next one', async () => {
  worker = startWorker();
  const answers: unknown[] = [];
  const three = new Promise<void>((resolve, reject) => {
    worker!.on('message', (m) => {
      answers.push(typeof m === 'string' ? JSON.parse(m) : m);
      if (answers.length === 3) resolve();
    });
    worker!.on('exit', (code, signal) => reject(new Error(`the worker ended (${code ?? signal})`)));
  });
  worker.send('{not json');
  worker.send('null');
  worker.send(JSON.stringify({ id: 7, op: 'no-such-op', req: {} }));
  await three;
  expect(answers).toEqual([
    { ok: false, error: 'unknown op "undefined"' },
    { ok: false, error: 'unknown op "undefined"' },
    { id: 7, ok: false, error: 'unknown op "no-such-op"' },
  ]);
});

test('only JSON text is read as a batch: an array sent as an object is one malformed request', async () => {
  worker = startWorker();
  const answer = new Promise<unknown>((resolve, reject) => {
    worker!.once('message', resolve);
    worker!.on('exit', (code, signal) => reject(new Error(`the worker ended (${code ?? signal})`)));
  });
  worker.send([{ id: 1, op: 'no-such-op', req: {} }]);
  expect(await answer).toEqual({ ok: false, error: 'unknown op "undefined"' });
});

/** Forks a worker; resolves with its next `n` messages, as they came (JSON text stays text). */
function collect(w: ChildProcess, n: number): Promise<unknown[]> {
  const got: unknown[] = [];
  return new Promise((resolve, reject) => {
    w.on('message', (m) => {
      got.push(m);
      if (got.length === n) resolve(got);
    });
    w.on('exit', (code, signal) => reject(new Error(`the worker ended (${code ?? signal}) after ${JSON.stringify(got)}`)));
  });
}

test('an answer goes back in the form its request came (JSON text, or an object), a synchronous op\'s value too', async () => {
  worker = startWorker();
  const got = collect(worker, 2);
  // lab.close answers at once (not a promise): the worker sends its value as it is
  worker.send({ id: 1, op: 'lab.close', req: { id: 'none' } });
  worker.send(JSON.stringify({ id: 2, op: 'lab.close', req: { id: 'none' } }));
  expect(await got).toEqual([{ id: 1, ok: true, res: { closed: true } }, '{"id":2,"ok":true,"res":{"closed":true}}']);
});

test("an op whose promise rejects (a code run without limits) is answered with the error's message, and the worker goes on", async () => {
  worker = startWorker();
  const got = collect(worker, 2);
  worker.send(JSON.stringify({ id: 1, op: 'tests', req: { program: 'function f(){ return 1 }', entry: 'f', tests: [] } }));
  worker.send(JSON.stringify({ id: 2, op: 'tests', req: { program: 'function f(){ return 2 }', entry: 'f', tests: [{ input: [] }], limits: { timeMs: 5000, memoryMb: 64, outputBytes: 1000 } } }));
  const [failed, next] = (await got).map((m) => JSON.parse(m as string));
  // the message alone, as for a synchronous throw (not "TypeError: ...")
  expect(failed).toEqual({ id: 1, ok: false, error: expect.stringMatching(/^Cannot (destructure|read)/) });
  expect(next).toEqual({ id: 2, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '2' }] } });
});
