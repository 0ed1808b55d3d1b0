/**
 * The spectator server's side of live events across processes (`arena serve --redis`): reads
 * `arena:live` (see live-publisher.ts) and publishes each event on the server's own bus, so the
 * server's LiveMatches and SpectatorHub — per-view numbering, late-join snapshots, replays — work
 * exactly as for matches played in its own process.
 *
 * Each match's events reach the bus once, in seq order, without gaps: duplicates (a retried job
 * playing the match again, a reconnection) are dropped by seq, events of an older attempt are
 * dropped once a newer attempt has begun, and a gap (the server started mid-match, or missed
 * events while disconnected) is filled from the match's own stream before the event that
 * revealed it. At start the matches being played are read from their streams, so a server
 * started mid-match shows them from their first event.
 */
import type Redis from 'ioredis';
import type { EventBus } from '../bus/event-bus';
import { isMatchEvent, type ArenaEvent, type MatchEvent } from '../core/events';
import { LIVE_MATCHES, LIVE_STREAM, matchStream } from './keys';

interface MatchFeedState {
  /** The seq of the next event to publish. */
  next: number;
  attempt: number;
  ended: boolean;
}

/** Counts of a feed. */
export interface FeedStats {
  /** Events read from Redis. */
  read: number;
  /** Events published on the bus. */
  published: number;
  /** Events recovered from a match's own stream (gaps filled). */
  filled: number;
  /** Events dropped as duplicates or of an older attempt. */
  dropped: number;
}

type Entry = [id: string, fields: string[]];

function fieldsOf(fields: string[]): { event: ArenaEvent; attempt: number } | null {
  let json: string | undefined;
  let attempt = 0;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'e') json = fields[i + 1];
    else if (fields[i] === 'a') attempt = Number(fields[i + 1]);
  }
  if (json === undefined) return null;
  try {
    return { event: JSON.parse(json) as ArenaEvent, attempt };
  } catch {
    return null;
  }
}

/** Feeds live events from Redis into a bus (see the file doc). */
export class LiveFeed {
  readonly stats: FeedStats = { read: 0, published: 0, filled: 0, dropped: 0 };
  private readonly matches = new Map<string, MatchFeedState>();
  private readonly endedOrder: string[] = [];
  private lastId = '0-0';
  private stopped = false;
  private loop: Promise<void> | null = null;

  /**
   * @param redis a connection of its own (it blocks reading the stream)
   * @param bus where the events go
   */
  constructor(
    private readonly redis: Redis,
    private readonly bus: EventBus,
    private readonly o: { blockMs?: number; log?: (line: string) => void } = {},
  ) {}

  /** Reads the matches being played (from their first event), then follows the stream. Resolves once caught up. */
  async start(): Promise<void> {
    const last = (await this.redis.xrevrange(LIVE_STREAM, '+', '-', 'COUNT', 1)) as Entry[];
    this.lastId = last.length ? last[0][0] : '0-0';
    for (const id of await this.redis.hkeys(LIVE_MATCHES)) await this.fill(id);
    this.loop = this.follow();
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      let res: [string, Entry[]][] | null;
      try {
        res = (await this.redis.xread('COUNT', 1000, 'BLOCK', this.o.blockMs ?? 1000, 'STREAMS', LIVE_STREAM, this.lastId)) as [string, Entry[]][] | null;
      } catch {
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, 200)); // the connection reconnects by itself
        continue;
      }
      if (!res) continue;
      for (const [id, fields] of res[0][1]) {
        this.lastId = id;
        const f = fieldsOf(fields);
        if (!f) continue;
        this.stats.read++;
        await this.handle(f.event, f.attempt);
      }
    }
  }

  private state(matchId: string, attempt: number): MatchFeedState {
    let st = this.matches.get(matchId);
    if (!st) {
      st = { next: 0, attempt, ended: false };
      this.matches.set(matchId, st);
    }
    return st;
  }

  private async handle(e: ArenaEvent, attempt: number): Promise<void> {
    if (!isMatchEvent(e)) {
      this.bus.publish(e);
      this.stats.published++;
      return;
    }
    const st = this.state(e.matchId, attempt);
    if (attempt < st.attempt || e.seq < st.next) {
      this.stats.dropped++;
      return;
    }
    st.attempt = attempt;
    if (e.seq > st.next) await this.fill(e.matchId);
    if (e.seq < st.next) {
      this.stats.dropped++;
      return;
    }
    if (e.seq > st.next) {
      // the match's own stream no longer holds the missing events
      if (st.next > 0) this.o.log?.(`live match ${e.matchId}: events ${st.next}-${e.seq - 1} are lost (Redis no longer holds them)`);
      st.next = e.seq;
    }
    this.publish(st, e);
  }

  private publish(st: MatchFeedState, e: MatchEvent): void {
    this.bus.publish(e);
    this.stats.published++;
    st.next = e.seq + 1;
    if (e.type === 'match.ended' && !st.ended) {
      st.ended = true;
      this.endedOrder.push(e.matchId);
      while (this.endedOrder.length > 1000) this.matches.delete(this.endedOrder.shift()!);
    }
  }

  /** Publishes the match's events missing here from its own stream (the newest attempt's). */
  private async fill(matchId: string): Promise<void> {
    const entries = (await this.redis.xrange(matchStream(matchId), '-', '+')) as Entry[];
    const parsed = entries.map((x) => fieldsOf(x[1])).filter((x): x is { event: ArenaEvent; attempt: number } => !!x && isMatchEvent(x.event));
    if (!parsed.length) return;
    const newest = Math.max(...parsed.map((x) => x.attempt));
    const st = this.state(matchId, newest);
    if (newest < st.attempt) return;
    st.attempt = newest;
    for (const x of parsed) {
      const e = x.event as MatchEvent;
      if (x.attempt !== newest || e.seq !== st.next) continue;
      this.publish(st, e);
      this.stats.filled++;
    }
  }

  /** Stops following (the connection is the caller's to close; closing it ends a blocked read at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.redis.disconnect();
    await this.loop;
  }
}
