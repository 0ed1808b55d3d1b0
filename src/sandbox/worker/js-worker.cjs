// @ts-check
'use strict';
/**
 * Entry of a sandbox worker process (forked by src/sandbox/pool.ts with --no-node-snapshot and
 * structured-clone IPC). Requests { id, op, req } arrive as objects, or as JSON text for plain
 * data (code runs); they queue here and run one at a time, in the order they came, each answered
 * in the form it came: { id, ok, res } or { id, ok: false, error }. The pool sends code runs
 * ahead (pipelining), so the next one waits here while one runs; { cancel: id } drops a request
 * that has not started (answered { id, ok: false, cancelled: true }). An op may answer with a
 * promise (code runs, the AssemblyScript compiler). Between code runs the next run's fresh
 * context is prepared (runner.prepare). A crash of isolated-vm ends this process only; the pool
 * restarts it and sends the requests that never started to the new one.
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

/** @type {{ id: unknown, op: unknown, req: unknown, json: boolean }[]} requests waiting, in arrival order */
const queue = [];
/** Ids the pool cancelled before they started. */
const cancelled = new Set();
let running = false;

/**
 * Answers a request at once (JSON text when the request came as text): an answer held back while
 * later runs go on would be lost with them if one of them ended this process, and the pool would
 * blame the wrong run. When a run left an isolate it could not stop (runner.mustExit()), the
 * worker ends once the answer is out, running nothing more: the pool starts a fresh one, and
 * nothing the stuck isolate still does can reach a later run.
 */
function answer(m, json) {
  const retire = runner.mustExit();
  const out = retire ? { ...m, retire: true } : m;
  const after = retire ? () => process.kill(process.pid, 'SIGKILL') : undefined;
  try {
    process.send?.(json ? JSON.stringify(out) : out, after);
  } catch (e) {
    // the result could not be cloned
    process.send?.({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e), ...(retire ? { retire: true } : {}) }, after);
  }
  return !retire;
}

/** Runs the queued requests one at a time; prepares the next code run's context when the queue runs dry. */
function next() {
  while (!running && queue.length) {
    const { id, op, req, json } = /** @type {typeof queue[number]} */ (queue.shift());
    if (cancelled.delete(id)) {
      answer({ id, ok: false, error: 'cancelled', cancelled: true }, json);
      continue;
    }
    running = true;
    const settle = (/** @type {object} */ m) => {
      running = false;
      if (!answer(m, json)) return;
      if (queue.length) next();
      else if (op === 'tests') runner.prepare();
    };
    try {
      const f = OPS[/** @type {keyof typeof OPS} */ (op)];
      if (!f) throw new Error(`unknown op "${String(op)}"`);
      const res = f(/** @type {never} */ (req));
      if (res && typeof res.then === 'function') {
        res.then(
          (v) => settle({ id, ok: true, res: v }),
          (e) => settle({ id, ok: false, error: e instanceof Error ? e.message : String(e) }),
        );
      } else settle({ id, ok: true, res });
    } catch (e) {
      settle({ id, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
}

process.on('message', (raw) => {
  const json = typeof raw === 'string';
  let msg;
  try {
    msg = json ? JSON.parse(raw) : raw;
  } catch (e) {
    msg = null;
  }
  if (msg && typeof msg.cancel === 'number') {
    // a cancel for a request still waiting here; one that already ran was answered (and is dropped by the pool)
    if (queue.some((q) => q.id === msg.cancel)) cancelled.add(msg.cancel);
    return;
  }
  // several JSON-text requests may come as one array
  for (const one of json && Array.isArray(msg) ? msg : [msg]) queue.push({ id: one?.id, op: one?.op, req: one?.req, json });
  next();
});
process.on('disconnect', () => process.exit(0));
