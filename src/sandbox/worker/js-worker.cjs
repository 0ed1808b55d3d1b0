// @ts-check
'use strict';
/**
 * Entry of a sandbox worker process (forked by src/sandbox/pool.ts with --no-node-snapshot and
 * structured-clone IPC). Answers one request at a time: { id, op, req } -> { id, ok, res } or
 * { id, ok: false, error }. A crash of isolated-vm ends this process only; the pool restarts it.
 */
const runner = require('./isolate-runner.cjs');

const OPS = { tests: runner.runTests, 'lab.open': runner.labOpen, 'lab.call': runner.labCall, 'lab.close': runner.labClose };

process.on('message', (msg) => {
  const { id, op, req } = msg || {};
  let reply;
  try {
    const f = OPS[op];
    if (!f) throw new Error(`unknown op "${op}"`);
    reply = { id, ok: true, res: f(req) };
  } catch (e) {
    reply = { id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  if (process.send) process.send(reply);
});
process.on('disconnect', () => process.exit(0));
if (process.send) process.send({ ready: true });
