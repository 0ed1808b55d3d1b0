/**
 * `arena rollouts` and collectRollouts: records per decision with messages and completions
 * (LLM seats: their real conversation; scripted seats: the text-player conversation), groups
 * that share a start state, advantages, and the Python snippet of docs/rollouts.md run with
 * Debian's python3 on a file the CLI wrote.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRegistry } from '../../src/catalog';
import type { Agent } from '../../src/core/agent';
import { collectRollouts, type RolloutRecord } from '../../src/rollouts/collect';
import { startMockOpenAI, type MockOpenAI } from '../../agents/llm/mock-server';
import { llm, scripted } from '../agents/llm/helpers';
import { ROOT, arena } from '../cli/helpers';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-rollouts-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(o: Parameters<typeof collectRollouts>[0]): Promise<RolloutRecord[]> {
  const out: RolloutRecord[] = [];
  await collectRollouts(o, (records) => void out.push(...records));
  return out;
}

test('Deal-or-No-Deal, groups of 4 from one seed: same start, different play, advantages centred per group', async () => {
  const env = defaultRegistry.env('deal-or-no-deal-v1');
  const params = env.resolveParams({});
  const records = await collect({ env, params, agents: [scripted(env.meta.id, {}, 'random', 1), scripted(env.meta.id, {}, 'random', 2)], groups: 3, groupSize: 4, seed: 10 });
  expect(new Set(records.map((r) => r.group))).toEqual(new Set(['g0:s0', 'g0:s1', 'g1:s0', 'g1:s1', 'g2:s0', 'g2:s1']));
  for (const r of records) {
    expect(r.seed).toBe(10 + Math.floor(r.episode / 4));
    expect(r.member).toBe(r.episode % 4);
    expect(r.messages[0].role).toBe('system');
    expect(r.messages[r.messages.length - 1].role).toBe('user');
    expect(JSON.parse(r.completion).action).toMatch(/^(agree|keep \d books?, \d hats? and \d balls?)$/);
    expect(r.reward).toBe(r.return);
  }
  // the members of a group start from the same deal (the first prompt of seat 0 is the same) but play differently
  const firstPrompts = records.filter((r) => r.group === 'g0:s0' && r.step === 0).map((r) => r.messages[1].content);
  expect(firstPrompts).toHaveLength(4);
  expect(new Set(firstPrompts).size).toBe(1);
  const plays = new Set([0, 1, 2, 3].map((e) => JSON.stringify(records.filter((r) => r.episode === e).map((r) => r.action))));
  expect(plays.size).toBeGreaterThan(1);
  // GRPO: one advantage per trajectory, mean 0 within each group where returns differ
  for (const g of new Set(records.map((r) => r.group))) {
    const per = new Map(records.filter((r) => r.group === g).map((r) => [r.trajectory, r]));
    const returns = [...per.values()].map((r) => r.reward);
    const adv = [...per.values()].map((r) => r.advantage.grpo);
    expect(Math.abs(adv.reduce((s, x) => s + x, 0))).toBeLessThan(1e-9);
    const mean = returns.reduce((s, x) => s + x, 0) / returns.length;
    for (const r of per.values()) expect(r.advantage.rloo).toBeCloseTo(((r.reward - mean) * returns.length) / (returns.length - 1), 9);
  }
});

describe('an LLM solver on Countdown', () => {
  let server: MockOpenAI;
  beforeAll(async () => {
    let n = 0;
    server = await startMockOpenAI({ respond: () => ({ content: JSON.stringify({ action: ['100 * 5', '100 + 5', 'nonsense', '75 * 7 - 25'][n++ % 4] }) }) });
  });
  afterAll(() => server.close());

  test('the solver\'s K attempts form one group; messages and completions are the LLM\'s own', async () => {
    const env = defaultRegistry.env('countdown-v1');
    const raw = { roles: 'challenger-solver', attempts: 4 };
    const params = env.resolveParams(raw);
    const challenger: Agent = { name: 'fixed', act: () => ({ numbers: [100, 75, 25, 2, 5, 7], target: 500 }) };
    const records = await collect({ env, params, agents: [challenger, llm(env.meta.id, raw, { baseURL: server.baseURL })], groups: 2, groupSize: 1, seed: 0, roles: ['solver'] });
    expect(records.map((r) => r.role)).toEqual(Array(8).fill('solver'));
    expect(records.map((r) => r.group)).toEqual([...Array(4).fill('e0:s1'), ...Array(4).fill('e1:s1')]);
    expect(records.map((r) => r.try)).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    expect(records.map((r) => r.reward)).toEqual([10, 0, 0, 10, 10, 0, 0, 10]);
    expect(records.every((r) => r.stepReward === r.reward)).toBe(true);
    // the messages are exactly what the server received for that decision, the completion what it answered
    server.requests.forEach((req, i) => {
      expect(records[i].messages).toEqual(req.messages);
      expect(JSON.parse(records[i].completion).action).toBe(['100 * 5', '100 + 5', 'nonsense', '75 * 7 - 25'][i % 4]);
    });
    expect(records[0].snapshot).toBe(`mock-model @ ${server.baseURL}`);
    expect(records[0].llm).toEqual({ attempts: 1, ok: true });
    const adv = records.slice(0, 4).map((r) => r.advantage.rloo);
    expect(adv[0]).toBeCloseTo(10 - 10 / 3, 9);
    expect(adv[2]).toBeCloseTo(0 - 20 / 3, 9);
  });
});

test('the CLI writes the file; the Python snippet of docs/rollouts.md loads it with Debian\'s python3', () => {
  const out = join(dir, 'cd.jsonl');
  const r = arena(['rollouts', 'countdown-v1', '--params', '{"roles":"challenger-solver","attempts":4}', '--agents', 'random-valid,greedy:{"epsilon":0.5}', '--episodes', '6', '--group-size', '2', '--seed', '3', '--out', out]);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/rollouts: \d+ decisions from 6 episodes in 3 groups -> /);
  const records = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RolloutRecord);
  const solver = records.filter((x) => x.role === 'solver');
  expect(solver.length).toBeGreaterThanOrEqual(6 * 4);
  const doc = readFileSync(join(ROOT, 'docs', 'rollouts.md'), 'utf8');
  const snippet = /```python\n([\s\S]*?)```/.exec(doc)![1];
  const file = join(dir, 'load_rollouts.py');
  writeFileSync(file, snippet);
  const python = '/usr/bin/python3';
  if (!existsSync(python)) throw new Error('Debian python3 is required (apt-get install python3)');
  const py = spawnSync(python, [file, out, 'solver'], { encoding: 'utf8' });
  expect(py.stderr).toBe('');
  const summary = JSON.parse(py.stdout) as { rows: number; trajectories: number; groups: number; max_abs_group_mean: number };
  expect(summary.rows).toBe(solver.length);
  expect(summary.trajectories).toBe(new Set(solver.map((x) => x.trajectory)).size);
  expect(summary.groups).toBe(6);
  expect(summary.max_abs_group_mean).toBeLessThan(1e-9);
});

test('bad arguments are one-line usage errors', () => {
  const multiple = arena(['rollouts', 'deal-or-no-deal-v1', '--agents', 'random', '--episodes', '5', '--group-size', '2', '--out', join(dir, 'x.jsonl')]);
  expect(multiple.code).toBe(2);
  expect(multiple.stderr).toBe('arena: --episodes: 5 is not a multiple of --group-size 2\n');
  const role = arena(['rollouts', 'deal-or-no-deal-v1', '--agents', 'random', '--roles', 'solver', '--out', join(dir, 'x.jsonl')]);
  expect(role.code).toBe(2);
  expect(role.stderr).toMatch(/^arena: --roles: "solver" is not a role of any seat of deal-or-no-deal-v1/);
  const file = arena(['rollouts', 'deal-or-no-deal-v1', '--agents', 'random', '--out', join(dir, 'no-such-dir', 'x.jsonl')]);
  expect(file.code).toBe(2);
  expect(file.stderr).toMatch(/^arena: --out: cannot write .*ENOENT/);
});
