/**
 * The two halves of scheduled play that differ between commands: a {@link Schedule} says what
 * to play next and folds each result in (league matchmaking and learners; a tournament's slots,
 * Swiss rounds and SPRT), a {@link PlanPlayer} plays plans (in this process, or on workers through
 * Redis). The driver (drive.ts) joins any schedule to any player.
 */
import type { MatchPlan } from './match-plan';
import type { PlayOutcome } from './record-match';

/** What to play and how results count; `F` is what a fold returns (a match record, a tournament game). */
export interface Schedule<F> {
  /** League or tournament id (the store's key). */
  readonly name: string;
  /** Env id of the plans (the workers' queue). */
  readonly envId: string;
  /** Results folded so far (= the index of the next match to fold). */
  readonly completed: number;
  /** Matches in the whole schedule (a league's budget, a tournament's planned games, an SPRT's game limit). */
  readonly total: number;
  /** Plans handed out ahead of the fold at most (a league's pairing window; a tournament's in-flight limit). */
  readonly window: number;
  /**
   * Runs what a killed run left undone before its next match (a training round); false when the
   * signal stopped it.
   */
  start(signal?: AbortSignal): Promise<boolean>;
  /**
   * The plans of the next matches in index order, the head (index `completed`) first, as many as
   * can be played before the head is folded (the pairing window, the rest of a Swiss round, an
   * SPRT's next games); empty when the schedule is over.
   */
  next(): MatchPlan[];
  /** Folds the head's outcome into the store, the ratings and the schedule's state (strictly in index order). */
  fold(plan: MatchPlan, outcome: PlayOutcome): F;
  /**
   * Runs `fn` (folds and the `next` calls between them) in ONE store transaction: all its writes
   * are committed together, or none when it throws.
   */
  transaction<T>(fn: () => T): T;
  /** Whether the last fold made work due that {@link afterFold} must do before the next fold (a training round). */
  dueAfterFold(): boolean;
  /** What a fold made due (a training round); false when the signal stopped it. */
  afterFold(signal?: AbortSignal): Promise<boolean>;
  /** Releases what the schedule holds (learners' models). */
  dispose(): void;
}

/** Plays plans: in this process, or on workers. */
export interface PlanPlayer {
  /**
   * The outcomes of the head of `plans` and of the plans after it that are ready now, in order
   * (at least the head's; the others may be started ahead, as a pairing window allows): a batch
   * the driver folds in one transaction. Null when the signal stopped the wait or the match.
   */
  play(plans: readonly MatchPlan[], signal?: AbortSignal): Promise<PlayOutcome[] | null>;
  /** Called once outcomes are folded (committed), with the plans folded in order (a worker's finished jobs are removed). */
  folded(plans: readonly MatchPlan[]): Promise<void>;
  /** Ends the player; `finished` when the schedule is over (plans started ahead and never needed are dropped). */
  close(finished: boolean): Promise<void>;
}
