/** Per-connection rate limit settings. */
export interface RateLimit {
  /** Messages allowed in a burst (bucket size). */
  burst: number;
  /** Sustained messages per second (refill rate). */
  perSecond: number;
  /** Refused messages within one `windowMs` after which the connection is dropped; 0 = never. */
  disconnectAfter: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { burst: 40, perSecond: 20, disconnectAfter: 2000, windowMs: 10_000 };

/**
 * A token bucket for one connection. `take()` answers whether a message may be handled now;
 * `abusive` turns true once too many messages were refused within the window.
 * `now` is injectable for tests.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private refused = 0;
  private windowStart: number;
  private lastNotice = -Infinity;

  constructor(
    private readonly limit: RateLimit = DEFAULT_RATE_LIMIT,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.last = this.windowStart = now();
  }

  /** Takes one token; false when the message must be refused. */
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.last) / 1000) * this.limit.perSecond);
    this.last = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    if (t - this.windowStart > this.limit.windowMs) {
      this.windowStart = t;
      this.refused = 0;
    }
    this.refused++;
    return false;
  }

  /** True once the connection exceeded `disconnectAfter` refusals in one window. */
  get abusive(): boolean {
    return this.limit.disconnectAfter > 0 && this.refused >= this.limit.disconnectAfter;
  }

  /** True at most once a second: whether to tell the client it is being rate limited (so a flood is not answered by a flood). */
  shouldNotify(): boolean {
    const t = this.now();
    if (t - this.lastNotice < 1000) return false;
    this.lastNotice = t;
    return true;
  }
}
