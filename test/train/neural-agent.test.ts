import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { neuralAgent, parseNeuralOptions } from '../../src/train/neural-agent';
import { runMatch } from '../../src/match/runner';
import { saveCheckpoint } from '../../src/train/checkpoint';
import { initMlp } from '../../src/train/mlp';
import { fixtureEnv } from './fixtures/load';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-neural-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rps = fixtureEnv('rps');
const params = rps.resolveParams({ rounds: 5 });

function writeRpsCheckpoint(name: string, favourite: number): string {
  const weights = initMlp({ inputSize: 6, hidden: [8], outputSize: 4, activation: 'relu' }, 1, 0);
  weights.params[3][favourite] = 5; // output bias: a strong preference, still not certain
  const file = join(dir, name);
  saveCheckpoint(file, { id: 'player', layout: { env: 'rock-paper-scissors-v1', roles: ['player'], roleInput: false, obsSize: 6, numActions: 3 }, weights, step: 3, updates: 9 });
  return file;
}

describe('neural agent', () => {
  test('greedy: always the favourite action; it plays any seat of its role', async () => {
    const file = writeRpsCheckpoint('paper.json', 1);
    const a = neuralAgent.create({ env: rps, params, seed: 0, options: { checkpoint: file } });
    const b = neuralAgent.create({ env: rps, params, seed: 1, options: { checkpoint: writeRpsCheckpoint('rock.json', 0) } });
    expect(a.name).toBe('neural(player@3)');
    const r = await runMatch({ env: rps, params, seed: 1, agents: [a, b] });
    expect(r.code).toBe('ok');
    expect(r.summary).toEqual({ score: [5, 0], history: Array(5).fill(['paper', 'rock']) });
    const swapped = await runMatch({ env: rps, params, seed: 1, agents: [b, a] });
    expect(swapped.returns).toEqual([-1, 1]);
  });

  test('sample mode uses the seat rng: reproducible, and it explores', async () => {
    const file = writeRpsCheckpoint('soft.json', 2);
    const opts = { checkpoint: file, mode: 'sample', temperature: 5 };
    const mk = () => neuralAgent.create({ env: rps, params: rps.resolveParams({ rounds: 40 }), seed: 0, options: opts });
    const p40 = rps.resolveParams({ rounds: 40 });
    const r1 = await runMatch({ env: rps, params: p40, seed: 7, agents: [mk(), mk()] });
    const r2 = await runMatch({ env: rps, params: p40, seed: 7, agents: [mk(), mk()] });
    expect(r2.finalState).toEqual(r1.finalState);
    const moves = new Set((r1.finalState as { history: number[][] }).history.map((m) => m[0]));
    expect(moves.size).toBeGreaterThan(1);
  });

  test('options are checked with clear messages', () => {
    expect(() => parseNeuralOptions({})).toThrow(/option "checkpoint".*is required/);
    expect(() => parseNeuralOptions({ checkpoint: 'x', mode: 'best' })).toThrow(/"mode" must be "greedy" or "sample"/);
    expect(() => parseNeuralOptions({ checkpoint: 'x', temperature: 0 })).toThrow(/"temperature" must be a positive number/);
  });

  test('a checkpoint of another env or role is refused', async () => {
    const file = writeRpsCheckpoint('rps.json', 0);
    const bandit = fixtureEnv('bandit-env');
    expect(() => neuralAgent.create({ env: bandit, params: {}, seed: 0, options: { checkpoint: file } })).toThrow(/trained on rock-paper-scissors-v1, not bandit-v1/);
    const teams = fixtureEnv('teams-env');
    const weights = initMlp({ inputSize: 3, hidden: [2], outputSize: 3, activation: 'relu' }, 1);
    const redFile = join(dir, 'red.json');
    saveCheckpoint(redFile, { id: 'red', layout: { env: 'teams-v1', roles: ['red'], roleInput: false, obsSize: 3, numActions: 2 }, weights, step: 0, updates: 0 });
    const red = () => neuralAgent.create({ env: teams, params: {}, seed: 0, options: { checkpoint: redFile } });
    const r = await runMatch({ env: teams, params: {}, seed: 0, agents: [red(), red(), red()] });
    expect(r.code).toBe('forfeit');
    expect(r.faults[0].reason).toMatch(/plays red, not "blue"/);
  });
});
