/**
 * The one loop of scheduled play: schedule -> play -> fold in index order. `arena league run`,
 * `arena tournament run`, `arena sprt` (each in this process or on workers with `--redis`) are
 * this loop with a different schedule and player, so stopping, the event-loop turn between
 * synchronous matches and learners' rounds behave the same in all of them.
 *
 * A player may hand back several outcomes at once (a worker's batch): they are folded in index
 * order in ONE store transaction, with the schedule's `next` called between folds (so each plan
 * paired on the way is paired from exactly the state an unbatched run had), and the batch is cut
 * where a fold makes a training round due (the round runs before the next fold, as unbatched).
 */
import { EventLoopTurn } from '../../src/core/event-loop';
import { planKey, type MatchPlan } from './match-plan';
import type { PlayOutcome } from './record-match';
import type { PlanPlayer, Schedule } from './schedule';

/** How to drive. */
export interface DriveOptions<F> {
  /** Stops cleanly before the next match (Ctrl-C): the current one is finished and folded, or not recorded at all. */
  signal?: AbortSignal;
  /** Fold at most this many results in this call. */
  maxMatches?: number;
  /** Called after every fold (once its transaction is committed) with what it returned and the results folded so far. */
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
 * Folds `outcomes` (of `plans[0..]`) in one transaction, at most `limit`; stops early where a
 * fold makes work due or the schedule hands out another plan than the one played (never, for
 * the schedules of this project: a plan once made is kept until folded). Returns what was folded.
 */
function foldBatch<F>(schedule: Schedule<F>, plans: readonly MatchPlan[], outcomes: readonly PlayOutcome[], limit: number): { plans: MatchPlan[]; folds: { folded: F; completed: number }[] } {
  const done: MatchPlan[] = [];
  const folds: { folded: F; completed: number }[] = [];
  schedule.transaction(() => {
    for (let i = 0; i < Math.min(limit, outcomes.length); i++) {
      // the plans paired after each fold are paired now, from the state this fold made
      const head = i === 0 ? plans[0] : schedule.next()[0];
      if (head !== plans[i] && (head?.idx !== plans[i].idx || planKey(head) !== planKey(plans[i]))) break;
      folds.push({ folded: schedule.fold(head, outcomes[i]), completed: schedule.completed });
      done.push(head);
      if (schedule.dueAfterFold()) break;
    }
  });
  return { plans: done, folds };
}

/**
 * Plays a schedule with a player until the schedule is over, `maxMatches` results were folded or
 * the signal stops it. Yields to the event loop between batches (at most every 20 ms), so a
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
      const outcomes = await player.play(plans, o.signal);
      if (!outcomes) {
        interrupted = true;
        break;
      }
      const batch = foldBatch(schedule, plans, outcomes, o.maxMatches === undefined ? Infinity : o.maxMatches - played);
      await player.folded(batch.plans);
      played += batch.plans.length;
      for (const f of batch.folds) o.onFold?.(f.folded, f.completed);
      interrupted = !(await schedule.afterFold(o.signal));
    }
  } finally {
    await player.close(finished);
  }
  return { played, completed: schedule.completed, finished, interrupted };
}
