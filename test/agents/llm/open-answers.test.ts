/**
 * Issue 28: answers models actually give. A Countdown solver model that answers bare text or
 * TinyZero's `<answer>...</answer>` plays (no JSON object needed), and an answer the env's parser
 * cannot read (`75 + 50 = 125`) is re-asked with the parser's reason instead of being scored 0
 * as the seat's attempt.
 */
import { startMockOpenAI, type MockOpenAI, type MockRequest } from '../../../agents/llm/mock-server';
import { resetStructuredSupport } from '../../../agents/llm/llm-agent';
import { llm, play } from './helpers';

const CD = 'countdown-v1';
let server: MockOpenAI;
beforeAll(async () => {
  server = await startMockOpenAI({ respond: () => ({ content: '' }) });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  resetStructuredSupport();
});

const lastUser = (r: MockRequest) => [...r.messages].reverse().find((m) => m.role === 'user')!.content;
type Attempt = { answer: string; status: string; score: number };
const attemptsOf = (summary: unknown) => (summary as { attempts: Attempt[] }).attempts;

test('bare expressions and <answer> tags are answers; a typo is re-asked with the reason, not a lost attempt', async () => {
  const script = ['75 + 50 = 125', 'Thinking... <answer>75 + 50</answer>', '100 + 25'];
  let k = 0;
  server.respond = () => ({ content: script[k++] });
  const raw = { attempts: 2 };
  const { result } = await play(CD, raw, [llm(CD, raw, { baseURL: server.baseURL, structured: 'none' })], { seed: 4 });
  expect(result.code).toBe('ok');
  expect(result.faults).toEqual([]);
  expect(server.requests).toHaveLength(3);
  expect(lastUser(server.requests[1])).toMatch(/^Your answer was not accepted: unknown character '=' at position 9: answer with one arithmetic expression/);
  // two attempts, both readable: the typo consumed none
  expect(attemptsOf(result.summary).map((a) => a.answer)).toEqual(['75 + 50', '100 + 25']);
  expect(attemptsOf(result.summary).every((a) => a.status !== 'syntax')).toBe(true);
});

test('with answerTag the env reads the tag: a tagged answer passes through whole, a bare one is tagged', async () => {
  const script = ['<answer>75 + 50</answer>', '100 + 25'];
  let k = 0;
  server.respond = () => ({ content: script[k++] });
  const raw = { attempts: 2, answerTag: true, rules: 'tinyzero' };
  const { result } = await play(CD, raw, [llm(CD, raw, { baseURL: server.baseURL, structured: 'none' })], { seed: 4 });
  expect(result.faults).toEqual([]);
  expect(attemptsOf(result.summary).map((a) => a.answer)).toEqual(['<answer>75 + 50</answer>', '<answer>100 + 25</answer>']);
});
