// @ts-check
'use strict';
/**
 * The JSON text of the sandbox worker's answers (js-worker.cjs): one answer, or a batch's — the
 * JSON array of its answers, sent as one message. Text cannot be longer than V8's longest string
 * (`buffer.constants.MAX_STRING_LENGTH`, about 537 million characters): an answer that would be
 * is replaced by an error answer, and a batch whose answers each fit but not together is
 * answered in part, its last answer marked `retire` — the pool reads a shorter batch answer only
 * so: it sends the rest again, to a fresh worker, and this worker ends. (Before, the batch's
 * answers were joined outside any check: several large answers ended the worker with a
 * RangeError, and the pool ran each of the batch's requests again, alone.)
 */
const { constants } = require('node:buffer');

/** @typedef {{ id?: unknown, retire?: unknown }} Answer */

/**
 * A JSON-text answer; one whose result cannot be written (too long, a BigInt, a cycle) becomes
 * an error answer `{ id, ok: false, error }` with the reason.
 * @param {Answer} m
 * @returns {string}
 */
function encode(m) {
  try {
    return JSON.stringify(m);
  } catch (e) {
    return JSON.stringify({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * A batch's answer: `[a,b,…]`, the answers' texts (`encode`) in order, or, when together they
 * pass `max` characters, the longest head of them that fits with its last answer marked
 * `retire: true` (re-encoded so; `cut` is then true: the worker must end, the pool sends the
 * rest again). An answer that does not fit even alone is replaced by the error answer
 * `{ id, ok: false, error }`, marked `retire` when others were cut after it or it was so marked.
 * @param {Answer[]} answers at least one
 * @param {number} [max] the longest text allowed (tests give a small one)
 * @returns {{ text: string, cut: boolean }}
 */
function batchText(answers, max = constants.MAX_STRING_LENGTH) {
  const texts = answers.map(encode);
  // '[', then each answer's text and the character after it (',' or the closing ']')
  const size = (/** @type {number} */ n) => texts.slice(0, n).reduce((sum, t) => sum + t.length + 1, 1);
  let count = texts.length;
  while (count > 1 && size(count) > max) {
    count--;
    texts[count - 1] = encode({ ...answers[count - 1], retire: true });
  }
  if (size(count) > max) {
    const retire = answers.length > 1 || answers[0].retire === true;
    texts[0] = encode({ id: answers[0].id, ok: false, error: 'the answer is too long to send', ...(retire ? { retire: true } : {}) });
  }
  return { text: `[${texts.slice(0, count).join(',')}]`, cut: count < answers.length };
}

module.exports = { encode, batchText };
