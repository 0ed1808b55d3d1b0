/** The BullMQ payloads of scale-out: a match job (a plan) and what a worker returns for it. */
import type { MatchEvent } from '../../src/core/events';
import type { PlayedMatch } from '../engine/record-match';
import type { MatchPlan } from '../engine/match-plan';

/** A job's data: the plan to play and its key (`planKey(plan)`). */
export interface MatchJob {
  plan: MatchPlan;
  key: string;
}

/** A job's return value: the key of the plan played, what it produced and its event log. */
export interface MatchJobResult {
  key: string;
  played: PlayedMatch;
  events: MatchEvent[];
  /** The worker that played it. */
  worker: string;
}

/** The BullMQ job name of match jobs. */
export const MATCH_JOB = 'match';
