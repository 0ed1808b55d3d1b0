/**
 * The JavaScript sandbox worker's message loop (src/sandbox/worker/js-worker.cjs) spoken to
 * directly: a request that is not JSON, or not an object, is answered as an unknown op — the
 * worker never dies of a message. (Found by mutation testing: the `?.` reading a malformed
 * request's fields could be dropped without a test failing.)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));

test('a request that is not JSON, or JSON null, is answered with an unknown-op error, and the worker answers the next one', async () => {
  worker = fork(join(__dirname, '../../src/sandbox/worker/js-worker.cjs'), [], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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
  worker = fork(join(__dirname, '../../src/sandbox/worker/js-worker.cjs'), [], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const answer = new Promise<unknown>((resolve, reject) => {
    worker!.once('message', resolve);
    worker!.on('exit', (code, signal) => reject(new Error(`the worker ended (${code ?? signal})`)));
  });
  worker.send([{ id: 1, op: 'no-such-op', req: {} }]);
  expect(await answer).toEqual({ ok: false, error: 'unknown op "undefined"' });
});
