import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { MIGRATIONS } from '../../src/store/schema';
import { rps } from '../fixtures/load';
import { play, slowAgent } from './helpers';
import { scriptedAgent } from '../../agents/scripted';

describe('JSON API and static files', () => {
  let dir: string;
  let store: Store;
  let server: ArenaServer;
  const bus = new EventBus();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-api-'));
    store = new Store(join(dir, 'a.db'));
    store.ensureLeague('L1', { env: 'rock-paper-scissors-v1' });
    store.recordMatch(
      { league: 'L1', idx: 0, id: 'm0', env: 'rock-paper-scissors-v1', params: {}, seed: 1, seats: [{ player: 'p', role: 'player', team: 'player' }, { player: 'q', role: 'player', team: 'player' }], returns: [1, -1], outcome: 'player0', code: 'ok', length: 3, faults: [], summary: null, startedAt: 1, endedAt: 2 },
      [],
      [{ system: 'elo', player: 'p', role: 'player', value: 1516, state: { games: 1 } }, { system: 'elo', player: 'q', role: 'player', value: 1484, state: { games: 1 } }],
      [{ system: 'elo', player: 'p', role: 'player', matchIdx: 0, value: 1516, time: 2 }],
    );
    store.recordTraining('L1', 0, 'player', { meanReturn: 0.25, winRate: 0.5 });
    server = await startServer({ bus, store, port: 0, leaderboard: (league, q) => [{ player: `best-of-${league}`, role: q.role ?? 'any', rating: 1, lo: 0, hi: 2, rank: 1 }] });
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

  test('matches: live, recent (memory + store), one, events with view checks', async () => {
    await play(rps(), bus, { matchId: 'mem-1', agents: [slowAgent(1), slowAgent(1)] });
    expect((await get('/api/matches/live')).body).toEqual({ matches: [] });
    const recent = (await get('/api/matches/recent?limit=10')).body.matches as { id: string; live: boolean }[];
    expect(recent.map((m) => m.id)).toEqual(['mem-1', 'm0']);
    expect((await get('/api/matches/recent?env=nope')).body.matches).toEqual([]);
    expect((await get('/api/matches/m0')).body.match).toMatchObject({ id: 'm0', league: 'L1', agents: ['p', 'q'], outcome: 'player0' });
    const ev = (await get('/api/matches/mem-1/events?view=seat:0')).body;
    expect(ev).toMatchObject({ view: 'seat:0', live: false });
    expect((await get('/api/matches/mem-1/events?view=seat:9')).status).toBe(400);
    expect((await get('/api/matches/nope/events')).status).toBe(404);
    expect((await get('/api/matches/bad%20id')).status).toBe(400);
    expect((await get('/api/matches/recent?limit=-1')).status).toBe(400);
    expect((await get('/api/nothing')).status).toBe(404);
  });

  test('leagues, injected leaderboard, rating history, training metrics', async () => {
    expect((await get('/api/leagues')).body.leagues).toEqual([expect.objectContaining({ id: 'L1', env: 'rock-paper-scissors-v1', matches: 1 })]);
    expect((await get('/api/leagues/L1/leaderboard?role=player')).body.rows).toEqual([{ player: 'best-of-L1', role: 'player', rating: 1, lo: 0, hi: 2, rank: 1 }]);
    expect((await get('/api/leagues/L1/ratings?system=elo')).body.points).toEqual([{ system: 'elo', player: 'p', role: 'player', matchIdx: 0, value: 1516, time: 2 }]);
    expect((await get('/api/leagues/L1/training')).body.iterations).toEqual([expect.objectContaining({ iteration: 0, role: 'player', metrics: { meanReturn: 0.25, winRate: 0.5 } })]);
    expect((await get('/api/leagues/L1/overview')).body.overview).toMatchObject({ league: 'L1', env: 'rock-paper-scissors-v1', matches: 1, learners: [] });
    expect(await get('/api/leagues/nope/overview')).toEqual({ status: 404, body: { error: 'league: no league "nope"' } });
  });

  test('unknown rating system: 400; a league that does not exist: 404 (issue 15 item 9)', async () => {
    const sys = await get('/api/leagues/L1/ratings?system=glicko');
    expect(sys.status).toBe(400);
    expect(sys.body.error).toMatch(/^ratings: system: .*"elo".*"openskill"/);
    expect((await get('/api/leagues/L1/leaderboard?system=glicko')).status).toBe(400);
    expect((await get('/api/leagues/L1/leaderboard?system=openskill')).status).toBe(200);
    for (const path of ['leaderboard', 'ratings', 'training']) {
      const r = await get(`/api/leagues/nope/${path}`);
      expect(r).toEqual({ status: 404, body: { error: 'league: no league "nope"' } });
    }
  });

  test('/api/health reports the database state and the stream counters; 503 when the database cannot answer', async () => {
    type Health = { ok: boolean; live: number; stream: { matchesStarted: number; matchesEnded: number; decisions: number; faults: number; outcomes: Record<string, number> }; store: unknown };
    const before = (await get('/api/health')).body as unknown as Health;
    expect(before).toEqual({
      ok: true,
      live: 0,
      stream: expect.objectContaining({ matchesEnded: before.stream.matchesStarted }),
      store: { ok: true, file: 'a.db', schemaVersion: MIGRATIONS.length, readonly: false, leagues: 1, matches: 1 },
    });
    await play(rps(), bus, { matchId: 'health-1', agents: [scriptedAgent('paper', () => 1), scriptedAgent('rock', () => 0)] });
    const after = (await get('/api/health')).body as unknown as Health;
    expect(after.stream).toEqual({
      matchesStarted: before.stream.matchesStarted + 1,
      matchesEnded: before.stream.matchesEnded + 1,
      decisions: before.stream.decisions + 6,
      faults: before.stream.faults,
      outcomes: { ...before.stream.outcomes, player0: (before.stream.outcomes.player0 ?? 0) + 1 },
    });
    const other = new Store(join(dir, 'closed.db'));
    const broken = await startServer({ bus: new EventBus(), store: other, port: 0 });
    try {
      other.close();
      const res = await fetch(broken.url + 'api/health');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ ok: false, live: 0, stream: expect.any(Object), store: { ok: false, file: 'closed.db', error: expect.stringMatching(/database connection is not open/) } });
    } finally {
      await broken.close();
    }
    const none = await startServer({ bus: new EventBus(), port: 0 });
    try {
      expect(await (await fetch(none.url + 'api/health')).json()).toEqual({ ok: true, live: 0, stream: { matchesStarted: 0, matchesEnded: 0, decisions: 0, faults: 0, outcomes: {} }, store: null });
    } finally {
      await none.close();
    }
  });

  test('POST is refused; static files served; traversal refused; chart.js and socket.io client served', async () => {
    expect((await fetch(server.url + 'api/health', { method: 'POST' })).status).toBe(405);
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect((await fetch(server.url + '..%2Fpackage.json')).status).toBe(404);
    expect((await fetch(server.url + '%2e%2e/package.json')).status).toBe(404);
    expect((await fetch(server.url + 'vendor/chart.umd.min.js')).status).toBe(200);
    expect((await fetch(server.url + 'socket.io/socket.io.esm.min.js')).status).toBe(200);
  });
});
