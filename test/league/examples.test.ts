import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { EventBus } from '../../src/bus/event-bus';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { leaderboard } from '../../league/leaderboard';
import { runLeague } from '../../league/league-run';
import { DEMO_LEAGUES } from '../../app/cli/commands/demo';

const ROOT = resolve(__dirname, '..', '..');

describe.each(DEMO_LEAGUES)('examples/leagues/%s.json', (name) => {
  test('runs end to end: matches recorded with events, every player rated', async () => {
    const raw = JSON.parse(readFileSync(join(ROOT, 'examples', 'leagues', `${name}.json`), 'utf8')) as Record<string, unknown>;
    const config = parseLeagueConfig({ ...raw, budget: { matches: 24 }, learners: [] });
    const store = new Store(join(mkdtempSync(join(tmpdir(), 'arena-ex-')), 'ex.db'));
    const r = await runLeague({ config, store, registry: createRegistry(), bus: new EventBus() });
    expect(r.completed).toBe(24);
    const matches = store.matches(config.name);
    expect(matches.every((m) => m.code === 'ok')).toBe(true);
    expect(store.events(matches[3].id).at(-1)).toMatchObject({ type: 'match.ended', outcome: matches[3].outcome });
    const rows = leaderboard(store, config.name, { resamples: 50 });
    const rated = new Set(rows.map((x) => x.player));
    const played = new Set(matches.flatMap((m) => m.seats.map((s) => s.player)));
    expect(rated).toEqual(played);
    store.close();
  });
});
