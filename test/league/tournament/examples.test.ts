import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EventBus } from '../../../src/bus/event-bus';
import { createRegistry } from '../../../app/catalog';
import { Store } from '../../../src/store/store';
import { parseTournamentConfig } from '../../../league/tournament/config';
import { storedTournamentReport } from '../../../league/tournament/stored';
import { runTournament } from '../../../league/tournament/tournament-run';

const DIR = resolve(__dirname, '..', '..', '..', 'examples', 'tournaments');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));

test('the examples cover every format', () => {
  const formats = FILES.map((f) => (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { format: string }).format).sort();
  expect(formats).toEqual(['gauntlet', 'round-robin', 'sprt', 'swiss']);
});

describe.each(FILES)('examples/tournaments/%s', (file) => {
  test('runs to the end: every game recorded with its events, every player in the standings', async () => {
    const config = parseTournamentConfig(JSON.parse(readFileSync(join(DIR, file), 'utf8')));
    const store = new Store(':memory:');
    const r = await runTournament({ config, store, registry: createRegistry(), bus: new EventBus(), configDir: DIR }); // module paths: relative to the config file, as the CLI runs it
    expect(r.finished).toBe(true);
    const report = storedTournamentReport(store, config.name)!;
    expect(report.finished).toBe(true);
    expect(report.standings.map((s) => s.player).sort()).toEqual(config.players.map((p) => p.id).sort());
    const matches = store.matches(config.name);
    expect(matches.every((m) => m.code === 'ok')).toBe(true);
    expect(store.events(matches[0].id).at(-1)).toMatchObject({ type: 'match.ended' });
    if (config.format === 'sprt') expect(report.sprt!.decision).toBe('H1');
    else expect(report.games).toBe(report.total);
    store.close();
  });
});
