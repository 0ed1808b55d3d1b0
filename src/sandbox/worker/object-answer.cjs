// @ts-check
'use strict';
/**
 * Sending one answer of the sandbox worker (js-worker.cjs) as an object, for a request that came
 * as an object (structured-clone IPC). Structured clone cannot copy everything (a function, a
 * symbol, a promise): a `send` that throws for the answer is called again
 * with the error answer `{ id, ok: false, error }`, the reason as its text, so the request is
 * still answered and the pool is not left waiting. The answers the worker sends are plain data
 * and typed arrays (a code run's outputs, the kernel lab's values, the compiler's wasm), which
 * structured clone always copies: this is the guard for an op that would one day answer
 * something else. An answer marked `retire: true` keeps the mark (the pool reads it to let the
 * worker go).
 */

/** @typedef {{ id?: unknown, retire?: unknown }} Answer */
/** @typedef {(m: object, done: (err: Error | null) => void) => unknown} Send as process.send, bound */

/**
 * Sends `m` with `send`; if `send` throws (the answer cannot be cloned), sends the error answer
 * instead, with the same `done`.
 * @param {Send} send
 * @param {Answer} m
 * @param {(err: Error | null) => void} done called by `send` once the answer is out (or failed)
 */
function sendObjectAnswer(send, m, done) {
  try {
    send(m, done);
  } catch (e) {
    send({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e), ...(m.retire === true ? { retire: true } : {}) }, done);
  }
}

module.exports = { sendObjectAnswer };
