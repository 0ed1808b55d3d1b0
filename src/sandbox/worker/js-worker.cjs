// @ts-check
'use strict';
/**
 * Entry of a sandbox worker process (forked by src/sandbox/pool.ts with --no-node-snapshot and
 * structured-clone IPC). Answers one request at a time: { id, op, req } -> { id, ok, res } or
 * { id, ok: false, error }; an op may answer with a promise (the AssemblyScript compiler). A crash
 * of isolated-vm ends this process only; the pool restarts it.
 */
// Optimizing compilation on the main thread: with background (concurrent) recompilation, when an
// optimized version of a kernel is installed depends on thread scheduling, and two isolates given
// the same calls could end up with different code — measured here: in 3 of 20 A/A sessions one
// copy of the softmax reference ran 4.4x slower than the other. Synchronous compilation makes
// the code a kernel gets a function of the calls it saw (bench/kernel-speedup.ts, README).
require('node:v8').setFlagsFromString('--no-concurrent-recompilation');
const runner = require('./isolate-runner.cjs');
const { compileAssemblyScript } = require('./asc-compile.cjs');

const OPS = {
  tests: runner.runTests,
  'lab.open': runner.labOpen,
  'lab.call': runner.labCall,
  'lab.close': runner.labClose,
  'asc.compile': compileAssemblyScript,
};

/**
 * Sends a reply, or an error reply when the result cannot be cloned. When a run left an isolate
 * it could not stop (runner.mustExit()), the worker ends once the reply is out: the pool starts
 * a fresh one, and nothing the stuck isolate still does can reach a later run.
 */
function reply(id, res) {
  if (!process.send) return;
  const after = () => {
    if (runner.mustExit()) process.kill(process.pid, 'SIGKILL');
  };
  try {
    // retire: the pool must not send this worker another request (it ends right after)
    process.send({ id, ok: true, res, ...(runner.mustExit() ? { retire: true } : {}) }, after);
  } catch (e) {
    fail(id, e);
  }
}

/** Sends an error reply (then ends, as `reply` does, when the worker must). */
function fail(id, e) {
  if (!process.send) return;
  process.send({ id, ok: false, error: e instanceof Error ? e.message : String(e), ...(runner.mustExit() ? { retire: true } : {}) }, () => {
    if (runner.mustExit()) process.kill(process.pid, 'SIGKILL');
  });
}

process.on('message', (msg) => {
  const { id, op, req } = msg || {};
  try {
    const f = OPS[op];
    if (!f) throw new Error(`unknown op "${op}"`);
    const res = f(req);
    if (res && typeof res.then === 'function') {
      res.then(
        (v) => reply(id, v),
        (e) => fail(id, e),
      );
    } else reply(id, res);
  } catch (e) {
    fail(id, e);
  }
});
process.on('disconnect', () => process.exit(0));
if (process.send) process.send({ ready: true });
