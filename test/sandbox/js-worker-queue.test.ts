/**
 * The JavaScript sandbox worker's queue (src/sandbox/worker/js-worker.cjs), spoken to directly:
 * a cancel drops exactly the request it names among several waiting; a worker whose pool goes
 * away ends even while a program runs (an orphaned worker must not keep running hostile code); a
 * batch is answered by one message, in order; and a cancel of a batch's running request answers
 * the batch so far and ends the worker (the program cannot be stopped otherwise).
 */
import type { ChildProcess } from 'node:child_process';
import { startWorker } from './js-worker-process';

let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));

const start = (): ChildProcess => startWorker();

/** A code run as the pool sends it (JSON text). */
const run = (id: number, program: string, timeMs = 5000) =>
  JSON.stringify({ id, op: 'tests', req: { program, entry: 'f', tests: [{ input: [] }], limits: { timeMs, memoryMb: 64, outputBytes: 10_000 } } });

/** A program that keeps the worker busy (asynchronously, in the isolate) until its time limit. */
const LOOP = 'function f(){ for (;;) {} }';

test('a cancel among several waiting requests drops only the one it names', async () => {
  worker = start();
  const answers = new Map<number, unknown>();
  const all = new Promise<void>((resolve, reject) => {
    worker!.on('message', (m) => {
      const a = typeof m === 'string' ? JSON.parse(m) : m;
      answers.set(a.id, a);
      if (answers.size === 4) resolve();
    });
    worker!.on('exit', (code, signal) => reject(new Error(`the worker ended (${code ?? signal})`)));
  });
  worker.send(run(1, LOOP, 1500)); // runs until its limit; the next three wait behind it
  worker.send(run(2, 'function f(){ return 2 }'));
  worker.send(run(3, 'function f(){ return 3 }'));
  worker.send(run(4, 'function f(){ return 4 }'));
  worker.send({ cancel: 3 });
  await all;
  expect(answers.get(1)).toMatchObject({ id: 1, ok: true, res: { outputs: [{ code: 'timeout' }] } });
  expect(answers.get(3)).toEqual({ id: 3, ok: false, error: 'cancelled', cancelled: true });
  for (const id of [2, 4]) expect(answers.get(id)).toMatchObject({ id, ok: true, res: { code: 'ok' } });
});

test('a worker whose pool disconnects ends, even in the middle of a run', async () => {
  worker = start();
  const exited = new Promise<number | null>((resolve) => worker!.on('exit', (code) => resolve(code)));
  worker.send(run(1, LOOP, 60_000)); // would run for a minute
  worker.send(run(2, LOOP, 60_000));
  worker.disconnect();
  expect(await exited).toBe(0);
}, 30_000);

/** Collects the worker's messages (parsed) until `n` have come. */
function answers(w: ChildProcess, n: number): Promise<unknown[]> {
  const got: unknown[] = [];
  return new Promise((resolve, reject) => {
    w.on('message', (m) => {
      got.push(typeof m === 'string' ? JSON.parse(m) : m);
      if (got.length === n) resolve(got);
    });
    w.on('exit', (code, signal) => reject(new Error(`the worker ended (${code ?? signal}) after ${JSON.stringify(got)}`)));
  });
}

test('a batch (a JSON array of requests) is answered by one message: the array of its answers, in order', async () => {
  worker = start();
  const got = answers(worker, 2);
  worker.send(`[${run(1, 'function f(){ return 1 }')},${run(2, 'function f(){ throw new Error("two") }')},${run(3, 'function f(){ return 3 }')}]`);
  worker.send(run(4, 'function f(){ return 4 }')); // a single request behind it: answered on its own
  const [batch, single] = await got;
  expect(batch).toMatchObject([
    { id: 1, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '1' }] } },
    { id: 2, ok: true, res: { code: 'ok', outputs: [{ code: 'runtime-error', message: 'Error: two' }] } },
    { id: 3, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '3' }] } },
  ]);
  expect(single).toMatchObject({ id: 4, ok: true, res: { code: 'ok' } });
});

test('a cancel of the running request of a batch answers the batch so far, marked retire, and the worker ends; a cancel of a waiting one skips it', async () => {
  worker = start();
  const got = answers(worker, 1);
  const exited = new Promise<string | null>((resolve) => worker!.on('exit', (_code, signal) => resolve(signal)));
  worker.send(`[${run(1, LOOP, 60_000)},${run(2, 'function f(){ return 2 }')},${run(3, 'function f(){ return 3 }')}]`);
  worker.send({ cancel: 2 }); // waiting
  worker.send({ cancel: 1 }); // running (the batch's first request starts as the batch arrives)
  expect(await got).toEqual([[{ id: 1, ok: false, error: 'cancelled', cancelled: true, retire: true }]]);
  expect(await exited).toBe('SIGKILL');
});

test('a cancel is never a request: one for an id that is neither waiting nor running changes nothing and is not answered', async () => {
  worker = start();
  const got = answers(worker, 2);
  worker.send(run(1, LOOP, 1000)); // running when the cancel comes
  worker.send({ cancel: 99 });
  worker.send(run(2, 'function f(){ return 2 }'));
  const [first, second] = await got;
  expect(first).toMatchObject({ id: 1, ok: true, res: { outputs: [{ code: 'timeout' }] } });
  expect(first).not.toHaveProperty('retire');
  expect(second).toMatchObject({ id: 2, ok: true, res: { outputs: [{ code: 'ok', text: '2' }] } });
});

test('a cancel of a running request that is not a code run (an AssemblyScript compile) is dropped: it is answered in full and the worker goes on', async () => {
  worker = start();
  const got = answers(worker, 2);
  worker.send({ id: 1, op: 'asc.compile', req: { source: 'export function f(): i32 { return 1 }' } }); // loads the compiler: running for seconds
  worker.send({ cancel: 1 });
  worker.send(run(2, 'function f(){ return 2 }'));
  const [compiled, next] = await got;
  expect(compiled).toMatchObject({ id: 1, ok: true, res: { code: 'ok' } });
  expect(compiled).not.toHaveProperty('retire');
  expect(next).toMatchObject({ id: 2, ok: true, res: { code: 'ok' } });
}, 60_000);
