/**
 * The LLM agent against the local OpenAI-compatible mock server (agents/llm/mock-server.ts):
 * prompts per env and role, structured output and its fallback, multi-turn history, re-asks with
 * the env's reason, retries on 429/5xx, deadlines, the per-endpoint concurrency limit, the key
 * from the environment, attempts recorded as seat-private events, and the usage report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectEvents } from '../../../src/core/view-stream';
import { RegistryError } from '../../../src/core/registry';
import { teamsFromCreated } from '../../../src/bus/view-filter';
import type { MatchCreated, MatchEvent } from '../../../src/core/events';
import { resetStructuredSupport } from '../../../agents/llm/llm-agent';
import { firstLegalResponder, legalNamesOf, startMockOpenAI, type MockOpenAI, type MockRequest } from '../../../agents/llm/mock-server';
import { llm, play, scripted } from './helpers';

const DOND = 'deal-or-no-deal-v1';
let server: MockOpenAI;
let dir: string;

beforeAll(async () => {
  server = await startMockOpenAI({ respond: firstLegalResponder() });
  dir = mkdtempSync(join(tmpdir(), 'arena-llm-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
  server.authorization.length = 0;
  server.respond = firstLegalResponder();
  resetStructuredSupport();
});

const system = (r: MockRequest) => r.messages[0].content;
const lastUser = (r: MockRequest) => [...r.messages].reverse().find((m) => m.role === 'user')!.content;
const notes = (events: MatchEvent[]) => events.filter((e): e is Extract<MatchEvent, { type: 'agent' }> => e.type === 'agent');
const teamOf = (events: MatchEvent[]) => teamsFromCreated(events.find((e): e is MatchCreated => e.type === 'match.created'));

describe('prompts per env and role', () => {
  test('Deal-or-No-Deal (openspiel): system prompt, own values, legal offers by name, a JSON schema with the names', async () => {
    server.respond = (req) => {
      const names = legalNamesOf(req);
      return { content: JSON.stringify({ action: names.includes('agree') ? 'agree' : names[names.length - 1] }) };
    };
    const { result, events } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL }), scripted(DOND, {}, 'random')]);
    expect(result.code).toBe('ok');
    const first = server.requests[0];
    expect(first.messages[0].role).toBe('system');
    expect(system(first)).toMatch(/Deal or No Deal/);
    expect(system(first)).toMatch(/negotiator 0 of 2/);
    expect(lastUser(first)).toMatch(/Your values \(per item\)/);
    expect(lastUser(first)).toMatch(/Your move\.\n\nLegal actions:\n- keep 0 books, 0 hats and 0 balls\n/);
    expect(lastUser(first)).not.toMatch(/action id/);
    const schema = first.response_format!.json_schema!.schema as { properties: { action: { enum: string[] } } };
    expect(first.response_format!.type).toBe('json_schema');
    expect(schema.properties.action.enum).toContain('keep 0 books, 0 hats and 0 balls');
    expect(schema.properties.action.enum).not.toContain('agree'); // nothing on the table yet
    // the answer by name became the offer id: the last legal offer, whose label was answered
    const legal0 = schema.properties.action.enum;
    const act0 = events.find((e) => e.type === 'action' && e.seat === 0) as { action: number };
    expect(typeof act0.action).toBe('number');
    expect(legal0[legal0.length - 1]).toMatch(/^keep /);
    // multi-turn: the second request carries the first decision and its answer
    if (server.requests.length > 1) {
      const second = server.requests[1].messages;
      expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(second[1].content).toBe(lastUser(first));
    }
  });

  test('Deal-or-No-Deal (dialogue): open answer format and schema; a plain string answer becomes a message', async () => {
    const params = { protocol: 'dialogue' };
    let k = 0;
    server.respond = () => ({ content: JSON.stringify({ action: k++ === 0 ? "I'd like 1 book, 0 hats and 2 balls; you get the rest." : { type: 'selection' } }) });
    const { events } = await play(DOND, params, [llm(DOND, params, { baseURL: server.baseURL }), scripted(DOND, params, 'random')], { faultPolicy: { retries: 0, then: 'default' } });
    const first = server.requests[0];
    expect(lastUser(first)).toMatch(/\{"type": "message", "text": "\.\.\."\}/);
    expect(lastUser(first)).not.toMatch(/Legal actions:/);
    expect((first.response_format!.json_schema!.schema as { properties: { action: { properties: object } } }).properties.action.properties).toHaveProperty('text');
    const said = events.find((e) => e.type === 'message' && e.seat === 0) as { text: string } | undefined;
    expect(said?.text).toBe("I'd like 1 book, 0 hats and 2 balls; you get the rest.");
  });

  test('Countdown: challenger, solver and evaluator each get their role and answer format', async () => {
    const params = { roles: 'challenger-solver-evaluator', attempts: 3 };
    server.respond = (req) => {
      const s = system(req);
      if (/You are the challenger/.test(s)) return { content: JSON.stringify({ action: { numbers: [100, 75, 2, 3, 5, 7], target: 500 } }) };
      if (/You are the solver/.test(s)) return { content: 'Sure.\n```json\n{"action": "100 * 5"}\n```' };
      return { content: '{"action": true}' };
    };
    const cd = 'countdown-v1';
    const { result } = await play(cd, params, [0, 1, 2].map(() => llm(cd, params, { baseURL: server.baseURL })));
    expect(result.code).toBe('ok');
    expect(result.outcome).toBe('solved');
    const byRole = (role: string) => server.requests.filter((r) => system(r).includes(`You are the ${role}`));
    expect(byRole('challenger')).toHaveLength(1);
    expect(byRole('solver')).toHaveLength(3);
    expect(byRole('evaluator')).toHaveLength(3);
    expect(lastUser(byRole('challenger')[0])).toMatch(/Contract: 6 numbers/);
    expect(byRole('challenger')[0].response_format!.json_schema!.schema).toMatchObject({ properties: { action: { type: 'object', required: ['numbers', 'target'] } } });
    expect(lastUser(byRole('solver')[0])).toMatch(/Numbers: 100 75 2 3 5 7\. Target: 500\./);
    expect(lastUser(byRole('solver')[0])).toMatch(/one arithmetic expression/);
    expect(byRole('solver')[0].response_format!.json_schema).toMatchObject({ strict: true, schema: { properties: { action: { type: 'string' } } } });
    expect(lastUser(byRole('evaluator')[0])).toMatch(/Attempt 1: 100 \* 5/);
    expect(byRole('evaluator')[0].response_format!.json_schema!.schema).toMatchObject({ properties: { action: { type: 'boolean' } } });
    expect(result.returns).toEqual([0, 10, 1]);
  });

  test('Werewolf: actions named in the words of the ask, free speech alongside speech acts', async () => {
    const ww = 'werewolf-v1';
    const params = { preset: 'arena' };
    server.respond = (req) => {
      const names = legalNamesOf(req);
      const speech = (req.response_format?.json_schema?.schema as { properties: Record<string, unknown> }).properties.say !== undefined;
      const pick = names.find((n) => n.startsWith('accuse')) ?? names.filter((n) => n.startsWith('bid')).pop() ?? names[0];
      return { content: JSON.stringify(speech ? { action: pick, say: 'I have a bad feeling about this one.' } : { action: pick }) };
    };
    // the first seed (in a fixed order) where the LLM's seat survives the first night and speaks
    let played!: Awaited<ReturnType<typeof play>>;
    for (let seed = 1; seed < 20; seed++) {
      server.requests.length = 0;
      played = await play(ww, params, (seats) => seats.map((_, i) => (i === 0 ? llm(ww, params, { baseURL: server.baseURL }) : scripted(ww, params, 'rule-based', i))), { seed });
      if (played.events.some((e) => e.type === 'message' && e.seat === 0)) break;
    }
    const { result, events } = played;
    expect(result.code).toBe('ok');
    expect(system(server.requests[0])).toMatch(/^Werewolf: a social-deduction game.* You are P0 of 8\./);
    const names = server.requests.flatMap((r) => legalNamesOf(r));
    for (const n of names) expect(n).toMatch(/^(sleep|pass|none|silent|agree|antidote|bid \d|claim \w+|(kill|propose|decide|wolf-vote|protect|guard|check|vote|accuse|defend|poison) P\d+|reveal P\d+ (werewolf|not-werewolf))$/);
    expect(names.some((n) => n.startsWith('accuse P'))).toBe(true);
    const spoken = events.filter((e) => e.type === 'message' && e.seat === 0);
    expect(spoken.length).toBeGreaterThan(0);
  });
});

describe('structured output and the strict parser', () => {
  test('a server without json_schema: auto mode steps down to json_object, then to none, and remembers', async () => {
    const plain = await startMockOpenAI({ respond: firstLegalResponder(), supportsJsonSchema: false, supportsJsonObject: false });
    try {
      const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: plain.baseURL }), scripted(DOND, {}, 'random')]);
      expect(result.code).toBe('ok');
      const modes = plain.requests.map((r) => r.response_format?.type ?? 'none');
      expect(modes.slice(0, 3)).toEqual(['json_schema', 'json_object', 'none']);
      expect(modes.slice(3).every((m) => m === 'none')).toBe(true);
      expect(modes.length).toBeGreaterThan(3);
    } finally {
      await plain.close();
    }
  });

  test('structured: "none" sends no response_format and parses the JSON out of prose', async () => {
    server.respond = (req) => ({ content: `Let me think. The best is this.\n{"action": "${legalNamesOf(req)[0].toUpperCase()}"}` });
    const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, structured: 'none' }), scripted(DOND, {}, 'random')]);
    expect(result.faults).toEqual([]);
    expect(server.requests.every((r) => r.response_format === undefined)).toBe(true);
  });
});

describe('illegal answers, re-asks and the fault policy', () => {
  test('garbage, then a name that is not legal, then a legal one: two re-asks with the reasons, every attempt recorded privately', async () => {
    server.respond = (req, n) => (n === 0 ? { content: 'I would like to keep the books.' } : n === 1 ? { content: '{"action": "keep everything"}' } : { content: JSON.stringify({ action: legalNamesOf(req)[0] }) });
    const { result, events } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, reasks: 2 }), scripted(DOND, {}, 'random')]);
    expect(result.faults.filter((f) => f.seat === 0)).toEqual([]);
    const [, second, third] = server.requests;
    expect(lastUser(second)).toMatch(/^Your answer was not accepted: no JSON object found in the answer \(nor an <answer>...<\/answer> tag\)\./);
    expect(second.messages[second.messages.length - 2]).toEqual({ role: 'assistant', content: 'I would like to keep the books.' });
    expect(lastUser(third)).toMatch(/^Your answer was not accepted: "keep everything" is not one of the legal action names\./);
    const attempts = notes(events).filter((e) => e.step === 0);
    expect(attempts.map((e) => e.data.ok)).toEqual([false, false, true]);
    expect(attempts.map((e) => e.data.attempt)).toEqual([0, 1, 2]);
    expect(attempts[0].data.reason).toBe('no JSON object found in the answer (nor an <answer>...</answer> tag)');
    expect(attempts.every((e) => JSON.stringify(e.visibility) === JSON.stringify({ seat: 0 }))).toBe(true);
    // seat 0 and the omniscient view see the attempts; seat 1 and the public view do not
    const t = teamOf(events);
    expect(notes(projectEvents(events, 0, t)).length).toBe(notes(events).length);
    expect(notes(projectEvents(events, 'omniscient', t)).length).toBe(notes(events).length);
    expect(notes(projectEvents(events, 1, t))).toEqual([]);
    expect(notes(projectEvents(events, 'public', t))).toEqual([]);
    expect(result.reports?.[0]).toMatchObject({ invalid: 2, reasks: 2 });
  });

  test('an open answer the env rejects is re-asked with the env\'s own reason', async () => {
    const cd = 'countdown-v1';
    const params = { roles: 'challenger-solver', attempts: 2 };
    server.respond = (req, n) =>
      /challenger/.test(system(req))
        ? { content: JSON.stringify({ action: n === 0 ? { numbers: [100, 100, 2, 3, 5, 7], target: 500 } : { numbers: [100, 75, 2, 3, 5, 7], target: 500 } }) }
        : { content: '{"action": "100 * 5"}' };
    const { result } = await play(cd, params, [0, 1].map(() => llm(cd, params, { baseURL: server.baseURL })));
    expect(result.faults).toEqual([]);
    expect(lastUser(server.requests[1])).toMatch(/^Your answer was not accepted: .*100.*\. Answer again/);
    expect(result.outcome).toBe('solved');
  });

  test('still no valid answer after the re-asks: the match\'s fault policy applies (forfeit)', async () => {
    server.respond = () => ({ content: 'no idea' });
    const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, reasks: 1 }), scripted(DOND, {}, 'random')]);
    expect(server.requests).toHaveLength(2);
    expect(result.code).toBe('forfeit');
    expect(result.forfeitedBy).toBe(0);
    expect(result.faults[0]).toMatchObject({ seat: 0, kind: 'error', resolution: 'forfeit' });
    expect(result.faults[0].reason).toMatch(/no valid answer after 2 attempts/);
  });

  test('fault policy retry: the runner asks again and the agent answers in the same conversation', async () => {
    server.respond = (req, n) => (n < 1 ? { content: '{"action": "nope"}' } : { content: JSON.stringify({ action: legalNamesOf(req)[0] }) });
    const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, reasks: 0 }), scripted(DOND, {}, 'random')], { faultPolicy: { retries: 1, then: 'forfeit' } });
    expect(result.code).toBe('ok');
    expect(result.faults.filter((f) => f.seat === 0).map((f) => f.resolution)).toEqual(['retry']);
  });
});

describe('retries, deadlines and concurrency', () => {
  test('500 then 429 (Retry-After-Ms) then an answer: retried with back-off, counted in the report', async () => {
    server.respond = (req, n) =>
      n === 0 ? { status: 500, error: 'boom' } : n === 1 ? { status: 429, error: 'slow down', headers: { 'retry-after-ms': '20' } } : { content: JSON.stringify({ action: legalNamesOf(req)[0] }) };
    const { result, events } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, backoffMs: 5 }), scripted(DOND, {}, 'random')]);
    expect(result.faults).toEqual([]);
    expect(notes(events)[0].data).toMatchObject({ ok: true, httpRetries: 2 });
    expect(result.reports?.[0]).toMatchObject({ httpErrors: 2 });
  });

  test('a server that keeps failing: the retries are spent and the decision is a fault naming the status', async () => {
    server.respond = () => ({ status: 503, error: 'overloaded' });
    const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, backoffMs: 1, retries: 2 }), scripted(DOND, {}, 'random')]);
    expect(server.requests).toHaveLength(3);
    expect(result.faults[0]).toMatchObject({ seat: 0, kind: 'error' });
    expect(result.faults[0].reason).toMatch(/HTTP 503.*after 3 attempts/);
  });

  test('a 400 is not retried', async () => {
    server.respond = () => ({ status: 400, error: 'bad model' });
    const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, structured: 'none' }), scripted(DOND, {}, 'random')]);
    expect(server.requests).toHaveLength(1);
    expect(result.faults[0].reason).toMatch(/HTTP 400/);
  });

  test('a server slower than the deadline: timeout fault, and the request is aborted', async () => {
    server.respond = () => ({ delayMs: 20_000, content: '{}' });
    const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL }), scripted(DOND, {}, 'random')], { deadlineMs: 300 });
    expect(result.faults[0]).toMatchObject({ seat: 0, kind: 'timeout', resolution: 'forfeit' });
    for (let i = 0; i < 200 && server.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(server.inFlight).toBe(0);
  });

  test('a 429 burst over parallel matches: every match completes, never more than `concurrency` requests in flight', async () => {
    const burst = await startMockOpenAI({
      respond: (req, n) => (n < 12 ? { status: 429, error: 'rate limited', headers: { 'retry-after-ms': '15' } } : { delayMs: 5, content: JSON.stringify({ action: legalNamesOf(req)[0] }) }),
    });
    try {
      const runs = Array.from({ length: 6 }, (_, k) => play(DOND, {}, [llm(DOND, {}, { baseURL: burst.baseURL, concurrency: 2, retries: 10, backoffMs: 5 }), scripted(DOND, {}, 'random', k)], { seed: k }));
      const results = await Promise.all(runs);
      expect(results.map((r) => r.result.code)).toEqual(Array(6).fill('ok'));
      expect(results.every((r) => r.result.faults.length === 0)).toBe(true);
      expect(burst.maxInFlight).toBeLessThanOrEqual(2);
      expect(burst.requests.length).toBeGreaterThan(12);
    } finally {
      await burst.close();
    }
  });
});

describe('key, report and prompt overrides', () => {
  test('the key comes from the named environment variable and appears in no event or report', async () => {
    process.env.ARENA_TEST_LLM_KEY = 'sk-test-secret-4711';
    try {
      const { result, events } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, apiKeyEnv: 'ARENA_TEST_LLM_KEY' }), scripted(DOND, {}, 'random')]);
      expect(server.authorization[0]).toBe('Bearer sk-test-secret-4711');
      // the key's parts, not its digits alone (an event's millisecond timestamp can hold 4711)
      for (const part of ['sk-test', 'secret-4711']) {
        expect(JSON.stringify(events)).not.toContain(part);
        expect(JSON.stringify(result)).not.toContain(part);
      }
    } finally {
      delete process.env.ARENA_TEST_LLM_KEY;
    }
    expect(() => llm(DOND, {}, { baseURL: server.baseURL, apiKeyEnv: 'ARENA_TEST_LLM_KEY' })).toThrow(/environment variable ARENA_TEST_LLM_KEY \(apiKeyEnv\) is not set/);
    expect(() => llm(DOND, {}, { baseURL: server.baseURL, apiKey: 'sk-inline' })).toThrow(/never put the API key in the spec/);
    expect(() => llm(DOND, {}, { baseURL: 'not a url' })).toThrow(RegistryError);
    expect(() => llm(DOND, {}, { baseURL: server.baseURL, temperature: 7 })).toThrow(/temperature/);
    expect(() => llm(DOND, {}, { baseURL: server.baseURL, colour: 'red' })).toThrow(/colour/);
  });

  test('the report: endpoint and model, token counts as the server reported them, latency and cost', async () => {
    server.respond = (req) => ({ content: JSON.stringify({ action: legalNamesOf(req)[0] }), usage: { prompt_tokens: 1000, completion_tokens: 10 } });
    const { result } = await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, price: { input: 2, output: 8 } }), scripted(DOND, {}, 'random')]);
    const n = server.requests.length;
    const decisions = result.faults.length === 0 ? Math.ceil(result.decisions / 2) : 0;
    expect(result.reports?.[0]).toMatchObject({ kind: 'llm', endpoint: server.baseURL, model: 'mock-model', requests: n, decisions, promptTokens: 1000 * n, completionTokens: 10 * n, costUsd: Number(((2000 * n + 80 * n) / 1e6).toFixed(6)) });
    expect(result.reports?.[1]).toBeNull();
    expect((result.reports?.[0] as { latencyMs: number }).latencyMs).toBeGreaterThanOrEqual(0);
  });

  test('prompt texts from a file (placeholders filled), and a history window', async () => {
    const file = join(dir, 'prompt.json');
    writeFileSync(file, JSON.stringify({ roles: { negotiator: 'Seat {seat} of {seats} in {env}: be brief.' }, instruction: 'Think first.' }));
    await play(DOND, {}, [llm(DOND, {}, { baseURL: server.baseURL, prompt: file, history: 1 }), scripted(DOND, {}, 'fair-split')]);
    expect(system(server.requests[0])).toBe('Seat 0 of 2 in deal-or-no-deal-v1: be brief.');
    expect(lastUser(server.requests[0])).toMatch(/Think first\.$/);
    for (const r of server.requests) expect(r.messages.length).toBeLessThanOrEqual(4);
    writeFileSync(file, JSON.stringify({ sytem: 'typo' }));
    expect(() => llm(DOND, {}, { baseURL: server.baseURL, prompt: file })).toThrow(/prompt file .*sytem/);
  });
});
