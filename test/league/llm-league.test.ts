/**
 * An LLM player in a league (the local mock server): every match records which model snapshot
 * (endpoint + model) played each LLM seat, and the league's usage totals add up the reports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { EventBus } from '../../src/bus/event-bus';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { runLeague } from '../../league/league-run';
import { leagueUsage } from '../../league/agent-usage';
import { leaderboard } from '../../league/leaderboard';
import { firstLegalResponder, startMockOpenAI, type MockOpenAI } from '../../agents/llm/mock-server';

let server: MockOpenAI;
let dir: string;
beforeAll(async () => {
  server = await startMockOpenAI({ respond: firstLegalResponder(), model: 'policy-step-40' });
  dir = mkdtempSync(join(tmpdir(), 'arena-llm-league-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a league with an LLM player records the snapshot per match and its usage', async () => {
  const store = new Store(join(dir, 'l.db'));
  const llm = (model: string) => `llm:${JSON.stringify({ baseURL: server.baseURL, model, price: { input: 1, output: 2 } })}`;
  const config = parseLeagueConfig({
    name: 'llm-league',
    env: 'deal-or-no-deal-v1',
    seed: 3,
    players: [
      { id: 'step-40', agent: llm('policy-step-40') },
      { id: 'step-80', agent: llm('policy-step-80') },
      { id: 'fair', agent: 'fair-split' },
      { id: 'random', agent: 'random' },
    ],
    matchmaking: { mode: 'random' },
    ratings: { bootstrap: 50 },
    budget: { matches: 24 },
  });
  try {
    const r = await runLeague({ config, store, registry: createRegistry(), bus: new EventBus() });
    expect(r.completed).toBe(24);
    const matches = store.matches('llm-league');
    let llmSeats = 0;
    for (const m of matches) {
      expect(['ok', 'forfeit']).toContain(m.code);
      m.seats.forEach((s, i) => {
        const rep = m.reports?.[i] as { model?: string; endpoint?: string } | null | undefined;
        if (s.player.startsWith('step-')) {
          llmSeats++;
          expect(rep).toMatchObject({ kind: 'llm', model: `policy-${s.player}`, endpoint: server.baseURL });
        } else expect(rep ?? null).toBeNull();
      });
    }
    expect(llmSeats).toBeGreaterThan(5);
    const usage = leagueUsage(store, 'llm-league');
    expect([...usage.keys()].sort()).toEqual(['step-40', 'step-80'].filter((p) => matches.some((m) => m.seats.some((s) => s.player === p))));
    const requests = [...usage.values()].reduce((n, t) => n + t.totals.requests, 0);
    expect(requests).toBe(server.requests.length);
    const t40 = usage.get('step-40')!;
    expect(t40.snapshots).toEqual([`policy-step-40 @ ${server.baseURL}`]);
    expect(t40.totals.costUsd).toBeCloseTo((t40.totals.promptTokens + 2 * t40.totals.completionTokens) / 1e6, 5);
    expect(leaderboard(store, 'llm-league', { resamples: 20 }).some((row) => row.player === 'step-40')).toBe(true);
  } finally {
    store.close();
  }
});
