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
import { defaultRegistry } from '../../app/catalog';
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
    // readable answers only: an unreadable one is re-asked (agents/llm), which would shift the requests against the records
    server = await startMockOpenAI({ respond: () => ({ content: JSON.stringify({ action: ['100 * 5', '100 + 5', '100 - 5', '75 * 7 - 25'][n++ % 4] }) }) });
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
      expect(JSON.parse(records[i].completion).action).toBe(['100 * 5', '100 + 5', '100 - 5', '75 * 7 - 25'][i % 4]);
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
  // 3 challenger groups (its episodes of one seed) and 6 solver groups (its 4 attempts in each episode)
  expect(r.stderr).toMatch(/rollouts: \d+ decisions from 6 episodes in 3 groups of 2 \(seeds 3\.\.5\); 30 trajectories in 9 GRPO groups \(3\.3 per group\) -> /);
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
  const role = arena(['rollouts', 'deal-or-no-deal-v1', '--agents', 'random', '--roles', 'solver', '--episodes', '2', '--group-size', '2', '--out', join(dir, 'x.jsonl')]);
  expect(role.code).toBe(2);
  expect(role.stderr).toMatch(/^arena: --roles: "solver" is not a role of any seat of deal-or-no-deal-v1/);
  const file = arena(['rollouts', 'deal-or-no-deal-v1', '--agents', 'random', '--episodes', '2', '--group-size', '2', '--out', join(dir, 'no-such-dir', 'x.jsonl')]);
  expect(file.code).toBe(2);
  expect(file.stderr).toMatch(/^arena: --out: cannot write .*ENOENT/);
});

/** Countdown's greedy solver exploring (half its choices random): rewards differ between members. */
function explorer(seed: number): Agent {
  const env = defaultRegistry.env('countdown-v1');
  return defaultRegistry.agentFactory('greedy', env.meta.id).create({ env, params: env.resolveParams({}), seed, options: { epsilon: 0.5 } });
}

describe('GRPO groups are what was asked for (issue 28)', () => {
  test('Countdown with one attempt: the --group-size episodes of one seed form the group, and exploring play gives non-zero advantages', async () => {
    const env = defaultRegistry.env('countdown-v1');
    const params = env.resolveParams({});
    const records = await collect({ env, params, agents: [explorer(1)], groups: 2, groupSize: 4, seed: 1 });
    // one try per episode: each is a whole-episode trajectory of the seed's group, not a group of its own
    expect(new Set(records.map((r) => r.group))).toEqual(new Set(['g0:s0', 'g1:s0']));
    for (const g of ['g0:s0', 'g1:s0']) expect(new Set(records.filter((r) => r.group === g).map((r) => r.trajectory)).size).toBe(4);
    expect(records.some((r) => r.advantage.grpo !== 0)).toBe(true);
  });

  test('a first group that would hold one trajectory is refused before anything is handed over', async () => {
    const env = defaultRegistry.env('countdown-v1');
    const params = env.resolveParams({});
    const handed: RolloutRecord[] = [];
    await expect(collectRollouts({ env, params, agents: [explorer(1)], groups: 2, groupSize: 1, seed: 5 }, (r) => void handed.push(...r))).rejects.toThrow(
      /GRPO group g0:s0 \(role solver\) holds one trajectory.*use --group-size 2 or more, or params that give the solver several tries per episode/,
    );
    expect(handed).toEqual([]);
  });

  test('the CLI refuses groups of one with a one-line usage error and leaves no file', () => {
    const dond = join(dir, 'dond-1.jsonl');
    const before = arena(['rollouts', 'deal-or-no-deal-v1', '--agents', 'random', '--episodes', '4', '--out', dond]);
    expect(before.code).toBe(2);
    expect(before.stderr).toBe(
      'arena: --group-size 1: every GRPO group would hold one trajectory (advantage 0), since deal-or-no-deal-v1 has no tries within an episode; use --group-size 2 or more (episodes from one seed form a group)\n',
    );
    expect(existsSync(dond)).toBe(false);
    const cd = join(dir, 'cd-1.jsonl');
    const after = arena(['rollouts', 'countdown-v1', '--agents', 'exact-solver', '--episodes', '2', '--out', cd]);
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/^arena: --group-size 1: GRPO group g0:s0 \(role solver\) holds one trajectory, so its advantage is 0; use --group-size 2 or more[^\n]*\n$/);
    expect(existsSync(cd)).toBe(false);
    // several attempts make real groups at --group-size 1
    const tries = arena(['rollouts', 'countdown-v1', '--params', '{"attempts":3}', '--agents', 'greedy:{"epsilon":0.5}', '--episodes', '2', '--out', cd]);
    expect(tries.code).toBe(0);
    expect(tries.stderr).toMatch(/6 trajectories in 2 GRPO groups \(3 per group\)/);
  });
});

test('episodes that fail are loud, and a run that records nothing exits 1 saying why', () => {
  const out = join(dir, 'forfeit.jsonl');
  const r = arena(['rollouts', 'countdown-v1', '--params', '{"attempts":2}', '--agents', 'random-valid', '--episodes', '2', '--out', out]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('rollouts: 2 of 2 episodes did not end normally (first: forfeit, seat 0: random-valid plays the challenger role only (asked to play solver))');
  expect(r.stderr).toContain('arena: rollouts: no decision was recorded (see the line above for why)');
});
