/** The strict answer parser, structured-output schemas and the endpoint's back-off and limiter. */
import { defaultRegistry } from '../../../src/catalog';
import { answerFormat, extractJsonObject, isStrictSchema, parseAnswer } from '../../../agents/llm/answer';
import { Limiter, backoffDelay } from '../../../agents/llm/endpoint';

const dond = defaultRegistry.env('deal-or-no-deal-v1');
const params = dond.resolveParams({});
const state = dond.init(params, 3);
const obs = dond.observe(state, 0);
const ctx = { env: dond.meta.id, role: 'negotiator', team: 'negotiator', seat: 0, seats: 2, params };

test('extractJsonObject: whole text, fenced block, last balanced object after prose; nothing else', () => {
  expect(extractJsonObject('{"action": "agree"}')).toEqual({ action: 'agree' });
  expect(extractJsonObject('ok:\n```json\n{"action": 3}\n```\nbye')).toEqual({ action: 3 });
  expect(extractJsonObject('I think {"a": 1} no wait {"action": "x {y}"}')).toEqual({ action: 'x {y}' });
  expect(extractJsonObject('agree')).toBeNull();
  expect(extractJsonObject('[1, 2]')).toBeNull();
  expect(extractJsonObject('{"action": }')).toBeNull();
});

test('parseAnswer (finite): exact names, case-insensitive when unique, the raw action; reasons otherwise', () => {
  const legal = dond.legalActions!(state, 0)!;
  const format = answerFormat(dond, obs, legal, ctx);
  const name = format.labels![5].label;
  expect(parseAnswer(dond, obs, format, JSON.stringify({ action: name }))).toEqual({ ok: true, action: legal[5] });
  expect(parseAnswer(dond, obs, format, JSON.stringify({ action: ` ${name.toUpperCase()} ` }))).toEqual({ ok: true, action: legal[5] });
  expect(parseAnswer(dond, obs, format, JSON.stringify({ action: legal[7] }))).toEqual({ ok: true, action: legal[7] });
  expect(parseAnswer(dond, obs, format, '{"action": "keep it all"}')).toEqual({ ok: false, reason: '"keep it all" is not one of the legal action names' });
  expect(parseAnswer(dond, obs, format, '{"move": 1}')).toEqual({ ok: false, reason: 'the JSON object has no "action" field' });
  expect(parseAnswer(dond, obs, format, 'agree')).toEqual({ ok: false, reason: 'no JSON object found in the answer' });
  expect(isStrictSchema(format.schema)).toBe(true);
});

test('parseAnswer (open): through the env template\'s parse, whose error is the reason', () => {
  const cd = defaultRegistry.env('countdown-v1');
  const p = cd.resolveParams({ roles: 'solver-evaluator', answerTag: true });
  const s = cd.init(p, 1);
  const o = cd.observe(s, 0);
  const f = answerFormat(cd, o, null, { env: cd.meta.id, role: 'solver', team: 'solver', seat: 0, seats: 2, params: p });
  expect(f.labels).toBeNull();
  expect(parseAnswer(cd, o, f, '{"action": "1 + 2"}')).toEqual({ ok: true, action: '<answer>1 + 2</answer>' });
  expect(parseAnswer(cd, o, f, '{"action": [1]}')).toEqual({ ok: false, reason: 'the answer must be an expression (a string)' });
});

test('isStrictSchema: closed objects with every property required', () => {
  expect(isStrictSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false })).toBe(true);
  expect(isStrictSchema({ type: 'object', properties: { a: { type: 'string' }, b: {} }, required: ['a'], additionalProperties: false })).toBe(false);
  expect(isStrictSchema({ type: 'object', properties: { a: {} }, required: ['a'], additionalProperties: false })).toBe(false);
});

test('backoffDelay: Retry-After-Ms, then Retry-After (s), else exponential with jitter, capped', () => {
  const policy = { retries: 5, backoffMs: 100, maxBackoffMs: 1000 };
  expect(backoffDelay(0, policy, new Headers({ 'retry-after-ms': '42' }), () => 0.5)).toBe(42);
  expect(backoffDelay(0, policy, new Headers({ 'retry-after': '2' }), () => 0.5)).toBe(1000);
  expect(backoffDelay(0, policy, new Headers({ 'retry-after': '0.3' }), () => 0.5)).toBe(300);
  expect(backoffDelay(0, policy, undefined, () => 0)).toBe(50);
  expect(backoffDelay(2, policy, undefined, () => 1)).toBe(400);
  expect(backoffDelay(9, policy, undefined, () => 1)).toBe(1000);
});

test('Limiter: at most max at once; an aborted wait leaves the queue and rejects', async () => {
  const l = new Limiter(1);
  await l.acquire();
  const ac = new AbortController();
  const waiting = l.acquire(ac.signal);
  const second = l.acquire();
  expect(l.load).toEqual({ active: 1, waiting: 2 });
  ac.abort(new Error('deadline'));
  await expect(waiting).rejects.toThrow('deadline');
  expect(l.load).toEqual({ active: 1, waiting: 1 });
  l.release();
  await second;
  expect(l.load).toEqual({ active: 1, waiting: 0 });
  l.release();
  expect(l.load).toEqual({ active: 0, waiting: 0 });
});
