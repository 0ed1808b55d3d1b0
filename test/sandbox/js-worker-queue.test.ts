/**
 * The JavaScript sandbox worker's queue (src/sandbox/worker/js-worker.cjs), spoken to directly:
 * a cancel drops exactly the request it names among several waiting (the pool sends one ahead,
 * but the worker's contract is a queue), and a worker whose pool goes away ends even while a
 * program runs (an orphaned worker must not keep running hostile code).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));

const start = (): ChildProcess =>
  fork(join(__dirname, '../../src/sandbox/worker/js-worker.cjs'), [], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });

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
