/**
 * The files of a training run's output folder, and the run state that lets a killed or
 * finished run resume (`arena train ... --out DIR --resume`):
 *
 *   DIR/state.json                     run state (below), rewritten at every checkpoint
 *   DIR/checkpoints/state-<N>.json      the run state after N iterations (resume at N exactly)
 *   DIR/checkpoints/<learner>-<N>.json  checkpoint after N iterations (weights + Adam state)
 *   DIR/checkpoints/<learner>-latest.json
 *   DIR/snapshots/<learner>@<N>.json    frozen opponents of the checkpoints pool
 *   DIR/metrics.jsonl, DIR/metrics.csv  one row per iteration
 */
import { learnerId } from './role-groups';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** The run state of `dir`: the latest one, or the one saved after `iteration` iterations. */
export function statePath(dir: string, iteration?: number): string {
  return iteration === undefined ? join(dir, 'state.json') : join(dir, 'checkpoints', `state-${iteration}.json`);
}

function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Writes the run state atomically, as the latest one and as the one of its iteration. */
export function saveRunState(dir: string, s: RunState): void {
  const text = JSON.stringify(s, null, 1);
  writeAtomically(statePath(dir, s.iteration), text);
  writeAtomically(statePath(dir), text);
}

/**
 * Reads the run state of `dir` (the latest, or the one saved after `iteration` iterations);
 * throws a {@link RunStateError} saying what is missing or broken.
 */
export function loadRunState(dir: string, iteration?: number): RunState {
  let p = statePath(dir, iteration);
  if (iteration !== undefined && !existsSync(p)) {
    // runs saved before numbered states existed: the latest state, when it is the one asked for
    const latest = statePath(dir);
    if (existsSync(latest) && readState(latest).iteration === iteration) p = latest;
  }
  if (!existsSync(p)) {
    throw new RunStateError(iteration === undefined ? `--resume: ${p} does not exist (no run to resume in ${dir})` : `${p} does not exist (no state saved after iteration ${iteration} in ${dir})`);
  }
  return readState(p);
}

function readState(p: string): RunState {
  let s: RunState;
  try {
    s = JSON.parse(readFileSync(p, 'utf8')) as RunState;
  } catch (e) {
    throw new RunStateError(`${p}: not a readable run state (${(e as Error).message}); restore it or start a new run in another folder`);
  }
  if (!s || typeof s !== 'object' || s.format !== RUN_STATE_FORMAT) throw new RunStateError(`${p} is not a ${RUN_STATE_FORMAT} file`);
  if (!Number.isInteger(s.iteration) || s.iteration < 0 || !Array.isArray(s.roles) || !Array.isArray(s.snapshots) || typeof s.env !== 'string') {
    throw new RunStateError(`${p}: a ${RUN_STATE_FORMAT} file with missing or malformed fields (iteration, env, roles, snapshots)`);
  }
  return s;
}

/** A run state that is missing or unreadable; the message names the file. */
export class RunStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunStateError';
  }
}

const oneLineJson = (v: unknown) => {
  const t = JSON.stringify(v);
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
};

/** Throws RunStateError when the run saved in `dir` trained another env, other learners (ids joined by ","), or other params. */
export function checkResumable(s: RunState, dir: string, env: string, learnerIds: string, params: unknown): void {
  if (s.env !== env) throw new RunStateError(`--resume: the run in ${dir} trained ${s.env}, not ${env}`);
  const saved = s.roles.map(learnerId).join(',');
  if (saved !== learnerIds) throw new RunStateError(`--resume: the run in ${dir} trained ${saved}, not ${learnerIds}`);
  if (JSON.stringify(s.params) !== JSON.stringify(params)) {
    throw new RunStateError(`--resume: the run in ${dir} trained with params ${oneLineJson(s.params)}, not ${oneLineJson(params)} (resume without --params to keep the run's)`);
  }
}
