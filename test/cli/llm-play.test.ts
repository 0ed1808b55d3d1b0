/** `arena play` with an LLM seat (the local mock server): per-episode reports, the usage summary, and one-line errors for bad specs. */
import { firstLegalResponder, startMockOpenAI, type MockOpenAI } from '../../agents/llm/mock-server';
import { arena, arenaAsync, jsonLines } from './helpers';

let server: MockOpenAI;
beforeAll(async () => {
  server = await startMockOpenAI({ respond: firstLegalResponder() });
});
afterAll(() => server.close());

test('play --json: each episode line carries the LLM seat\'s report; the summary totals them by agent', async () => {
  const spec = `llm:${JSON.stringify({ baseURL: server.baseURL, model: 'cli-model', price: { input: 1, output: 1 } })}`;
  const r = await arenaAsync(['play', 'deal-or-no-deal-v1', '--agents', `${spec},random`, '--episodes', '3', '--json']);
  expect(r.code).toBe(0);
  const lines = jsonLines(r.stdout);
  expect(lines).toHaveLength(4);
  const reports = lines.slice(0, 3).map((l) => (l.reports as Record<string, unknown>[])[0]);
  for (const rep of reports) expect(rep).toMatchObject({ kind: 'llm', model: 'cli-model', endpoint: server.baseURL });
  const usage = (lines[3].summary as { usage: Record<string, { requests: number; seats: number; snapshots: string[] }> }).usage['llm:cli-model'];
  expect(usage.requests).toBe(server.requests.length);
  expect(usage.seats).toBe(3);
  expect(usage.snapshots).toEqual([`cli-model @ ${server.baseURL}`]);
  const text = await arenaAsync(['play', 'deal-or-no-deal-v1', '--agents', `${spec},random`, '--episodes', '2']);
  expect(text.stdout).toMatch(/^usage seat 0 llm:cli-model: \d+ requests, \d+ \+ \d+ tokens, \d+ ms\/request, \$\d\.\d{4} \[cli-model @ http:\/\/127\.0\.0\.1:\d+\/v1\]$/m);
});

test('bad llm specs are one-line usage errors naming the field or the variable', () => {
  const bad = arena(['play', 'deal-or-no-deal-v1', '--agents', 'llm:{"baseURL":"nope"},random']);
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(bad.stderr).toMatch(/agent "llm": baseURL: .*; model: /);
  const key = arena(['play', 'deal-or-no-deal-v1', '--agents', `llm:{"baseURL":"${server.baseURL}","model":"m","apiKeyEnv":"ARENA_NO_SUCH_KEY_VAR"},random`]);
  expect(key.code).toBe(2);
  expect(key.stderr).toBe('arena: agent "llm": environment variable ARENA_NO_SUCH_KEY_VAR (apiKeyEnv) is not set\n');
  const none = arena(['play', 'deal-or-no-deal-v1', '--agents', 'llm,random']);
  expect(none.code).toBe(2);
  expect(none.stderr).toMatch(/agent "llm" needs options/);
});
