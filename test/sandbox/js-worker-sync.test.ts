/**
 * The JavaScript sandbox worker started with `--sync` (as the pool starts it;
 * src/sandbox/worker/js-worker.cjs): a code run of one test that came alone, with nothing queued
 * behind it, makes synchronous isolate calls — the worker's thread is blocked while it runs, so a
 * cancel sent then is heard only after it (the pool kills a worker whose lone run it cancels);
 * the messages that came while it ran are all read before the next request starts, so a cancel
 * sent behind a request still skips it; and an orphaned worker ends once the run's limit ends
 * the run. Without `--sync` the same cancel ends the running request at once (js-worker-queue).
 */
import type { ChildProcess } from 'node:child_process';
import { startWorker } from './js-worker-process';

let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));

const start = (args: string[]): ChildProcess => startWorker(args);

/** A code run of one test as the pool sends it (JSON text). */
const run = (id: number, program: string, timeMs = 5000) =>
  JSON.stringify({ id, op: 'tests', req: { program, entry: 'f', tests: [{ input: [] }], limits: { timeMs, memoryMb: 64, outputBytes: 10_000 } } });

/** A program that keeps the isolate busy until its time limit. */
const LOOP = 'function f(){ for (;;) {} }';

/** The worker's next `n` answers (parsed). */
function answers(w: ChildProcess, n: number): Promise<unknown[]> {
  const got: unknown[] = [];
  return new Promise((resolve, reject) => {
    const on = (m: unknown) => {
      got.push(typeof m === 'string' ? JSON.parse(m) : m);
      if (got.length === n) {
        w.off('message', on);
        resolve(got);
      }
    };
    w.on('message', on);
    w.once('exit', (code, signal) => reject(new Error(`the worker ended (${code ?? signal}) after ${JSON.stringify(got)}`)));
  });
}

/** A started worker that has answered one run (so the next one starts as soon as it is read). */
async function ready(args: string[]): Promise<ChildProcess> {
  const w = start(args);
  const first = answers(w, 1);
  w.send(run(1, 'function f(){ return 1 }'));
  expect(await first).toMatchObject([{ id: 1, ok: true, res: { code: 'ok' } }]);
  return w;
}

/** A lone LOOP run, then (once it runs) a cancel of it: the worker's answers. */
async function cancelWhileRunning(w: ChildProcess): Promise<unknown[]> {
  const got = answers(w, 1);
  w.send(run(2, LOOP, 1500));
  await new Promise((r) => setTimeout(r, 300)); // the run starts as its message is read
  w.send({ cancel: 2 });
  return got;
}

test('with --sync a lone one-test run blocks the worker: a cancel sent while it runs is heard after it, and the run ends by its limit', async () => {
  worker = await ready(['--sync']);
  expect(await cancelWhileRunning(worker)).toMatchObject([{ id: 2, ok: true, res: { code: 'ok', outputs: [{ code: 'timeout' }] } }]);
  // the late cancel is dropped: the worker goes on
  const next = answers(worker, 1);
  worker.send(run(3, 'function f(){ return 3 }'));
  expect(await next).toMatchObject([{ id: 3, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '3' }] } }]);
});

test('without --sync the same cancel ends the running request at once (asynchronous calls)', async () => {
  worker = await ready([]);
  expect(await cancelWhileRunning(worker)).toEqual([{ id: 2, ok: false, error: 'cancelled', cancelled: true, retire: true }]);
});

test('with --sync the messages that came during a run are read before the next starts: a cancel sent behind a request skips it', async () => {
  worker = await ready(['--sync']);
  const got = answers(worker, 3);
  worker.send(run(2, LOOP, 1000)); // blocks the worker while the next two messages arrive
  await new Promise((r) => setTimeout(r, 300));
  worker.send(run(3, 'function f(){ return 3 }'));
  worker.send({ cancel: 3 });
  worker.send(run(4, 'function f(){ return 4 }'));
  const [a, b, c] = await got;
  expect(a).toMatchObject({ id: 2, ok: true, res: { outputs: [{ code: 'timeout' }] } });
  expect(b).toEqual({ id: 3, ok: false, error: 'cancelled', cancelled: true });
  expect(c).toMatchObject({ id: 4, ok: true, res: { outputs: [{ code: 'ok', text: '4' }] } });
});

test('with --sync an orphaned worker ends once the running run reaches its limit', async () => {
  worker = await ready(['--sync']);
  const exited = new Promise<number | null>((resolve) => worker!.on('exit', (code) => resolve(code)));
  worker.send(run(2, LOOP, 1500));
  await new Promise((r) => setTimeout(r, 300));
  worker.disconnect();
  expect(await exited).toBe(0);
});

test('with --sync a request with another queued behind it keeps the asynchronous calls: a cancel sent while it runs ends it at once', async () => {
  worker = await ready(['--sync']);
  const first = answers(worker, 1);
  worker.send(run(2, LOOP, 1000)); // a lone run: it blocks the worker while the next two arrive, so they are read together
  await new Promise((r) => setTimeout(r, 300));
  worker.send(run(3, LOOP, 5000)); // starts with 4 queued behind it
  worker.send(run(4, 'function f(){ return 4 }'));
  expect(await first).toMatchObject([{ id: 2, ok: true, res: { outputs: [{ code: 'timeout' }] } }]);
  const next = answers(worker, 1);
  await new Promise((r) => setTimeout(r, 300));
  worker.send({ cancel: 3 });
  expect(await next).toEqual([{ id: 3, ok: false, error: 'cancelled', cancelled: true, retire: true }]);
});

test('with --sync a program loaded alone (its joined lookup does not compile) is still found by a synchronous lookup, as a reference', async () => {
  worker = start(['--sync']);
  const got = answers(worker, 1);
  // declaring the lookup's own name makes the joined source a redeclaration: the program is loaded alone, its entry looked up apart
  worker.send(run(1, 'const __sandbox_entry__ = 0; function f(){ return 41 + 1 }'));
  expect(await got).toMatchObject([{ id: 1, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '42' }] } }]);
});
