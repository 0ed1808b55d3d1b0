/**
 * The BullMQ payloads of scale-out: a match job (a batch of plans, consecutive in index order)
 * and what a worker returns for it (one result per plan, in the same order).
 */
import type { Job } from 'bullmq';
import type { EventLogMessage } from '../../src/store/event-log';
import type { PlayedMatch } from '../engine/record-match';
import { planKey, sha256, type MatchPlan } from '../engine/match-plan';

/** A job's data: the plans to play (consecutive indices of one schedule) and their batch key ({@link batchKey}). */
export interface MatchJob {
  plans: MatchPlan[];
  key: string;
}

/** What a worker produced for one plan of a job: played (with its event log, packed: src/store/event-log.ts), or an env that threw (a failed match; retrying cannot help). */
export type PlanResult = { key: string; ok: true; played: PlayedMatch; log: EventLogMessage } | { key: string; ok: false; reason: string };

/** A job's return value: the job's batch key and each plan's result (with its plan's key), in the job's order. */
export interface MatchJobResult {
  key: string;
  results: PlanResult[];
  /** The worker that played it. */
  worker: string;
}

/** The BullMQ job name of match jobs. */
export const MATCH_JOB = 'match';

/** The key of a batch of plans: SHA-256 of their plan keys in order (a worker checks it; the scheduler takes a result only for it). */
export function batchKey(plans: readonly MatchPlan[]): string {
  return batchKeyOf(plans.map(planKey));
}

/** {@link batchKey} from the plans' keys (in order), for a caller that has them already. */
export function batchKeyOf(planKeys: readonly string[]): string {
  return sha256(planKeys.join('\n'));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why a job failed, with its errors and its workers' deaths counted ("... (1 error, 2 worker deaths)"). */
export function failureText(job: Pick<Job, 'failedReason' | 'attemptsMade' | 'stalledCounter'>): string {
  const errors = Math.max(0, job.attemptsMade - (job.stalledCounter > 0 && /stalled/.test(job.failedReason ?? '') ? 1 : 0));
  return `${job.failedReason || 'failed'} (${plural(errors, 'error')}, ${plural(job.stalledCounter, 'worker death')})`;
}
