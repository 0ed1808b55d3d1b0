import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../app/catalog';
import type { Env } from '../../src/core/env';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { CheckpointError, loadCheckpoint, parseCheckpoint, saveCheckpoint, serializeCheckpoint, type Checkpoint } from '../../src/train/checkpoint';
import { resolveConfig } from '../../src/train/config';
import { initMlp } from '../../src/train/mlp';
import { checkpointFile } from '../../src/train/run-state';
import { Trainer, type TrainerOptions } from '../../src/train/trainer';

let backend: BackendChoice;
let dir: string;
beforeAll(async () => {
  backend = await selectBackend();
  dir = mkdtempSync(join(tmpdir(), 'arena-ckpt-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sample(): Checkpoint {
  const weights = initMlp({ inputSize: 3, hidden: [4], outputSize: 3, activation: 'relu' }, 9);
  weights.params[0][0] = -0; // signed zero and odd values survive
  weights.params[1][1] = 1.0000001192092896;
  return {
    id: 'red+blue',
    layout: { env: 'teams-v1', roles: ['red', 'blue'], roleInput: true, obsSize: 1, numActions: 2 },
    weights,
    step: 7,
    updates: 21,
    optimizer: { step: 21, m: weights.params.map((p) => p.map((x) => x / 3)), v: weights.params.map((p) => p.map((x) => x * x)) },
    params: { rounds: 3 },
    config: { lr: 0.001 },
  };
}

describe('checkpoint files', () => {
  test('save then load gives back the same bits, layout, step and optimizer state', () => {
    const c = sample();
    const file = join(dir, 'sub', 'a.json');
    saveCheckpoint(file, c);
    const back = loadCheckpoint(file);
    expect(back.id).toBe('red+blue');
    expect(back.step).toBe(7);
    expect(back.updates).toBe(21);
    expect(back.layout).toEqual(c.layout);
    expect(back.weights.spec).toEqual(c.weights.spec);
    back.weights.params.forEach((p, i) => expect(Buffer.from(p.buffer).equals(Buffer.from(c.weights.params[i].buffer))).toBe(true));
    expect(Object.is(back.weights.params[0][0], -0)).toBe(true);
    expect(back.optimizer!.step).toBe(21);
    back.optimizer!.v.forEach((p, i) => expect(Array.from(p)).toEqual(Array.from(c.optimizer!.v[i])));
    expect(back.params).toEqual({ rounds: 3 });
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(doc.env).toBe('teams-v1');
    expect(doc.roles).toEqual(['red', 'blue']);
  });

  test('broken files are named errors', () => {
    expect(() => parseCheckpoint('{', 'x.json')).toThrow(CheckpointError);
    expect(() => parseCheckpoint('{"format":"other"}', 'x.json')).toThrow(/not a selfplay-arena\/checkpoint-v1 file/);
    const doc = JSON.parse(serializeCheckpoint(sample())) as { weights: string[] };
    doc.weights[0] = Buffer.from(new Float32Array(2).buffer).toString('base64');
    expect(() => parseCheckpoint(JSON.stringify(doc), 'x.json')).toThrow(/weight tensor 0: expected 12 floats, found 2/);
    writeFileSync(join(dir, 'junk.json'), 'nope');
    expect(() => loadCheckpoint(join(dir, 'junk.json'))).toThrow(/junk.json: not JSON/);
    expect(() => loadCheckpoint(join(dir, 'missing.json'))).toThrow(/cannot read checkpoint/);
  });
});

describe('resume', () => {
  async function options(env: Env, out: string, iterations: number, resume: boolean): Promise<TrainerOptions> {
    const registry = createRegistry();
    await registry.loadModule(resolve(__dirname, '..', '..', 'examples', 'rock-paper-scissors.js'));
    const config = resolveConfig({
      seed: 4,
      episodesPerIteration: 8,
      hidden: [8],
      minibatchSize: 16,
      epochs: 2,
      evalEvery: 0,
      snapshotEvery: 1,
      checkpointEvery: 2,
      baselines: ['counter-last'],
      lrSchedule: 'linear',
    });
    return {
      env,
      params: env.resolveParams({ rounds: 3 }),
      registry,
      roles: [['player']],
      opponents: ['self', 'checkpoints', 'baselines'],
      schedule: { kind: 'simultaneous' },
      iterations,
      config,
      backend,
      outDir: out,
      resume,
    };
  }

  test('4 iterations straight equal 2 iterations, a stop, and 2 resumed ones (bit for bit)', async () => {
    const registry = createRegistry();
    const env = (await registry.loadModule(resolve(__dirname, '..', '..', 'examples', 'rock-paper-scissors.js')), registry.env('rock-paper-scissors-v1'));
    const a = join(dir, 'straight');
    const b = join(dir, 'resumed');
    const t1 = await Trainer.create(await options(env, a, 4, false));
    await t1.run();
    t1.dispose();
    // The second run is stopped after 2 of its 4 iterations (a checkpoint is due at 2).
    const t2 = await Trainer.create(await options(env, b, 4, false));
    await t2.step();
    await t2.step();
    t2.dispose();
    const t3 = await Trainer.create(await options(env, b, 4, true));
    expect(t3.iteration).toBe(2);
    expect(t3.entries[0].pool.map((s) => s.label)).toEqual(['player@0', 'player@1', 'player@2']);
    await t3.run();
    t3.dispose();
    const ca = loadCheckpoint(checkpointFile(a, 'player', 4));
    const cb = loadCheckpoint(checkpointFile(b, 'player', 4));
    expect(cb.step).toBe(4);
    expect(cb.updates).toBe(ca.updates);
    ca.weights.params.forEach((p, i) => expect(Array.from(cb.weights.params[i])).toEqual(Array.from(p)));
    ca.optimizer!.m.forEach((p, i) => expect(Array.from(cb.optimizer!.m[i])).toEqual(Array.from(p)));
    const rows = readFileSync(join(b, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { iteration: number });
    expect(rows.map((r) => r.iteration)).toEqual([1, 2, 3, 4]);
    // A fresh run from scratch differs (the comparison can fail).
    const c0 = loadCheckpoint(checkpointFile(a, 'player', 2));
    expect(Array.from(c0.weights.params[0])).not.toEqual(Array.from(ca.weights.params[0]));
  });
});
