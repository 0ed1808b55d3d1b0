/**
 * Publishes a process's bus to Redis for spectator servers on other processes and machines
 * (`arena serve --redis`): every event goes to the capped stream `arena:live`; a match's events
 * also go to its own stream `arena:live:m:<id>` (a server that joins late, or lost events while
 * disconnected, fills its gap from it), and `arena:live:matches` lists the matches being played.
 * Events are sent in one pipeline per turn of the event loop, in publish order. While Redis is
 * unreachable events are dropped (counted): live views are best effort, the store keeps every match.
 */
import type { Subscription } from 'rxjs';
import type Redis from 'ioredis';
import type { EventBus } from '../bus/event-bus';
import { isMatchEvent, type ArenaEvent } from '../core/events';
import { LIVE_MATCHES, LIVE_STREAM, matchStream } from './keys';

/** Options of {@link LivePublisher}. */
export interface LivePublisherOptions {
  /** Approximate cap of `arena:live` (default 100,000 events). */
  maxLen?: number;
  /** Seconds a finished match's stream is kept (default 3,600); a running match's stream expires after a day. */
  endedTtlS?: number;
  /**
   * The attempt of a match (a job retried after its worker died plays the match again): servers
   * drop events of older attempts once a newer one has started. Default 1.
   */
  attemptOf?: (matchId: string) => number;
}

/** Counts of a publisher. */
export interface PublisherStats {
  published: number;
  dropped: number;
}

/** Subscribes to a bus and sends its events to Redis (see the file doc). */
export class LivePublisher {
  readonly stats: PublisherStats = { published: 0, dropped: 0 };
  private pending: ArenaEvent[] = [];
  private scheduled = false;
  private inFlight: Promise<unknown> = Promise.resolve();
  private readonly sub: Subscription;

  constructor(
    private readonly redis: Redis,
    bus: EventBus,
    private readonly o: LivePublisherOptions = {},
  ) {
    this.sub = bus.events$.subscribe((e) => {
      this.pending.push(e);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (!batch.length) return;
    if (this.redis.status !== 'ready') {
      this.stats.dropped += batch.length;
      return;
    }
    const maxLen = this.o.maxLen ?? 100_000;
    const p = this.redis.pipeline();
    for (const e of batch) {
      const json = JSON.stringify(e);
      const attempt = isMatchEvent(e) ? (this.o.attemptOf?.(e.matchId) ?? 1) : 0;
      p.xadd(LIVE_STREAM, 'MAXLEN', '~', maxLen, '*', 'e', json, 'a', attempt);
      if (!isMatchEvent(e)) continue;
      const key = matchStream(e.matchId);
      if (e.type === 'match.created') {
        p.del(key); // an earlier attempt's log (its worker died)
        p.hset(LIVE_MATCHES, e.matchId, String(e.time));
      }
      p.xadd(key, '*', 'e', json, 'a', attempt);
      if (e.type === 'match.created') p.expire(key, 86_400);
      if (e.type === 'match.ended') {
        p.hdel(LIVE_MATCHES, e.matchId);
        p.expire(key, this.o.endedTtlS ?? 3600);
      }
    }
    this.stats.published += batch.length;
    this.inFlight = p.exec().catch(() => {
      this.stats.dropped += batch.length;
    });
  }

  /** Resolves when every event published so far has been sent. */
  async drain(): Promise<void> {
    if (this.pending.length) this.flush();
    await this.inFlight;
  }

  /** Stops listening and sends what is pending. */
  async close(): Promise<void> {
    this.sub.unsubscribe();
    await this.drain();
  }
}
