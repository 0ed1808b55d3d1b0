/**
 * The files of a training run's output folder, and the run state that lets a killed or
 * finished run resume (`arena train ... --out DIR --resume`):
 *
 *   DIR/state.json                     run state (below), rewritten at every checkpoint
 *   DIR/checkpoints/<learner>-<N>.json  checkpoint after N iterations (weights + Adam state)
 *   DIR/checkpoints/<learner>-latest.json
 *   DIR/snapshots/<learner>@<N>.json    frozen opponents of the checkpoints pool
 *   DIR/metrics.jsonl, DIR/metrics.csv  one row per iteration
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';

export const RUN_STATE_FORMAT = 'selfplay-arena/train-run-v1';

/** What a run needs to resume. */
export interface RunState {
  format: typeof RUN_STATE_FORMAT;
  runId: string;
  env: string;
  params: Params;
  roles: string[][];
  opponents: string[];
  schedule: string;
  config: JsonValue;
  /** Iterations completed. */
  iteration: number;
  /** The opponent pools in order: file paths relative to the run folder. */
  snapshots: { learner: string; label: string; file: string }[];
}

/** File-name-safe form of a learner id. */
export function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_.+@-]/g, '_');
}

export function checkpointFile(dir: string, learner: string, iteration: number | 'latest'): string {
  return join(dir, 'checkpoints', `${safeName(learner)}-${iteration}.json`);
}

/** Relative path (inside the run folder) of a snapshot file. */
export function snapshotRelPath(learner: string, iteration: number): string {
  return join('snapshots', `${safeName(learner)}@${iteration}.json`);
}

export function statePath(dir: string): string {
  return join(dir, 'state.json');
}

/** Writes the run state atomically. */
export function saveRunState(dir: string, s: RunState): void {
  mkdirSync(dir, { recursive: true });
  const tmp = `${statePath(dir)}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(s, null, 1));
  renameSync(tmp, statePath(dir));
}

/** Reads the run state of `dir`; throws an error saying what is missing. */
export function loadRunState(dir: string): RunState {
  const p = statePath(dir);
  if (!existsSync(p)) throw new Error(`--resume: ${p} does not exist (no run to resume in ${dir})`);
  const s = JSON.parse(readFileSync(p, 'utf8')) as RunState;
  if (s.format !== RUN_STATE_FORMAT) throw new Error(`--resume: ${p} is not a ${RUN_STATE_FORMAT} file`);
  return s;
}
