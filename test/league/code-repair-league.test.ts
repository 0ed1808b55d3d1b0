/**
 * A 200-match code-repair league of the baselines runs on the sandbox pool while another league
 * plays on the same bus: the event loop never blocks (a spectator subscribed to the lobby keeps
 * receiving the other league's matches, and a 20 ms timer never waits long), every match is
 * recorded with a code, and the ratings order the baselines as expected.
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry, closeSharedSandbox } from '../../app/catalog';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { leaderboard } from '../../league/leaderboard';
import { runLeague } from '../../league/league-run';
import { startServer } from '../../app/server/start-server';
import { connect } from '../server/helpers';

const ROOT = resolve(__dirname, '..', '..');

afterAll(() => closeSharedSandbox());

test('examples/leagues/code-repair.json: 200 matches on the sandbox pool, no blocked event loop', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-crl-'));
  const store = new Store(join(dir, 'l.db'));
  const bus = new EventBus();
  const registry = createRegistry();
  const server = await startServer({ bus, store, port: 0 });
  const socket = await connect(server.url);
  try {
  const seen = new Map<string, number>(); // env -> lobby messages
  socket.on('lobby', (m: { match: { env: string } }) => seen.set(m.match.env, (seen.get(m.match.env) ?? 0) + 1));
  await new Promise((r) => socket.emit('subscribe', { channel: 'lobby' }, r));

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const config = parseLeagueConfig(JSON.parse(readFileSync(join(ROOT, 'examples/leagues/code-repair.json'), 'utf8')));
  const other = parseLeagueConfig({ name: 'side', env: 'deal-or-no-deal-v1', seed: 2, players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'greedy' }], budget: { matches: 100000 }, paceMs: 2 });
  const stop = new AbortController();
  const side = runLeague({ config: other, store, registry, bus, signal: stop.signal });
  const main = await runLeague({ config, store, registry, bus });
  stop.abort();
  await side;
  delay.disable();

  expect(main.completed).toBe(200);
  const matches = store.matches('code-repair');
  expect(matches).toHaveLength(200);
  const codes = new Set(matches.map((m) => m.code));
  expect([...codes].every((c) => c === 'ok' || c === 'forfeit' || c === 'aborted')).toBe(true);
  expect(matches.filter((m) => m.code === 'ok').length).toBeGreaterThan(190);
  // the other league kept playing and its matches reached the spectator while code ran
  expect(seen.get('deal-or-no-deal-v1') ?? 0).toBeGreaterThan(100);
  // started + ended per match; the last frames may still be on their way
  for (let i = 0; i < 100 && (seen.get('code-repair-v1') ?? 0) < 400; i++) await new Promise((r) => setTimeout(r, 50));
  expect(seen.get('code-repair-v1') ?? 0).toBe(400);
  // no sandbox run held the event loop (runs take up to seconds); what remains is the agents' own
  // work on the main thread (mutation generation) and a loaded machine
  expect(delay.percentile(99) / 1e6).toBeLessThan(250);
  expect(delay.max / 1e6).toBeLessThan(5000);
  const rows = leaderboard(store, 'code-repair', { resamples: 50 });
  const rank = (role: string) => rows.filter((r) => r.role === role).sort((a, b) => b.bt - a.bt).map((r) => r.player);
  expect(rank('auditor')[0]).toBe('fuzz-auditor');
  expect(rank('coder')[0]).toBe('mutation-fixer');
  } finally {
    socket.close();
    await server.close();
    store.close();
  }
}, 600_000);
