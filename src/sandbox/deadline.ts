/**
 * A deadline set again and again (a pool slot's wall clock, set for each message its worker
 * runs): one timer serves the successive deadlines. It is armed again only when it fires before
 * the deadline now set (then for the time left) or when a new deadline comes before it is due;
 * a deadline cleared leaves it armed, and it does nothing when it fires with none set. So a
 * stream of runs costs no timer created and cleared per run (each a timer-list insert and
 * removal, and garbage on the host: issue 27, docs/architecture.md "JavaScript throughput").
 * The timer never keeps the process alive (unref'd): whoever waits for the deadline holds a
 * handle that does (the pool's worker channel is ref'd while a run is out).
 */
export class Deadline {
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (`now()` ms), or Infinity when none is armed. */
  private firesAt = Infinity;
  /** The deadline (`now()` ms), or Infinity when none is set. */
  private at = Infinity;

  /**
   * @param onExpire called once when a deadline set passes without being cleared or set again
   * @param now the clock (ms, monotonic); tests give their own
   */
  constructor(
    private readonly onExpire: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Sets the deadline `ms` from now, replacing the one set before. */
  set(ms: number): void {
    this.at = this.now() + ms;
    if (this.firesAt > this.at) this.arm(ms);
  }

  /** Clears the deadline: nothing expires until the next `set`. */
  clear(): void {
    this.at = Infinity;
  }

  /** Whether a deadline is set. */
  get pending(): boolean {
    return this.at !== Infinity;
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.firesAt = this.now() + ms;
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.firesAt = Infinity;
    if (this.at === Infinity) return;
    const left = this.at - this.now();
    // a timer may fire up to a millisecond early (the event loop's clock is cached per turn)
    if (left > 0) return this.arm(Math.max(1, left));
    this.at = Infinity;
    this.onExpire();
  }
}
