/**
 * The one loop of scheduled play: schedule -> play -> fold in index order. `arena league run`,
 * `arena tournament run`, `arena sprt` (each in this process or on workers with `--redis`) are
 * this loop with a different schedule and player, so stopping, the event-loop turn between
 * synchronous matches and learners' rounds behave the same in all of them.
 */
import { EventLoopTurn } from '../../src/core/event-loop';
import type { PlanPlayer, Schedule } from './schedule';

/** How to drive. */
export interface DriveOptions<F> {
  /** Stops cleanly before the next match (Ctrl-C): the current one is finished and folded, or not recorded at all. */
  signal?: AbortSignal;
  /** Fold at most this many results in this call. */
  maxMatches?: number;
  /** Called after every fold with what it returned and the results folded so far. */
  onFold?: (folded: F, completed: number) => void;
}

/** What a drive did. */
export interface DriveResult {
  /** Results folded by this call. */
  played: number;
  /** Results folded in total. */
  completed: number;
  /** The schedule is over (nothing left to play). */
  finished: boolean;
  /** The signal stopped it. */
  interrupted: boolean;
}

/**
 * Plays a schedule with a player until the schedule is over, `maxMatches` results were folded or
 * the signal stops it. Yields to the event loop between matches (at most every 20 ms), so a
 * signal gets in between synchronous matches; closes the player (not the schedule) at the end.
 */
export async function drive<F>(schedule: Schedule<F>, player: PlanPlayer, o: DriveOptions<F> = {}): Promise<DriveResult> {
  let played = 0;
  let finished = false;
  let interrupted = false;
  try {
    interrupted = !(await schedule.start(o.signal));
    const turn = new EventLoopTurn();
    while (!interrupted) {
      await turn.maybe(); // lets Ctrl-C and other events in between synchronous matches
      if (o.signal?.aborted) {
        interrupted = true;
        break;
      }
      const plans = schedule.next();
      if (!plans.length) {
        finished = true;
        break;
      }
      if (o.maxMatches !== undefined && played >= o.maxMatches) break;
      const outcome = await player.play(plans, o.signal);
      if (!outcome) {
        interrupted = true;
        break;
      }
      const folded = schedule.fold(plans[0], outcome);
      await player.folded(plans[0], outcome);
      played++;
      o.onFold?.(folded, schedule.completed);
      interrupted = !(await schedule.afterFold(o.signal));
    }
  } finally {
    await player.close(finished);
  }
  return { played, completed: schedule.completed, finished, interrupted };
}
