/** Usage totals of agents' reports (LLM tokens, latency, cost), paced agents, and the series summary's edges. */
import type { Agent, AgentContext } from '../../src/core/agent';
import { pacedAgent } from '../../src/match/paced-agent';
import type { MatchResult } from '../../src/match/runner';
import { summarize, SeriesTally } from '../../src/match/summary';
import { addReports, formatUsage, snapshotOf, usageJson, type UsageTotals } from '../../src/match/usage';
import { rps } from '../fixtures/load';

describe('usage totals', () => {
  test('snapshotOf: model @ endpoint, the model alone, or null', () => {
    expect(snapshotOf({ kind: 'llm', model: 'm1', endpoint: 'http://x' })).toBe('m1 @ http://x');
    expect(snapshotOf({ kind: 'llm', model: 'm1', endpoint: 3 as never })).toBe('m1');
    expect(snapshotOf({ kind: 'llm', model: 7 as never })).toBeNull();
    expect(snapshotOf(null)).toBeNull();
    expect(snapshotOf(undefined)).toBeNull();
  });

  test('sums numeric fields per key, takes the maximum of max* fields, skips non-finite ones, counts seats', () => {
    const into = new Map<string, UsageTotals>();
    addReports(into, [{ kind: 'llm', requests: 2, latencyMs: 100, promptTokens: 10, maxLatencyMs: 70, model: 'm', endpoint: 'e' }, null], (s) => `a${s}`);
    addReports(into, [{ kind: 'llm', requests: 3, latencyMs: 200, promptTokens: 5, maxLatencyMs: 50, costUsd: NaN, model: 'm', endpoint: 'e' }, { kind: 'llm', requests: 1, model: 'n' }], (s) => `a${s}`);
    addReports(into, undefined, () => 'never');
    expect([...into.keys()]).toEqual(['a0', 'a1']);
    expect(into.get('a0')).toEqual({ seats: 2, totals: { requests: 5, latencyMs: 300, promptTokens: 15, maxLatencyMs: 70 }, meanLatencyMs: 60, snapshots: ['m @ e'] });
    expect(into.get('a1')).toEqual({ seats: 1, totals: { requests: 1 }, meanLatencyMs: null, snapshots: ['n'] });
  });

  test('a max* field alone, negative values and zero requests', () => {
    const into = addReports(new Map(), [{ kind: 'x', maxDepth: -3, requests: 0, latencyMs: 5 }], () => 'k');
    expect(into.get('k')).toEqual({ seats: 1, totals: { maxDepth: -3, requests: 0, latencyMs: 5 }, meanLatencyMs: null, snapshots: [] });
  });

  test('usageJson and formatUsage', () => {
    const into = addReports(new Map(), [
      { kind: 'llm', requests: 40, promptTokens: 51200, completionTokens: 800, latencyMs: 1400, costUsd: 0.00123, reasks: 2, httpErrors: 1, model: 'm', endpoint: 'e' },
      { kind: 'llm' },
    ], (s) => ['alice', 'bob'][s]);
    expect(usageJson(into)).toEqual({
      alice: { seats: 1, requests: 40, promptTokens: 51200, completionTokens: 800, latencyMs: 1400, costUsd: 0.00123, reasks: 2, httpErrors: 1, meanLatencyMs: 35, snapshots: ['m @ e'] },
      bob: { seats: 1, meanLatencyMs: null, snapshots: [] },
    });
    expect(formatUsage(into)).toEqual(['alice: 40 requests, 51200 + 800 tokens, 35 ms/request, $0.0012, 2 re-asks, 1 HTTP errors [m @ e]', 'bob: 0 requests, 0 + 0 tokens']);
  });
});

describe('pacedAgent', () => {
  const ctx = {} as AgentContext;
  test('no pause (0, negative or NaN): the agent itself', () => {
    const a: Agent = { name: 'a', act: () => 1 };
    expect(pacedAgent(a, 0)).toBe(a);
    expect(pacedAgent(a, -5)).toBe(a);
    expect(pacedAgent(a, NaN)).toBe(a);
  });

  test('keeps name, omniscience and hooks; the answer comes after at least the pause', async () => {
    const calls: string[] = [];
    const a: Agent = { name: 'a', omniscient: true, act: () => 2, start() { calls.push(`start ${this.name}`); }, end() { calls.push(`end ${this.name}`); } };
    const p = pacedAgent(a, 30);
    expect(p).toMatchObject({ name: 'a', omniscient: true });
    p.start!(ctx);
    p.end!([0], ctx, { outcome: '', summary: null });
    expect(calls).toEqual(['start a', 'end a']);
    const t0 = Date.now();
    await expect(p.act(null, null, ctx)).resolves.toBe(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(29);
    await expect(pacedAgent({ name: 'b', act: async () => 3 }, 1).act(null, null, ctx)).resolves.toBe(3);
  });

  test('the pause counts the time the agent already took', async () => {
    jest.useFakeTimers();
    try {
      const slow: Agent = { name: 's', act: () => { jest.setSystemTime(Date.now() + 40); return 1; } };
      const answer = pacedAgent(slow, 50).act(null, null, ctx) as Promise<number>;
      let done = false;
      void answer.then(() => (done = true));
      await jest.advanceTimersByTimeAsync(9);
      expect(done).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('series summary edges', () => {
  const r = (over: Partial<MatchResult>): MatchResult => ({ returns: [1, -1], outcome: 'player0', code: 'ok', length: 2, decisions: 4, faults: [], summary: null, ...over }) as MatchResult;

  test('no episodes: zeros, no env aggregate for an env without one', () => {
    expect(new SeriesTally(rps()).summary()).toEqual({ episodes: 0, meanReturns: [], outcomes: {}, codes: {}, meanLength: 0, meanDecisions: 0, faults: 0 });
  });

  test('faults are counted, usage is keyed by agent name (or seat), only ok episodes reach the aggregate', () => {
    const seen: unknown[] = [];
    const env = { ...rps(), aggregate: (s: readonly unknown[]) => (seen.push([...s]), { n: s.length }) };
    const s = summarize(env, [
      r({ faults: [{} as never, {} as never], summary: 1, reports: [{ kind: 'x', requests: 1 }, null], agents: ['alice', 'bob'] }),
      r({ code: 'forfeit', outcome: 'forfeit', returns: [-1, 1], length: 0, decisions: 1, summary: 2, reports: [null, { kind: 'x', requests: 2 }] }),
    ]);
    expect(s).toEqual({
      episodes: 2,
      meanReturns: [0, 0],
      outcomes: { player0: 1, forfeit: 1 },
      codes: { ok: 1, forfeit: 1 },
      meanLength: 1,
      meanDecisions: 2.5,
      faults: 2,
      usage: { alice: { seats: 1, requests: 1, meanLatencyMs: null, snapshots: [] }, 'seat 1': { seats: 1, requests: 2, meanLatencyMs: null, snapshots: [] } },
      env: { n: 1 },
    });
    expect(seen).toEqual([[1]]);
  });
});
