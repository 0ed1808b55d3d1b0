/**
 * The heartbeat's context is read by another thread while its writer rewrites it (every match
 * names its match id): a reading must never come back empty because it met a write in progress.
 * That empty reading once made Ctrl-C print "stopping" instead of the command's own message
 * (test/cli/signals.test.ts failed in CI at load). The writer here is the real HeartbeatWriter
 * (compiled dist/) in a worker thread, rewriting the context as fast as it can.
 */
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createHeartbeatBuffer, HeartbeatWriter, readHeartbeat } from '../../src/core/heartbeat';
import { ensureBuilt } from '../fixtures/built';

const ROOT = resolve(__dirname, '..', '..');

test('a context read during constant rewrites always has its stable fields', async () => {
  ensureBuilt();
  const buffer = createHeartbeatBuffer();
  new HeartbeatWriter(buffer).context({ stopping: 'stopping after the current match' });
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const { HeartbeatWriter } = require(workerData.module);
     const w = new HeartbeatWriter(workerData.buffer);
     w.context({ stopping: 'stopping after the current match' });
     const agents = Array.from({ length: 40 }, (_, i) => 'agent-' + i);
     w.context({ match: 'match-start', agents });
     parentPort.postMessage('writing');
     for (let i = 0; Atomics.load(workerData.stop, 0) === 0; i++) w.context({ match: 'match-' + i, agents });`,
    { eval: true, workerData: { buffer, stop, module: resolve(ROOT, 'dist/src/core/heartbeat.js') } },
  );
  const exited = new Promise((r) => worker.once('exit', r));
  try {
    await new Promise<void>((ok, fail) => {
      worker.once('message', () => ok());
      worker.once('error', fail);
    });
    let empty = 0;
    let matches = 0;
    for (let i = 0; i < 5000; i++) {
      const c = readHeartbeat(buffer, true).context;
      if (c.stopping !== 'stopping after the current match') empty++;
      if (typeof c.match === 'string') matches++;
    }
    expect(empty).toBe(0);
    expect(matches).toBe(5000);
  } finally {
    Atomics.store(stop, 0, 1);
    await exited;
  }
});

test('a writer stuck in the middle of a write does not hang the reader (it gets an empty context)', async () => {
  ensureBuilt();
  const buffer = createHeartbeatBuffer();
  new HeartbeatWriter(buffer).context({ stopping: 'x' });
  const i32 = new Int32Array(buffer, 0, 8);
  Atomics.add(i32, 7, 1); // the version made odd: a write begun and never finished
  // read in a worker: a reader that never gave up would block this thread for good
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const { readHeartbeat } = require(workerData.module);
     parentPort.postMessage(readHeartbeat(workerData.buffer, true).context);`,
    { eval: true, workerData: { buffer, module: resolve(ROOT, 'dist/src/core/heartbeat.js') } },
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    const read = await Promise.race([
      new Promise((ok) => worker.once('message', ok)),
      new Promise((ok) => (timer = setTimeout(() => ok('still waiting after 30 s'), 30_000))),
    ]);
    expect(read).toEqual({});
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
  Atomics.add(i32, 7, 1);
  expect(readHeartbeat(buffer, true).context).toEqual({ stopping: 'x' });
});
