import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena, jsonLines } from '../cli/helpers';

const RPS = './examples/rock-paper-scissors.js';
const CONFIG = JSON.stringify({ episodesPerIteration: 16, hidden: [8], evalEvery: 2, evalEpisodes: 6, baselines: ['random', 'counter-last'], checkpointEvery: 2 });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-train-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arena train', () => {
  test('trains, prints the backend first, writes metrics, checkpoints and state; resumes; neural plays', () => {
    const out = join(dir, 'run');
    const r = arena(['train', RPS, '--iterations', '2', '--config', CONFIG, '--out', out, '--json', '--params', '{"rounds":2}']);
    expect(r.stderr).toMatch(/^backend: (tfjs-node-gpu|tfjs-node|wasm|cpu)/);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.iteration)).toEqual([1, 2]);
    const m = lines[1] as { learners: { player: { meanReturn: { player: number }; update: { entropy: number; approxKl: number; loss: number } } }; eval: { player: Record<string, unknown> }; episodesPerSec: number; samplesPerSec: number };
    expect(Object.keys(m.eval.player)).toEqual(['random', 'counter-last']);
    expect(m.learners.player.update.entropy).toBeGreaterThan(1);
    for (const k of ['episodesPerSec', 'samplesPerSec'] as const) expect(m[k]).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/eval player vs counter-last: return -?\d/);
    for (const f of ['metrics.jsonl', 'metrics.csv', 'state.json', 'checkpoints/player-2.json', 'checkpoints/player-latest.json']) expect(existsSync(join(out, f))).toBe(true);
    const csv = readFileSync(join(out, 'metrics.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toMatch(/learners\.player\.meanReturn\.player/);
    expect(csv[0]).toMatch(/eval\.player\.counter-last\.winRate/);

    expect(r.stderr).toMatch(/; 16 episodes in lockstep;/);
    expect(r.stderr).not.toMatch(/Warning/); // 16 lanes' decisions listen to the stop signal through one listener
    // speed only, so a resumed run may change it
    const resumed = arena(['train', RPS, '--iterations', '3', '--out', out, '--resume', '--params', '{"rounds":2}', '--envs-per-batch', '3']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/; 3 episodes in lockstep;/);
    expect(resumed.stderr).toMatch(/resumed .* after 2 iterations/);
    expect(resumed.stderr).toMatch(/iter 3 /);
    expect(existsSync(join(out, 'checkpoints/player-3.json'))).toBe(true);

    const ckpt = join(out, 'checkpoints', 'player-latest.json');
    const play = arena(['play', RPS, '--agents', `neural:{"checkpoint":"${ckpt}"},counter-last`, '--episodes', '2', '--json']);
    expect(play.code).toBe(0);
    expect(jsonLines(play.stdout)[0].agents).toEqual(['neural(player@3)', 'counter-last']);
  });

  test('a backend that cannot load is named with the reason (exit 2)', () => {
    let installed = true;
    try {
      require.resolve('@tensorflow/tfjs-node');
    } catch {
      installed = false;
    }
    if (installed) return; // nothing to refuse on a machine that has it
    const r = arena(['train', RPS, '--iterations', '1', '--backend', 'tfjs-node']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--backend tfjs-node is not available: package @tensorflow\/tfjs-node is not installed/);
    const list = arena(['train', RPS, '--backend', 'list']);
    expect(list.stdout).toMatch(/^tfjs-node-gpu: (available|unavailable \(.+\))$/m);
    expect(list.stdout).toMatch(/^webgpu: (available|unavailable \(.+\))$/m);
    expect(list.stdout).toMatch(/^cpu: available$/m);
  });

  test('bad options are one-line errors naming the field', () => {
    const bad = arena(['train', RPS, '--config', '{"lr":-1}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/training config: lr:/);
    const roles = arena(['train', RPS, '--roles', 'goalie']);
    expect(roles.code).toBe(2);
    expect(roles.stderr).toMatch(/unknown role or team "goalie" \(known roles: player\)/);
    const opp = arena(['train', RPS, '--opponents', 'league']);
    expect(opp.stderr).toMatch(/--opponents: expected self, baselines, checkpoints/);
    const be = arena(['train', RPS, '--backend', 'tpu']);
    expect(be.stderr).toMatch(/--backend: expected one of tfjs-node-gpu, webgpu, tfjs-node, wasm, cpu/);
    for (const e of ['0', '4097', 'x']) {
      const lanes = arena(['train', RPS, '--envs-per-batch', e]);
      expect(lanes.code).toBe(2);
      expect(lanes.stderr.trim().split('\n')).toHaveLength(1);
      expect(lanes.stderr).toMatch(/--envs-per-batch: expected/);
    }
  });
});
