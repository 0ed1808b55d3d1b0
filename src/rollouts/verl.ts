/**
 * `arena rollouts --format verl`: the rollouts as a Parquet file in the schema verl's RL trainer
 * reads (its data-preparation scripts write the same columns): `data_source` (string),
 * `prompt` (list of {content, role}), `ability` (string), `reward_model` ({ground_truth, style})
 * and `extra_info` (a struct). verl generates its own completions from `prompt` and scores them
 * with a reward function chosen by `data_source`; the arena's recorded answer and what it earned
 * ride along (`reward_model.ground_truth`, `extra_info`) — see docs/rollouts.md for what that does
 * and does not give a trainer.
 *
 * Written with hyparquet-writer (pure JS, MIT), one row group per played group of episodes, so a
 * stopped run still closes a valid file of whole groups. The library is an ES module, loaded with
 * a dynamic import.
 */
import type { RolloutRecord } from './collect';

/** One row of the verl file. */
export interface VerlRow {
  data_source: string;
  prompt: { content: string; role: string }[];
  ability: string;
  reward_model: { ground_truth: string; style: string };
  extra_info: VerlExtra;
}

/** Where the row's decision happened and what it earned (the JSONL record's fields). */
export interface VerlExtra {
  index: bigint;
  env: string;
  params: string;
  /** Provenance (src/rollouts/provenance.ts): the params hash, the env's prompt version, the package version. */
  params_hash: string;
  prompt_version: string;
  package_version: string;
  role: string;
  agent: string;
  group: string;
  trajectory: string;
  episode: bigint;
  member: bigint;
  seed: bigint;
  seat: bigint;
  step: bigint;
  try: bigint | null;
  completion: string;
  reward: number;
  step_reward: number;
  return: number;
  advantage_grpo: number;
  advantage_rloo: number;
  outcome: string;
  code: string;
}

/** `data_source` of an env's rows: verl picks the reward function by it. */
export function verlDataSource(envId: string): string {
  return `selfplay-arena/${envId}`;
}

/** The verl row of one record; `index` numbers the rows of the file, `params` is the env params' JSON. */
export function verlRow(r: RolloutRecord, envId: string, params: string, index: number): VerlRow {
  return {
    data_source: verlDataSource(envId),
    prompt: r.messages.map((m) => ({ content: m.content, role: m.role })),
    ability: r.role,
    reward_model: { ground_truth: r.completion, style: 'selfplay-arena' },
    extra_info: {
      index: BigInt(index),
      env: envId,
      params,
      params_hash: r.provenance.paramsHash,
      prompt_version: r.provenance.promptVersion,
      package_version: r.provenance.packageVersion,
      role: r.role,
      agent: r.agent,
      group: r.group,
      trajectory: r.trajectory,
      episode: BigInt(r.episode),
      member: BigInt(r.member),
      seed: BigInt(r.seed),
      seat: BigInt(r.seat),
      step: BigInt(r.step),
      try: r.try === null ? null : BigInt(r.try),
      completion: r.completion,
      reward: r.reward,
      step_reward: r.stepReward,
      return: r.return,
      advantage_grpo: r.advantage.grpo,
      advantage_rloo: r.advantage.rloo,
      outcome: r.outcome,
      code: r.code,
    },
  };
}

type Element = { name: string; type?: string; converted_type?: string; repetition_type?: string; num_children?: number };
const str = (name: string): Element => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' });
const i64 = (name: string, optional = false): Element => ({ name, type: 'INT64', repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' });
const f64 = (name: string): Element => ({ name, type: 'DOUBLE', repetition_type: 'REQUIRED' });

const EXTRA: Element[] = [
  i64('index'), str('env'), str('params'), str('params_hash'), str('prompt_version'), str('package_version'), str('role'), str('agent'), str('group'), str('trajectory'),
  i64('episode'), i64('member'), i64('seed'), i64('seat'), i64('step'), i64('try', true), str('completion'),
  f64('reward'), f64('step_reward'), f64('return'), f64('advantage_grpo'), f64('advantage_rloo'), str('outcome'), str('code'),
];

/** The file's Parquet schema (flattened, depth first), as pyarrow writes verl's columns. */
export const VERL_SCHEMA: readonly Element[] = [
  { name: 'root', num_children: 5 },
  str('data_source'),
  { name: 'prompt', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'REQUIRED', num_children: 2 },
  str('content'),
  str('role'),
  str('ability'),
  { name: 'reward_model', repetition_type: 'REQUIRED', num_children: 2 },
  str('ground_truth'),
  str('style'),
  { name: 'extra_info', repetition_type: 'REQUIRED', num_children: EXTRA.length },
  ...EXTRA,
];

const COLUMNS = ['data_source', 'prompt', 'ability', 'reward_model', 'extra_info'] as const;

/** A Parquet file written a group of rows at a time; `close` completes it (footer). */
export interface VerlFile {
  write(rows: readonly VerlRow[]): Promise<void>;
  close(): void;
}

interface WriterModule {
  fileWriter(filename: string): unknown;
  ParquetWriter: new (o: { writer: unknown; schema: readonly Element[]; createdBy?: string }) => {
    write(o: { columnData: { name: string; data: unknown[] }[]; rowGroupSize?: number }): void | Promise<void>;
    finish(): void;
  };
}

/** Opens `path` for verl rows (truncating it). */
export async function openVerlFile(path: string): Promise<VerlFile> {
  const lib = (await import('hyparquet-writer')) as unknown as WriterModule;
  const pw = new lib.ParquetWriter({ writer: lib.fileWriter(path), schema: VERL_SCHEMA, createdBy: 'selfplay-arena (hyparquet-writer)' });
  let closed = false;
  return {
    async write(rows) {
      if (!rows.length) return;
      // One row group per call (a played group of episodes).
      await pw.write({ columnData: COLUMNS.map((name) => ({ name, data: rows.map((r) => r[name]) })), rowGroupSize: rows.length });
    },
    close() {
      if (closed) return;
      closed = true;
      pw.finish();
    },
  };
}
