/**
 * `arena rollouts --format verl` (issue 28): a Parquet file in the schema verl reads —
 * data_source (string), prompt (list of {content, role}), ability (string), reward_model
 * ({ground_truth, style}), extra_info (struct) — one row group per played group, read back with
 * hyparquet (the writer's own reader; Debian has no python3-pyarrow). The rows carry the same
 * decisions, rewards and advantages as the JSONL file of the same run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RolloutRecord } from '../../src/rollouts/collect';
import { ROOT, arena } from '../cli/helpers';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-verl-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Node = { name: string; type: string | null; converted: string | null; repetition: string | null; children: Node[] };
type Row = {
  data_source: string;
  prompt: { content: string; role: string }[];
  ability: string;
  reward_model: { ground_truth: string; style: string };
  extra_info: Record<string, unknown>;
};

function read(file: string): { rowGroups: number; schema: Node; rows: Row[] } {
  const r = spawnSync(process.execPath, [join(ROOT, 'test', 'fixtures', 'read-parquet.mjs'), file], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { rowGroups: number; schema: Node; rows: Row[] };
}

const shape = (n: Node): unknown => (n.children.length ? { [n.name]: n.children.map(shape) } : `${n.name}:${n.converted ?? n.type}`);

test('the verl file: verl\'s columns, one row group per group, the same decisions as the JSONL file', () => {
  const args = ['rollouts', 'countdown-v1', '--agents', 'greedy:{"epsilon":0.5}', '--episodes', '8', '--group-size', '4', '--seed', '1'];
  const parquet = join(dir, 'cd.parquet');
  const jsonl = join(dir, 'cd.jsonl');
  const v = arena([...args, '--format', 'verl', '--out', parquet]);
  expect(v.code).toBe(0);
  expect(v.stderr).toMatch(/-> .*cd\.parquet/);
  expect(arena([...args, '--out', jsonl]).code).toBe(0);
  const records = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RolloutRecord);
  const file = read(parquet);
  expect(file.rowGroups).toBe(2);
  const top = file.schema.children.map((c) => c.name);
  expect(top).toEqual(['data_source', 'prompt', 'ability', 'reward_model', 'extra_info']);
  // prompt: a LIST of structs {content, role}, as pyarrow writes a list of chat messages
  const prompt = file.schema.children[1];
  expect(prompt.converted).toBe('LIST');
  expect(shape(prompt)).toEqual({ prompt: [{ list: [{ element: ['content:UTF8', 'role:UTF8'] }] }] });
  expect(shape(file.schema.children[3])).toEqual({ reward_model: ['ground_truth:UTF8', 'style:UTF8'] });
  expect(file.rows).toHaveLength(records.length);
  file.rows.forEach((row, i) => {
    const r = records[i];
    expect(row.data_source).toBe('selfplay-arena/countdown-v1');
    expect(row.prompt).toEqual(r.messages);
    expect(row.ability).toBe('solver');
    expect(row.reward_model).toEqual({ ground_truth: r.completion, style: 'selfplay-arena' });
    expect(row.extra_info).toMatchObject({
      index: i,
      env: 'countdown-v1',
      group: r.group,
      trajectory: r.trajectory,
      episode: r.episode,
      seed: r.seed,
      step: r.step,
      try: r.try,
      reward: r.reward,
      advantage_grpo: r.advantage.grpo,
      advantage_rloo: r.advantage.rloo,
      params_hash: r.provenance.paramsHash,
      prompt_version: r.provenance.promptVersion,
      package_version: r.provenance.packageVersion,
    });
    // every row the CLI writes says how it was made
    expect(r.provenance).toEqual({ env: 'countdown-v1', paramsHash: expect.stringMatching(/^sha256:[0-9a-f]{16}$/), promptVersion: expect.any(String), packageVersion: VERSION });
    expect(r.provenance.promptVersion).not.toBe('');
    expect(JSON.parse(row.extra_info.params as string)).toMatchObject({ rules: 'uk' });
  });
  expect(file.rows.some((row) => row.extra_info.advantage_grpo !== 0)).toBe(true);
});

test('--format: unknown names and a verl file on stdout are one-line usage errors', () => {
  const bad = arena(['rollouts', 'countdown-v1', '--agents', 'greedy', '--episodes', '2', '--group-size', '2', '--format', 'csv', '--out', join(dir, 'x')]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toBe('arena: --format: "csv" is not one of jsonl, verl\n');
  const stdout = arena(['rollouts', 'countdown-v1', '--agents', 'greedy', '--episodes', '2', '--group-size', '2', '--format', 'verl', '--out', '-']);
  expect(stdout.code).toBe(2);
  expect(stdout.stderr).toBe('arena: --out: --format verl writes a Parquet file; give a file name (stdout takes JSON lines only)\n');
  const nowhere = arena(['rollouts', 'countdown-v1', '--agents', 'greedy', '--episodes', '2', '--group-size', '2', '--format', 'verl', '--out', join(dir, 'no-such-dir', 'x.parquet')]);
  expect(nowhere.code).toBe(2);
  expect(nowhere.stderr).toMatch(/^arena: --out: cannot write .*ENOENT\)\n$/);
  expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
});
