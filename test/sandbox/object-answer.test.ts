/**
 * An answer of the sandbox worker sent as an object (src/sandbox/worker/object-answer.cjs): sent
 * as it is, and, when `send` throws for it (structured clone cannot copy it), replaced by an error
 * answer with the reason, so the request is still answered; a `retire` mark is carried. The
 * worker's own answers always clone, so a `send` that throws stands in for one that could not.
 */
import { sendObjectAnswer } from '../../src/sandbox/worker/object-answer.cjs';

type Sent = { m: object; done: unknown };

/** A send that records its calls and throws `thrown` for the first `fails` of them. */
function sender(fails: number, thrown: unknown = new Error('could not be cloned')) {
  const sent: Sent[] = [];
  const send = (m: object, done: unknown) => {
    sent.push({ m, done });
    if (sent.length <= fails) throw thrown;
    return true;
  };
  return { sent, send };
}
const done = () => {};

test('an answer that clones is sent as it is, once, with the callback', () => {
  const { sent, send } = sender(0);
  const m = { id: 1, ok: true, res: { closed: true } };
  sendObjectAnswer(send, m, done);
  expect(sent).toEqual([{ m, done }]);
  expect(sent[0].m).toBe(m);
});

test('an answer that cannot be cloned is replaced by an error answer with the reason, with the same callback', () => {
  const { sent, send } = sender(1);
  const m = { id: 2, ok: true, res: { f: () => 1 } };
  sendObjectAnswer(send, m, done);
  expect(sent).toHaveLength(2);
  expect(sent[0].m).toBe(m);
  expect(sent[1]).toEqual({ m: { id: 2, ok: false, error: 'could not be cloned' }, done });
  expect(sent[1].done).toBe(done);
});

test('a thrown value that is not an Error is its string', () => {
  const { sent, send } = sender(1, 'no clone'); // eslint-disable-line no-throw-literal
  sendObjectAnswer(send, { id: 3, ok: true, res: Symbol('s') }, done);
  expect(sent[1].m).toEqual({ id: 3, ok: false, error: 'no clone' });
});

test('an answer marked retire keeps the mark in its error answer (the pool lets the worker go on it); one not marked gets none', () => {
  const marked = sender(1);
  sendObjectAnswer(marked.send, { id: 4, ok: false, error: 'cancelled', cancelled: true, retire: true, res: () => 1 }, done);
  expect(marked.sent[1].m).toEqual({ id: 4, ok: false, error: 'could not be cloned', retire: true });
  // only `retire: true` is the mark
  const unmarked = sender(1);
  sendObjectAnswer(unmarked.send, { id: 5, ok: true, retire: 'yes' }, done);
  expect(unmarked.sent[1].m).toEqual({ id: 5, ok: false, error: 'could not be cloned' });
  expect('retire' in unmarked.sent[1].m).toBe(false);
});
