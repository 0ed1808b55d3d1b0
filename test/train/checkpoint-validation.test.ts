/**
 * Issue 15 item 7: checkpoints are validated on load (finite weights, the env, roles and
 * shapes they were made for) with one-line errors, and training stops on a non-finite loss
 * with a clear error, keeping the last good checkpoint.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../cli/helpers';
import { CheckpointError, loadCheckpoint, parseCheckpoint, saveCheckpoint } from '../../src/train/checkpoint';

const RPS = './examples/rock-paper-scissors.js';
const CONFIG = JSON.stringify({ episodesPerIteration: 8, hidden: [8], evalEvery: 0, checkpointEvery: 1 });

let dir: string;
let ckptFile: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-ckpt-valid-'));
  const r = arena(['train', RPS, '--iterations', '2', '--backend', 'cpu', '--config', CONFIG, '--out', join(dir, 'rps'), '--quiet']);
  if (r.code !== 0) throw new Error(r.stderr);
  ckptFile = join(dir, 'rps', 'checkpoints', 'player-2.json');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The checkpoint's JSON with `edit` applied, written to a new file. */
function edited(name: string, edit: (doc: Record<string, unknown>) => void): string {
  const doc = JSON.parse(readFileSync(ckptFile, 'utf8')) as Record<string, unknown>;
  edit(doc);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('checkpoint validation', () => {
  test('NaN weights are refused on load, naming the tensor and what to do', () => {
    const c = loadCheckpoint(ckptFile);
    c.weights.params[1][0] = NaN;
    const file = join(dir, 'nan.json');
    saveCheckpoint(file, c);
    expect(() => loadCheckpoint(file)).toThrow(CheckpointError);
    expect(() => loadCheckpoint(file)).toThrow(/weight tensor 1: 1 of \d+ values are not finite \(NaN or Infinity\).*use an earlier checkpoint/);
    const play = arena(['play', RPS, '--agents', `neural:{"checkpoint":"${file}"},random`]);
    expect(play.code).toBe(2);
    expect(play.stderr).toMatch(/^arena: .*nan\.json: weight tensor 1: 1 of \d+ values are not finite/);
    expect(play.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('a NaN checkpoint no longer resumes "successfully"', () => {
    const out = join(dir, 'resume-nan');
    expect(arena(['train', RPS, '--iterations', '1', '--backend', 'cpu', '--config', CONFIG, '--out', out, '--quiet']).code).toBe(0);
    const c = loadCheckpoint(join(out, 'checkpoints', 'player-1.json'));
    c.weights.params[0].fill(NaN);
    saveCheckpoint(join(out, 'checkpoints', 'player-1.json'), c);
    const r = arena(['train', RPS, '--iterations', '3', '--backend', 'cpu', '--out', out, '--resume', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^arena: .*player-1\.json: weight tensor 0: \d+ of \d+ values are not finite/);
  });

  test('a checkpoint from another env fails with a clear message, not a RangeError', () => {
    const play = arena(['play', 'deal-or-no-deal-v1', '--agents', `neural:{"checkpoint":"${ckptFile}"},random`]);
    expect(play.code).toBe(2);
    expect(play.stderr).toBe('arena: the network was trained on rock-paper-scissors-v1, not deal-or-no-deal-v1\n');
    // a run folder whose checkpoint was replaced by another network (other hidden sizes)
    const out = join(dir, 'swapped');
    expect(arena(['train', RPS, '--iterations', '1', '--backend', 'cpu', '--config', CONFIG, '--out', out, '--quiet']).code).toBe(0);
    const other = join(dir, 'other');
    expect(arena(['train', RPS, '--iterations', '1', '--backend', 'cpu', '--config', JSON.stringify({ ...JSON.parse(CONFIG), hidden: [4, 4] }), '--out', other, '--quiet']).code).toBe(0);
    writeFileSync(join(out, 'checkpoints', 'player-1.json'), readFileSync(join(other, 'checkpoints', 'player-1.json')));
    const r = arena(['train', RPS, '--iterations', '2', '--backend', 'cpu', '--out', out, '--resume', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^arena: .*player-1\.json holds a network for rock-paper-scissors-v1 player \(\d+ inputs, hidden \[4, 4\].*but this run's learner is rock-paper-scissors-v1 player \(\d+ inputs, hidden \[8\]/);
    expect(r.stderr).not.toMatch(/RangeError/);
  });

  test('roles, layout and shapes are checked', () => {
    const roles = edited('roles.json', (d) => {
      (d.layout as { roles: string[] }).roles = ['goalie'];
      d.roles = ['goalie'];
    });
    const r = arena(['play', RPS, '--agents', `neural:{"checkpoint":"${roles}"},random`]);
    expect(r.stderr).toBe('arena: the network plays goalie, which rock-paper-scissors-v1 does not have (roles: player)\n');
    const text = readFileSync(ckptFile, 'utf8');
    const doc = JSON.parse(text) as { spec: { inputSize: number }; layout: { obsSize: number } };
    expect(() => parseCheckpoint(JSON.stringify({ ...doc, spec: { ...doc.spec, inputSize: doc.spec.inputSize + 1 } }), 'x.json')).toThrow(
      `x.json: the network takes ${doc.spec.inputSize + 1} inputs but its layout needs ${doc.spec.inputSize}`,
    );
    expect(() => parseCheckpoint(JSON.stringify({ ...doc, layout: { ...doc.layout, obsSize: 'many' } }), 'x.json')).toThrow('x.json: layout.obsSize must be a positive integer');
    expect(() => parseCheckpoint(JSON.stringify({ ...doc, step: -1 }), 'x.json')).toThrow('x.json: step and updates must be non-negative integers');
  });
});

describe('divergence', () => {
  test('a non-finite loss stops training with a clear error; the last good checkpoint stays and loads', () => {
    const out = join(dir, 'diverge');
    const r = arena(['train', './test/train/fixtures/exploding-bandit.js', '--iterations', '30', '--backend', 'cpu', '--seed', '2', '--config', CONFIG, '--out', out, '--quiet']);
    expect(r.code).toBe(1);
    const m = /^arena: training stopped: learner agent's loss \(NaN\) became non-finite in iteration (\d+) \(.*\); the last good checkpoint is (\S+) \(iteration (\d+)\)\n$/.exec(r.stderr);
    expect(m).not.toBeNull();
    const [, bad, file, good] = m!;
    expect(Number(good)).toBe(Number(bad) - 1);
    expect(Number(good)).toBeGreaterThan(0);
    expect(loadCheckpoint(file).step).toBe(Number(good)); // finite (loading checks it)
    expect(existsSync(join(out, 'checkpoints', `agent-${bad}.json`))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'state.json'), 'utf8')).iteration).toBe(Number(good));
  });
});
