/** The strict answer parser, structured-output schemas and the endpoint's back-off and limiter. */
import { defaultRegistry } from '../../app/catalog';
import { answerFormat, extractJsonObject, isStrictSchema, parseAnswer } from '../../src/core/answer-format';
import { Limiter, backoffDelay } from '../../agents/llm/endpoint';

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
  expect(parseAnswer(dond, obs, format, 'agree')).toEqual({ ok: false, reason: 'no JSON object found in the answer (nor an <answer>...</answer> tag)' });
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

test('what models answer (issue 28): a JSON object first, else the last <answer> tag, else (open sets) the bare answer', () => {
  const cd = defaultRegistry.env('countdown-v1');
  const p = cd.resolveParams({ roles: 'challenger-solver-evaluator' });
  const solverCtx = { env: cd.meta.id, role: 'solver', team: 'solver', seat: 1, seats: 3, params: p };
  // a solver observation: propose a puzzle first
  let s = cd.init(p, 1);
  s = cd.step(s, { 0: { numbers: [100, 75, 25, 2, 5, 7], target: 500 } }).state;
  const o = cd.observe(s, 1);
  const f = answerFormat(cd, o, null, solverCtx);
  expect(parseAnswer(cd, o, f, '3*5+7')).toEqual({ ok: true, action: '3*5+7' });
  expect(parseAnswer(cd, o, f, '  100 * 5\n')).toEqual({ ok: true, action: '100 * 5' });
  expect(parseAnswer(cd, o, f, 'Let me think. <answer>75 + 25</answer> no: <answer>100 * 5</answer>')).toEqual({ ok: true, action: '100 * 5' });
  expect(parseAnswer(cd, o, f, '<answer>500</answer>')).toEqual({ ok: true, action: '500' });
  // precedence: the JSON object wins over a tag, a tag over the bare text
  expect(parseAnswer(cd, o, f, '<answer>75 + 25</answer> {"action": "100 * 5"}')).toEqual({ ok: true, action: '100 * 5' });
  expect(parseAnswer(cd, o, f, '   ')).toEqual({ ok: false, reason: 'the answer is empty' });
  // a bare answer that spells a JSON value is that value: the evaluator's true / false, the challenger's object
  const evalFormat = answerFormat(cd, { ...o, role: 'evaluator' }, null, { ...solverCtx, role: 'evaluator' });
  expect(parseAnswer(cd, { ...o, role: 'evaluator' }, evalFormat, 'true')).toEqual({ ok: true, action: true });
  const challenger = cd.observe(cd.init(p, 1), 0);
  const chFormat = answerFormat(cd, challenger, null, { ...solverCtx, role: 'challenger', seat: 0 });
  expect(parseAnswer(cd, challenger, chFormat, '{"numbers": [1, 2], "target": 3}')).toEqual({ ok: true, action: { numbers: [1, 2], target: 3 } });
  // finite sets: a tag holds a name; bare text is not read
  const legal = dond.legalActions!(state, 0)!;
  const format = answerFormat(dond, obs, legal, ctx);
  expect(parseAnswer(dond, obs, format, `<answer>${format.labels![2].label}</answer>`)).toEqual({ ok: true, action: legal[2] });
  expect(parseAnswer(dond, obs, format, format.labels![2].label)).toEqual({ ok: false, reason: 'no JSON object found in the answer (nor an <answer>...</answer> tag)' });
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
