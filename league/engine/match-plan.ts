/**
 * A match plan: the one unit of scheduled play (league matches and tournament games alike,
 * docs/scale-out.md). Everything a process needs to play the match — env, params, seed, the
 * players in their seats and what each plays with, deadline, faults, pace — as plain JSON, so it
 * can be stored, sent to a worker as a job, and played the same way by the scheduling process or
 * by any worker.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { agentRefFiles, formatAgentRef, looksLikePath, parseAgentRef, replaceOptionValue } from '../../src/core/agent-ref';

/** A file by content: its path where the league runs and the SHA-256 of its bytes (hex). */
export interface FileRef {
  path: string;
  sha256: string;
}

/** One seat of a planned match. */
export interface PlannedSeat {
  player: string;
  role: string;
  team: string;
  /** Agent reference (src/core/agent-ref.ts). Unused when `policy` is set. */
  agent: string;
  /** A checkpoint file the spec names (a snapshot player's network): travels by content to workers. */
  checkpoint?: FileRef;
  /** A learner's policy at planning time (a checkpoint file): the seat plays it, sampling with the agent seed. */
  policy?: FileRef;
}

/** A planned match. */
export interface MatchPlan {
  /** League or tournament id (the store's key). */
  league: string;
  idx: number;
  matchId: string;
  /** The league config's env reference (id or module path) and the id it resolved to. */
  env: string;
  envId: string;
  params: Params;
  seed: number;
  seats: PlannedSeat[];
  /** Per-decision limit in ms, "none", or null for the runner's default. */
  deadlineMs: number | 'none' | null;
  /** Fault policy text (league config `faults`). */
  faults: string;
  paceMs: number;
  /** Module and data files the match reads (env module, agent modules, params naming files): workers check them by content. */
  files: FileRef[];
  /**
   * The schedule that made it: absent for a league (`match.started` names the seats by player
   * id), `tournament` for a tournament or SPRT game (seats named by the agents' own names).
   */
  schedule?: 'tournament';
}

/** The plan's identity: SHA-256 of its JSON. A job's result is taken only for the plan it was played for. */
export function planKey(plan: MatchPlan): string {
  return createHash('sha256').update(JSON.stringify(plan)).digest('hex');
}

/** SHA-256 (hex) of bytes. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

const hashes = new Map<string, { mtimeMs: number; size: number; sha256: string }>();

/** A file by content (hashed once per modification). Throws when it cannot be read. */
export function fileRef(path: string): FileRef {
  const abs = resolve(path);
  const st = statSync(abs);
  const hit = hashes.get(abs);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return { path, sha256: hit.sha256 };
  const digest = sha256(readFileSync(abs));
  hashes.set(abs, { mtimeMs: st.mtimeMs, size: st.size, sha256: digest });
  return { path, sha256: digest };
}

/** Whether `path` names an existing regular file. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The files a schedule's matches read, by content: the env module, agent modules, and params
 * whose value names an existing file (a task file). Workers verify their copies against these
 * hashes (and write missing ones from the store) before playing.
 */
export function planFiles(env: string, agentRefs: readonly string[], params: Params): FileRef[] {
  const paths = new Set<string>();
  if (looksLikePath(env)) paths.add(env);
  for (const ref of agentRefs) {
    const r = parseAgentRef(ref);
    if (r.kind === 'module') for (const f of agentRefFiles(r)) paths.add(f);
  }
  for (const v of Object.values(params as Record<string, JsonValue>)) {
    if (typeof v === 'string' && (looksLikePath(v) || /\.[A-Za-z0-9]{1,8}$/.test(v)) && isFile(v)) paths.add(v);
  }
  return [...paths].map(fileRef);
}

/**
 * An agent reference with a file path replaced inside its options (`neural:{"checkpoint":"a.json"}`
 * with a worker's cached copy of a.json). References without that value are returned unchanged.
 */
export function respecPath(ref: string, from: string, to: string): string {
  const r = parseAgentRef(ref);
  const out = replaceOptionValue(r, from, to);
  return out === r ? ref : formatAgentRef(out);
}
