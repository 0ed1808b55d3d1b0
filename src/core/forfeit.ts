/**
 * Returns when a seat forfeits. Faults cost the faulty seat only: the forfeiter gets −1, and
 * every other seat keeps what the env had already given it — a forfeit by one seat never erases
 * rewards the others earned (docs/architecture.md, "Forfeits", has what each built-in env does).
 */

/**
 * The runner's default (an env without `forfeitReturns`): the forfeiter −1; in a zero-sum game
 * with several seats the others share +1 (the forfeit is a loss, so the others win); otherwise
 * each other seat gets the sum of the per-decision rewards the env gave it so far (0 when none).
 */
export function defaultForfeitReturns(seats: number, forfeiter: number, zeroSum: boolean, rewards: readonly { seat: number; value: number }[]): number[] {
  const earned = new Array<number>(seats).fill(0);
  for (const r of rewards) if (r.seat >= 0 && r.seat < seats) earned[r.seat] += r.value;
  return earned.map((v, i) => (i === forfeiter ? -1 : zeroSum && seats > 1 ? 1 / (seats - 1) : v));
}

/**
 * A `forfeitReturns` for envs whose `returns` are meaningful before the end (the values so far:
 * the last measured revision, the mean of the predictions made...): the forfeiter −1, every
 * other seat its return so far.
 */
export function keepReturnsSoFar<S>(returns: (state: S) => number[]): (state: S, seat: number) => number[] {
  return (state, seat) => returns(state).map((v, i) => (i === seat ? -1 : v));
}
