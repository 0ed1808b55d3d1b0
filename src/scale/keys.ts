/**
 * The Redis key space of scale-out (docs/scale-out.md), all under the `arena` prefix:
 *
 * - `arena:<queue>:*`         BullMQ queues of match jobs, one per env (`matches.<env id>`)
 * - `arena:queues`            set of the env ids that have a queue (workers without --envs listen to all)
 * - `arena:blob:<sha256>`     file contents by hash (checkpoints, task data, modules)
 * - `arena:live`              stream of every live event (all matches, league events), capped
 * - `arena:live:m:<match id>` stream of one match's events (late-joining servers fill gaps from it)
 * - `arena:live:matches`      hash of the matches being played (match id -> start time)
 * - `arena:league:<league>`   hash: the scheduler's progress (status, throughput)
 * - `arena:worker:<name>`     a worker's heartbeat (JSON, expires when it stops refreshing)
 */

/** The BullMQ prefix of every queue. */
export const BULL_PREFIX = 'arena';

/** The queue of an env's match jobs. */
export function queueName(envId: string): string {
  return `matches.${envId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

/** Set of the env ids that have a match queue (schedulers add theirs; workers without --envs follow them all). */
export const QUEUES_KEY = 'arena:queues';
/** Capped stream of every live event (fields `e`: the event's JSON, `a`: the attempt of its match). */
export const LIVE_STREAM = 'arena:live';
/** Hash of the matches being played: match id -> start time. */
export const LIVE_MATCHES = 'arena:live:matches';

/** Stream of one match's live events. */
export const matchStream = (matchId: string): string => `arena:live:m:${matchId}`;
/** A file's contents by SHA-256. */
export const blobKey = (sha256: string): string => `arena:blob:${sha256}`;
/** The scheduler's progress hash of a league. */
export const leagueKey = (league: string): string => `arena:league:${league}`;
/** A worker's heartbeat. */
export const workerKey = (name: string): string => `arena:worker:${name}`;
/** Pattern of every worker heartbeat key. */
export const WORKER_KEYS = 'arena:worker:*';

/**
 * The BullMQ job id of match `idx` of `league` (deterministic: adding a job twice keeps one).
 * BullMQ ids may not contain ':', which league ids may.
 */
export function jobId(league: string, idx: number): string {
  return `${league.replace(/%/g, '%25').replace(/:/g, '%3A')}#${idx}`;
}

/**
 * The job id of plan `idx` of `league` played alone after the batch that held it failed every
 * attempt (the batch is split so one poisoned match cannot fail the others): never equal to a
 * batch's id, so the failed batch stays listed (`league status`).
 */
export function splitJobId(league: string, idx: number): string {
  return `${jobId(league, idx)}.alone`;
}
