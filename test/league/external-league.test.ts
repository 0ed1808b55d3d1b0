/**
 * Issue 13's closing check: a league of an LLM player (the local mock server), a remote bot
 * (the JS SDK example in a child process) and scripted players plays 100 matches with faults
 * injected on both outside players — LLM timeouts, garbage, 429s and 500s; the bot's garbage,
 * slow answers and dropped connections (some back in time, some not) — and records every match
 * with an outcome code.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import { Store } from '../../src/store/store';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { remoteAgentFactories, type IssuedSeat } from '../../app/server/play/remote-agent';
import { parseLeagueConfig } from '../../league/config';
import { runLeague } from '../../league/league-run';
import { leagueUsage } from '../../league/agent-usage';
import { leaderboard } from '../../league/leaderboard';
import { legalNamesOf, startMockOpenAI, type MockOpenAI } from '../../agents/llm/mock-server';
import { ROOT } from '../cli/helpers';

let dir: string;
let llm: MockOpenAI;
let server: ArenaServer;
const bus = new EventBus();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-external-'));
  // a deterministic stream of LLM behaviours: mostly good answers, with every kind of trouble
  llm = await startMockOpenAI({
    respond: (req, n) => {
      const k = n % 20;
      if (k === 3) return { content: 'I think I will take the hats.' }; // garbage -> re-ask
      if (k === 7) return { status: 429, error: 'rate limited', headers: { 'retry-after-ms': '5' } };
      if (k === 11) return { status: 500, error: 'boom' };
      if (k === 15) return { delayMs: 3000, content: '{}' }; // past the deadline
      const names = legalNamesOf(req);
      return { content: JSON.stringify({ action: names.includes('agree') && k % 2 ? 'agree' : names[n % names.length] }) };
    },
  });
  server = await startServer({ bus, port: 0, play: { reconnectMs: 300 } });
});
afterAll(async () => {
  await server.close();
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

test('100 league matches with an LLM, a remote bot and scripted players, faults injected: every match recorded with a code', async () => {
  const registry = createRegistry();
  const issued: IssuedSeat[] = [];
  for (const f of remoteAgentFactories(server.play!, (s) => issued.push(s))) registry.registerAgent(f);
  const llmSpec = `llm:${JSON.stringify({ baseURL: llm.baseURL, model: 'policy-v1', reasks: 1, retries: 2, backoffMs: 5 })}`;
  const config = parseLeagueConfig({
    name: 'external',
    env: 'deal-or-no-deal-v1',
    seed: 13,
    players: [
      { id: 'llm', agent: llmSpec },
      { id: 'bot', agent: 'remote:{"name":"bot"}' },
      { id: 'fair', agent: 'fair-split' },
      { id: 'greedy', agent: 'greedy' },
      { id: 'random', agent: 'random' },
    ],
    matchmaking: { mode: 'random' },
    ratings: { bootstrap: 20 },
    budget: { matches: 100 },
    deadlineMs: 700,
    faults: 'retry:1,forfeit',
  });
  const store = new Store(join(dir, 'league.db'));
  // the league's first createAgent issues the bot's slot; start the bot with that token
  const prepare = registry.createAgent('remote:{"name":"bot"}', { env: registry.env('deal-or-no-deal-v1'), params: {}, seed: 0 });
  await prepare;
  expect(issued.map((s) => s.label)).toEqual(['bot']);
  const bot = spawn(process.execPath, [
    join(ROOT, 'examples', 'bots', 'remote-bot.js'), '--url', server.url, '--token', issued[0].token,
    '--pattern', 'ok,ok,garbage,ok,slow,ok,drop:30,ok,drop:1500,ok', '--slow-ms', '1500',
  ], { cwd: ROOT });
  let botOut = '';
  bot.stdout.on('data', (d: Buffer) => (botOut += d.toString()));
  bot.stderr.on('data', (d: Buffer) => (botOut += d.toString()));
  try {
    await server.play!.whenConnected(server.play!.slotByLabel('bot')!.id);
    const r = await runLeague({ config, store, registry, bus });
    expect(r.completed).toBe(100);
    const matches = store.matches('external');
    expect(matches).toHaveLength(100);
    for (const m of matches) {
      expect(['ok', 'forfeit']).toContain(m.code);
      expect(m.outcome).not.toBe('');
      expect(store.events(m.id).some((e) => e.type === 'match.ended')).toBe(true);
    }
    const played = (id: string) => matches.filter((m) => m.seats.some((s) => s.player === id));
    expect(played('llm').length).toBeGreaterThan(10);
    expect(played('bot').length).toBeGreaterThan(10);
    // every injected kind of trouble showed up as a recorded fault of the right player
    const faults = matches.flatMap((m) => m.faults.map((f) => ({ ...f, player: m.seats[f.seat]?.player })));
    const of = (player: string) => faults.filter((f) => f.player === player);
    expect(of('bot').some((f) => f.kind === 'timeout')).toBe(true);
    expect(of('bot').some((f) => f.kind === 'illegal')).toBe(true);
    expect(of('bot').some((f) => f.kind === 'error' && /remote seat disconnected/.test(f.reason))).toBe(true);
    expect(of('llm').some((f) => f.kind === 'timeout')).toBe(true);
    expect(faults.filter((f) => !['llm', 'bot'].includes(f.player ?? ''))).toEqual([]);
    expect(matches.some((m) => m.code === 'forfeit')).toBe(true);
    expect(matches.filter((m) => m.code === 'ok').length).toBeGreaterThan(50);
    // the LLM's re-asks and HTTP retries are in its reports, and the league's usage table sums them
    const usage = leagueUsage(store, 'external').get('llm')!;
    expect(usage.totals.reasks).toBeGreaterThan(0);
    expect(usage.totals.httpErrors).toBeGreaterThan(0);
    expect(usage.snapshots).toEqual([`policy-v1 @ ${llm.baseURL}`]);
    expect(leaderboard(store, 'external', { resamples: 20 }).map((row) => row.player).sort()).toEqual(['bot', 'fair', 'greedy', 'llm', 'random']);
  } finally {
    bot.kill('SIGTERM');
    await new Promise((r) => bot.once('close', r));
    store.close();
  }
  // the bot's own count: it dropped its connection and sent garbage as asked, and never crashed
  const stats = JSON.parse(botOut.trim().split('\n').pop()!) as { decisions: number; faults: { drop: number; garbage: number; slow: number } };
  expect(stats.faults.drop).toBeGreaterThan(2);
  expect(stats.faults.garbage).toBeGreaterThan(0);
  expect(botOut).not.toMatch(/Error|refused/);
});
