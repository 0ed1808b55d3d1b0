/**
 * Timing "table": schedules looked up in the recorded table of measured schedule timings (no
 * effect, no sandbox), the params it needs, and `arena train kernel-speedup-v1 --roles defender`
 * over the schedule action space (the CLI, built dist/).
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { make } from '../../../app/catalog';
import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';
import { runMatch } from '../../../src/match/runner';
import { scriptedAgent } from '../../../agents/scripted';
import { kernelTasks, legalScheduleIndices, logSpeedupReward, scheduleTable, tableSpeedup, tierReward, type KernelObservation, type KernelState } from '../../../envs/kernel-speedup';
import { arena, jsonLines } from '../../cli/helpers';

const TABLE = { timing: 'table', candidates: 'schedule', attacker: false, evaluator: false };

describe('the recorded table', () => {
  test('covers every legal schedule of every task on every timing shape, with lo ≤ speedup ≤ hi', () => {
    const table = scheduleTable();
    expect(table.note).toMatch(/full protocol/);
    for (const task of kernelTasks) {
      const rows = table.tasks[task.id];
      expect(rows.map((r) => r.shapeIndex)).toEqual(task.timingShapes.map((_, i) => i));
      for (const row of rows) {
        expect(row.dims).toEqual(task.timingShapes[row.shapeIndex]);
        expect(row.schedules.map((s) => s[0])).toEqual([...legalScheduleIndices(task)]);
        for (const [, s, lo, hi] of row.schedules) expect(lo <= s && s <= hi && lo > 0).toBe(true);
        expect(row.expert.speedup).toBeGreaterThan(0);
      }
    }
  });
});

describe('kernel-speedup-v1 with timing "table"', () => {
  test.each([{ ...TABLE }, { ...TABLE, evaluator: true, revisions: 3, reward: 'log-speedup' }])('%j passes the kit (no effects)', (params) => {
    const { env } = make('kernel-speedup-v1', params);
    const report = checkEnv(env, { params, episodes: 16 });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'capabilities')!.notes![0]).toMatch(/, 0 effects/);
  });

  test('a revision is its table entry: rewards by hand from the recorded interval', async () => {
    const { env, params } = make('kernel-speedup-v1', { ...TABLE, task: 'matmul', shape: 1, revisions: 2 });
    let k = 0;
    const seen: KernelObservation[] = [];
    const defender = scriptedAgent('d', (o: KernelObservation) => {
      seen.push(o);
      return [75, 26][k++];
    });
    const r = await runMatch({ env, params, seed: 3, agents: [defender] });
    const s = r.finalState as KernelState;
    const entry = tableSpeedup('matmul', 1, 26)!;
    const m = s.revisions[1].measurement!;
    expect(m).toMatchObject({ code: 'ok', flags: ['table'], timing: { speedup: entry.speedup, lo: entry.lo, hi: entry.hi } });
    expect(r.returns).toEqual([tierReward(m, 0.1)]);
    // the defender saw its first revision's table entry before its second
    expect(seen[1].revisions[0].measurement!.timing!.speedup).toBe(tableSpeedup('matmul', 1, 75)!.speedup);
    expect(r.rewards.map((x) => x.value)).toEqual([tierReward(s.revisions[0].measurement!, 0.1), tierReward(m, 0.1)]);
    expect(logSpeedupReward(m)).toBeCloseTo(entry.lo > 1 ? Math.log(entry.lo) : 0, 12);
  });

  test('the params a table needs are checked, naming the field', () => {
    expect(() => make('kernel-speedup-v1', { timing: 'table' })).toThrow(/param "candidates" must be "schedule" with timing "table"/);
    expect(() => make('kernel-speedup-v1', { ...TABLE, attacker: true })).toThrow(/param "attacker" must be false with timing "table"/);
    expect(() => make('kernel-speedup-v1', { ...TABLE, shapes: 'held-out' })).toThrow(/param "shapes" must be "timing"/);
    expect(() => make('kernel-speedup-v1', { shape: 1 })).toThrow(/param "shape" needs a "task"/);
    expect(() => make('kernel-speedup-v1', { task: 'sum', shapes: 'held-out', shape: 2 })).toThrow(/param "shape" must be below 2 for task "sum"/);
    expect(() => make('kernel-speedup-v1', { task: 'nope' })).toThrow(/param "task"/);
  });
});

describe('arena train kernel-speedup-v1 --roles defender', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-ks-train-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('trains over the schedule action space against the table; the checkpoint plays one-shot schedules', () => {
    if (!existsSync(join(__dirname, '..', '..', '..', 'dist', 'app', 'cli', 'main.js'))) throw new Error('run npm run build first (the CLI tests use dist/)');
    const params = JSON.stringify({ ...TABLE, revisions: 1, reward: 'log-speedup' });
    const config = JSON.stringify({ algorithm: 'grpo', groupSize: 4, episodesPerIteration: 16, hidden: [16], evalEvery: 0 });
    const out = join(dir, 'run');
    const r = arena(['train', 'kernel-speedup-v1', '--roles', 'defender', '--iterations', '2', '--params', params, '--config', config, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout) as { iteration: number; learners: { defender: { update: { entropy: number } } } }[];
    expect(lines.map((l) => l.iteration)).toEqual([1, 2]);
    expect(lines[1].learners.defender.update.entropy).toBeGreaterThan(0);
    const ckpt = join(out, 'checkpoints', 'defender-latest.json');
    const play = arena(['play', 'kernel-speedup-v1', '--params', params, '--agents', `neural:{"checkpoint":"${ckpt}"}`, '--episodes', '3', '--json']);
    expect(play.code).toBe(0);
    const episodes = (jsonLines(play.stdout) as { episode?: number; summary: { final: string; code: string } }[]).filter((e) => e.episode !== undefined);
    expect(episodes).toHaveLength(3);
    for (const e of episodes) expect(e.summary).toMatchObject({ final: expect.stringMatching(/^schedule \d+$/), code: 'ok' });
  });
});
