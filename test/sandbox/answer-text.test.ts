/**
 * The JSON text of the sandbox worker's answers (src/sandbox/worker/answer-text.cjs): an answer
 * whose result cannot be written becomes an error answer, and a batch whose answers fit one by
 * one but not together is answered in part, its last answer marked `retire` (the pool sends the
 * rest again to a fresh worker). The longest text is V8's longest string; here a small `max`
 * stands for it (test/sandbox/js-worker-large-batch.test.ts sends a batch past the real one).
 */
import { batchText, encode } from '../../src/sandbox/worker/answer-text.cjs';

const ok = (id: number, text: string) => ({ id, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text }] } });

describe('encode', () => {
  test('an answer is its JSON text', () => {
    expect(encode(ok(1, '2'))).toBe(JSON.stringify(ok(1, '2')));
  });

  test('an answer that cannot be written (a BigInt, a cycle) becomes an error answer with the reason', () => {
    expect(JSON.parse(encode({ id: 3, ok: true, res: 1n }))).toEqual({ id: 3, ok: false, error: 'Do not know how to serialize a BigInt' });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(JSON.parse(encode({ id: 4, ok: true, res: cycle }))).toEqual({ id: 4, ok: false, error: expect.stringMatching(/^Converting circular structure to JSON/) });
  });

  test('a thrown value that is not an Error is its string', () => {
    const res = { toJSON: () => { throw 'no'; } }; // eslint-disable-line no-throw-literal
    expect(JSON.parse(encode({ id: 5, ok: true, res }))).toEqual({ id: 5, ok: false, error: 'no' });
  });
});

describe('batchText', () => {
  const answers = [ok(1, 'a'.repeat(50)), ok(2, 'b'.repeat(50)), ok(3, 'c'.repeat(50))];
  const texts = answers.map((a) => JSON.stringify(a));
  const whole = `[${texts.join(',')}]`;
  const withRetire = (a: object) => JSON.stringify({ ...a, retire: true });

  test('answers that fit are the JSON array of their texts, in order, not cut — up to exactly the longest text', () => {
    expect(batchText(answers)).toEqual({ text: whole, cut: false });
    expect(batchText(answers, whole.length)).toEqual({ text: whole, cut: false });
  });

  test('one character too many: the longest head that fits, its last answer marked retire', () => {
    const two = `[${texts[0]},${withRetire(answers[1])}]`;
    expect(batchText(answers, whole.length - 1)).toEqual({ text: two, cut: true });
    expect(batchText(answers, two.length)).toEqual({ text: two, cut: true });
    expect(JSON.parse(two)).toEqual([answers[0], { ...answers[1], retire: true }]);
  });

  test('the retire mark counts: a head that fits only without it is cut one answer shorter', () => {
    const two = `[${texts[0]},${withRetire(answers[1])}]`;
    const one = `[${withRetire(answers[0])}]`;
    expect(batchText(answers, two.length - 1)).toEqual({ text: one, cut: true });
    expect(batchText(answers, one.length)).toEqual({ text: one, cut: true });
  });

  test('a first answer that does not fit even alone becomes an error answer, marked retire when others were cut', () => {
    const { text, cut } = batchText(answers, 100);
    expect(cut).toBe(true);
    expect(JSON.parse(text)).toEqual([{ id: 1, ok: false, error: 'the answer is too long to send', retire: true }]);
  });

  test('a lone answer too long is an error answer, marked retire only when it was', () => {
    expect(batchText([answers[0]], 100)).toEqual({ text: JSON.stringify([{ id: 1, ok: false, error: 'the answer is too long to send' }]), cut: false });
    expect(JSON.parse(batchText([{ ...answers[0], retire: true }], 100).text)).toEqual([{ id: 1, ok: false, error: 'the answer is too long to send', retire: true }]);
  });

  test('an answer already marked retire (the last one of a batch cut short by a cancel) stays so', () => {
    const last = { ...answers[1], retire: true };
    expect(batchText([answers[0], last])).toEqual({ text: `[${texts[0]},${JSON.stringify(last)}]`, cut: false });
  });

  test('without `max`, answers of a million characters each are not cut (a batch past the real limit: js-worker-large-batch)', () => {
    expect(batchText([ok(1, 'x'.repeat(1_000_000)), ok(2, 'y'.repeat(1_000_000))]).cut).toBe(false);
  });
});
