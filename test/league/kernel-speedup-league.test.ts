/**
 * examples/leagues/kernel-speedup.json: baselines in all three roles (autotuner, expert and
 * reference defenders; boundary and random attackers; feature and random evaluators) play
 * recorded matches with real measurements, and every player is rated.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { closeSharedSandbox, createRegistry } from '../../app/catalog';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { leaderboard } from '../../league/leaderboard';
import { runLeague } from '../../league/league-run';

jest.setTimeout(600_000);
afterAll(() => closeSharedSandbox());

test('examples/leagues/kernel-speedup.json runs: every role filled by baselines, matches recorded with measurements, players rated', async () => {
  const raw = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'examples', 'leagues', 'kernel-speedup.json'), 'utf8')) as { params: Record<string, unknown> };
  // a fast task keeps the test short; everything else as in the example
  const config = parseLeagueConfig({ ...raw, params: { ...raw.params, task: 'sort' }, budget: { matches: 8 } });
  const store = new Store(join(mkdtempSync(join(tmpdir(), 'arena-ks-')), 'ks.db'));
  const r = await runLeague({ config, store, registry: createRegistry(), bus: new EventBus() });
  expect(r.completed).toBe(8);
  const matches = store.matches(config.name);
  expect(matches.every((m) => m.code === 'ok')).toBe(true);
  const roles = new Set(matches.flatMap((m) => m.seats.map((s) => s.role)));
  expect(roles).toEqual(new Set(['defender', 'attacker', 'evaluator']));
  // measurements are in the stored events (replays never re-time)
  const events = store.events(matches[0].id);
  expect(events.some((e) => e.type === 'env' && (e as { name: string }).name === 'measured')).toBe(true);
  const rows = leaderboard(store, config.name, { resamples: 50 });
  const played = new Set(matches.flatMap((m) => m.seats.map((s) => s.player)));
  expect(new Set(rows.map((x) => x.player))).toEqual(played);
  expect(played.size).toBeGreaterThanOrEqual(5);
  store.close();
});
