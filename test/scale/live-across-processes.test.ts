/**
 * Live spectating across processes (issue 14): a worker plays a league's matches and publishes
 * their events to Redis; two `arena serve --redis` processes — one started before the match, one
 * started in its middle — both stream it live to their spectators: the same view, numbered from
 * 0 without gaps or duplicates, equal to the replay of the stored match.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import type { LobbyMessage } from '../../app/server/protocol';
import { Store } from '../../src/store/store';
import { startArena, type RunningArena } from '../cli/helpers';
import { connect, nextMessages, watch } from '../server/helpers';
import { rpsLeague, asConfigFile } from '../league/scale/helpers';
import { describeRedis, startRedis, type TestRedis } from './redis-server';

describeRedis('live matches across processes through Redis', () => {
  let redis: TestRedis;
  const started: RunningArena[] = [];
  const sockets: Socket[] = [];
  const arena = (args: string[]) => {
    const r = startArena(args);
    started.push(r);
    return r;
  };
  async function serve(db: string): Promise<string> {
    const s = arena(['serve', '--db', db, '--port', '0', '--redis', redis.url]);
    await s.waitFor(/serving .* at http:\/\/\S+; live matches from/);
    return /at (http:\/\/\S+);/.exec(s.stdout())![1];
  }
  const socket = async (url: string) => {
    const s = await connect(url);
    sockets.push(s);
    return s;
  };

  beforeEach(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    for (const r of started.splice(0)) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    await redis.stop();
  });

  test('two servers stream a match played by a worker: same events, no gaps or duplicates, a server started mid-match included; replay = live', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-live-'));
    const db = join(dir, 'live.db');
    new Store(db).close(); // serve opens an existing database only
    // 99 paced rounds (the most the env allows): the match lasts 20 s or more, so the second server (a CLI start, slow on a
    // loaded machine) starts while it is played
    writeFileSync(join(dir, 'league.json'), asConfigFile(rpsLeague('live', 1, { window: 1, params: { rounds: 99 }, paceMs: 200 })));
    const urlA = await serve(db);
    const a = await socket(urlA);
    const lobby = nextMessages<LobbyMessage>(a, 'lobby', 1, 120_000);
    expect(await a.timeout(5000).emitWithAck('subscribe', { channel: 'lobby' })).toMatchObject({ ok: true, channel: 'lobby' });

    const w = arena(['worker', '--redis', redis.url, '--name', 'live-worker']);
    await w.waitFor(/connected to/);
    const scheduler = arena(['league', 'run', '--config', join(dir, 'league.json'), '--db', db, '--redis', redis.url, '--quiet']);

    const [first] = await lobby;
    expect(first.kind).toBe('started');
    const matchId = first.match.id;
    expect(matchId).toBe('live:0');
    const watchA = await watch(a, matchId, 'public');
    expect(watchA.snapshot.live).toBe(true);

    // a second server, started now: it reads the match's stream from Redis and shows it from its first event
    const urlB = await serve(db);
    const b = await socket(urlB);
    const watchB = await watch(b, matchId, 'public');
    expect(watchB.snapshot.live).toBe(true);
    expect(watchB.snapshot.events.length).toBeGreaterThan(0);

    await Promise.all([watchA.ended, watchB.ended]);
    const eventsA = watchA.all();
    const eventsB = watchB.all();
    expect(eventsA.map((e) => e.seq)).toEqual(eventsA.map((_, i) => i));
    expect(eventsA[0].type).toBe('match.started'); // match.created is omniscient
    expect(eventsA[eventsA.length - 1].type).toBe('match.ended');
    expect(eventsB).toEqual(eventsA);

    expect(await scheduler.exited).toBe(0);
    // replay = live: the stored match, joined after the end, is the same public view
    const c = await socket(urlA);
    const replay = await watch(c, matchId, 'public');
    expect(replay.snapshot.live).toBe(false);
    const strip = (es: typeof eventsA) => es.map(({ time: _t, ...e }) => e);
    expect(strip(replay.all())).toEqual(strip(eventsA));
  }, 240_000);
});
