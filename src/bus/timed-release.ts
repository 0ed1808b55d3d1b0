import type { MatchEvent } from '../core/events';
import type { Batch, ViewStream } from '../core/phase-release';

/**
 * A {@link ViewStream} on the wall clock: each batch the stream releases is delivered `delay` ms
 * after the event that released it arrived (at once when there is no delay and nothing waits),
 * in order. The live server's public view of every match, `arena play --watch` and
 * `filterForViewer` run through one, so a hidden-role match's public phases reach spectators when
 * they are due (src/core/phase-release.ts), not when a seat happened to finish.
 */
export class TimedRelease<X = never> {
  private readonly queue: { at: number; batch: Batch<X> }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiters: (() => void)[] = [];

  constructor(
    readonly stream: ViewStream<X>,
    private readonly deliver: (batch: Batch<X>) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True while a batch waits for its time. */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** Feeds the match's next event (global order), with an extra item for the stream (see ViewStream.push). */
  push(e: MatchEvent, extra?: X): void {
    const batch = this.stream.push(e, extra);
    if (!batch) return;
    if (batch.delay <= 0 && this.queue.length === 0) {
      this.deliver(batch);
      return;
    }
    this.queue.push({ at: this.now() + batch.delay, batch });
    this.arm();
  }

  /** Resolves once nothing waits (at once when nothing does). */
  drained(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Drops what waits and its timer (a server closing); `drained()` promises resolve. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
    this.settle();
  }

  private arm(): void {
    if (this.timer || this.queue.length === 0) return;
    this.timer = setTimeout(() => this.fire(), Math.max(0, this.queue[0].at - this.now()));
  }

  private fire(): void {
    this.timer = null;
    const t = this.now();
    while (this.queue.length > 0 && this.queue[0].at <= t) this.deliver(this.queue.shift()!.batch);
    this.arm();
    this.settle();
  }

  private settle(): void {
    if (this.queue.length > 0) return;
    for (const w of this.waiters.splice(0)) w();
  }
}
