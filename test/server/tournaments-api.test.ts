import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store, type MatchRecord } from '../../src/store/store';
import { parseTournamentConfig } from '../../league/tournament/config';
import { reportJson, tournamentReport } from '../../league/tournament/report';
import { runTournament } from '../../league/tournament/tournament-run';

describe('tournament API', () => {
  let dir: string;
  let store: Store;
  let server: ArenaServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-tapi-'));
    store = new Store(join(dir, 'a.db'));
    const config = parseTournamentConfig({ name: 'gx', format: 'gauntlet', env: './examples/rock-paper-scissors.js', players: [{ id: 'c', agent: 'counter-last' }, { id: 'r1', agent: 'random' }, { id: 'r2', agent: 'random' }], challengers: ['c'], games: 2 });
    await runTournament({ config, store, registry: createRegistry() });
    server = await startServer({ bus: new EventBus(), store, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const get = async (path: string) => {
    const res = await fetch(server.url + path.replace(/^\//, ''));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('list, one report with its newest games, errors', async () => {
    expect((await get('/api/tournaments')).body.tournaments).toEqual([expect.objectContaining({ id: 'gx', format: 'gauntlet', env: './examples/rock-paper-scissors.js', games: 4 })]);
    const one = (await get('/api/tournaments/gx?recent=3')).body as { tournament: { name: string; games: number; finished: boolean; crosstable: { cells: unknown[] } }; recent: { id: string; idx: number }[] };
    expect(one.tournament).toMatchObject({ name: 'gx', games: 4, finished: true });
    expect(one.tournament.crosstable.cells).toHaveLength(4); // c–r1 and c–r2, both ways; the field players do not meet
    expect(one.recent.map((g) => [g.id, g.idx])).toEqual([['gx:3', 3], ['gx:2', 2], ['gx:1', 1]]);
    expect((await get('/api/tournaments/nope')).status).toBe(404);
    expect((await get('/api/tournaments/bad%20id')).status).toBe(400);
    expect((await get('/api/tournaments/gx?recent=-1')).status).toBe(400);
  });

  test('JSON keeps the sign of an infinite Elo ("inf" / "-inf") and turns NaN into null', () => {
    const config = parseTournamentConfig({ name: 'p', format: 'round-robin', env: 'x', players: [{ id: 'a', agent: 'x' }, { id: 'b', agent: 'x' }, { id: 'c', agent: 'x' }], games: 2 });
    // B–C is the first encounter of the circle method: b holds seat 0 in game 0 and seat 1 in game 1 and wins both; a has not played
    const game = (idx: number, first: string, second: string, returns: number[]): MatchRecord => ({
      league: 'p', idx, id: `p:${idx}`, env: 'x', params: {}, seed: 1, returns, outcome: 'x', code: 'ok', length: 1, faults: [], summary: null, startedAt: 0, endedAt: 0,
      seats: [{ player: first, role: 'p', team: 'p' }, { player: second, role: 'p', team: 'p' }],
    });
    const json = reportJson(tournamentReport(config, [game(0, 'b', 'c', [1, 0]), game(1, 'c', 'b', [0, 1])], [])) as { standings: { player: string; elo: { elo: unknown; los: unknown } }[] };
    const by = Object.fromEntries(json.standings.map((s) => [s.player, s.elo]));
    expect(by.b.elo).toBe('inf');
    expect(by.c.elo).toBe('-inf');
    expect(by.a).toMatchObject({ elo: null, los: null });
  });
});
