/**
 * LiveFeed (src/scale/live-feed.ts): what a spectator server publishes on its bus from Redis —
 * each match's events once, in seq order, gaps filled from the match's own stream, events of an
 * older attempt dropped.
 */
import Redis from 'ioredis';
import { EventBus } from '../../src/bus/event-bus';
import type { ArenaEvent, MatchEvent } from '../../src/core/events';
import { LiveFeed } from '../../src/scale/live-feed';
import { LIVE_STREAM, matchStream } from '../../src/scale/keys';
import { describeRedis, startRedis, type TestRedis } from './redis-server';

const ev = (matchId: string, seq: number, type = 'message'): MatchEvent => ({ type, matchId, seq, time: seq, visibility: 'public', data: { n: seq } }) as unknown as MatchEvent;

describeRedis('live events from Redis into a server bus', () => {
  let redis: TestRedis;
  let client: Redis;
  let feed: LiveFeed;
  let got: ArenaEvent[];
  let waiters: { n: number; resolve: () => void }[];
  const received = (n: number) => new Promise<void>((resolve) => (got.length >= n ? resolve() : waiters.push({ n, resolve })));

  beforeEach(async () => {
    redis = await startRedis();
    client = new Redis(redis.port, '127.0.0.1');
    const bus = new EventBus();
    got = [];
    waiters = [];
    bus.events$.subscribe((e) => {
      got.push(e);
      for (const w of waiters.filter((x) => got.length >= x.n)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
    });
    feed = new LiveFeed(new Redis(redis.port, '127.0.0.1', { maxRetriesPerRequest: null }), bus, { blockMs: 100 });
    await feed.start();
  });
  afterEach(async () => {
    await feed.stop();
    client.disconnect();
    await redis.stop();
  });

  /** As LivePublisher writes: the shared stream and, unless `onlyMatch`/`onlyLive`, the match's stream. */
  async function add(e: MatchEvent, attempt = 1, where: 'both' | 'live' | 'match' = 'both'): Promise<void> {
    const fields = ['e', JSON.stringify(e), 'a', String(attempt)];
    if (where !== 'match') await client.xadd(LIVE_STREAM, '*', ...fields);
    if (where !== 'live') await client.xadd(matchStream(e.matchId), '*', ...fields);
  }

  test('duplicates are published once; a gap is filled from the match stream before the event that revealed it', async () => {
    await add(ev('m', 0, 'match.created'));
    await add(ev('m', 1));
    await add(ev('m', 1), 1, 'live'); // a duplicate
    await add(ev('m', 2), 1, 'match'); // missed on the shared stream
    await add(ev('m', 3), 1, 'match');
    await add(ev('m', 4, 'match.ended'));
    await received(5);
    expect(got.map((e) => (e as MatchEvent).seq)).toEqual([0, 1, 2, 3, 4]);
    expect(feed.stats.published).toBe(5);
    expect(feed.stats.filled).toBeGreaterThanOrEqual(2); // 2 and 3 at least (4 too when it reached the match stream first)
  });

  test("a newer attempt's events continue the view; an older attempt's later events are dropped", async () => {
    await add(ev('r', 0, 'match.created'), 1);
    await add(ev('r', 1), 1);
    await received(2);
    // the worker died; attempt 2 plays the match again from its seed
    await add(ev('r', 0, 'match.created'), 2);
    await add(ev('r', 1), 2);
    await add(ev('r', 2), 2);
    await add(ev('r', 3), 1); // a late event of the dead attempt, past what was shown
    await add(ev('r', 3, 'match.ended'), 2);
    await received(4);
    expect(got.map((e) => (e as MatchEvent).seq)).toEqual([0, 1, 2, 3]);
    expect(got[3].type).toBe('match.ended'); // attempt 2's, not the dead attempt's
    expect(feed.stats.published).toBe(4);
  });

  test('league events (no match) pass straight through', async () => {
    await client.xadd(LIVE_STREAM, '*', 'e', JSON.stringify({ type: 'rating.updated', league: 'l', seq: 0, time: 1, visibility: 'public', data: {} }), 'a', '0');
    await received(1);
    expect(got[0]).toMatchObject({ type: 'rating.updated', league: 'l' });
  });
});
