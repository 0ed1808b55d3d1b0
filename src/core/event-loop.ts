/**
 * Yielding to the event loop from long loops. A loop of synchronous matches awaits only
 * settled promises (microtasks), so timers, signals (Ctrl-C) and messages wait until it ends;
 * a loop that awaits {@link EventLoopTurn.maybe} now and then lets them run.
 */

/** Resolves after the event loop has had one turn (timers, I/O, signals, messages). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Yields to the event loop at most every `everyMs` milliseconds: `maybe()` returns a promise
 * to await when a turn is due, else null (so a fast loop pays one clock read per call).
 */
export class EventLoopTurn {
  private last = Date.now();

  constructor(private readonly everyMs = 20) {}

  /** A promise of the next turn when `everyMs` have passed since the last one, else null. */
  maybe(): Promise<void> | null {
    const now = Date.now();
    if (now - this.last < this.everyMs) return null;
    this.last = now;
    return nextTurn();
  }
}
