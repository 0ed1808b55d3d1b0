/** The page learns the rating systems from the server's registry (`/api/rating-systems`); `?system=` takes exactly those names. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { ratingSystemInfos, ratingSystemNames } from '../../league/ratings/rating-systems';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { getJson } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'arena-rs-'));
const store = new Store(join(dir, 'a.db'));
store.ensureLeague('L', { env: 'rock-paper-scissors-v1' });
let server: ArenaServer;
beforeAll(async () => (server = await startServer({ bus: new EventBus(), store, port: 0 })));
afterAll(async () => {
  await server.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});
const get = (path: string) => getJson(server.url, path);

test('GET /api/rating-systems: every registered system with how the page shows it, the default first', async () => {
  const r = await get('/api/rating-systems');
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ systems: ratingSystemInfos() });
  expect((r.body.systems as { name: string }[]).map((s) => s.name)).toEqual(ratingSystemNames());
});

test('?system= accepts the registry names only; the history only the online ones', async () => {
  for (const name of ratingSystemNames()) expect((await get(`/api/leagues/L/leaderboard?system=${name}`)).status).toBe(200);
  expect((await get('/api/leagues/L/leaderboard?system=glicko')).status).toBe(400);
  expect((await get('/api/leagues/L/ratings?system=elo')).status).toBe(200);
  expect((await get('/api/leagues/L/ratings?system=bt')).status).toBe(400);
});
