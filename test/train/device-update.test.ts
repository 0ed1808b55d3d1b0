/**
 * The device update (loss as tfjs ops, autodiff, Adam as tfjs ops, asynchronous reads: the
 * WebGPU path) against the hand-written update with JS Adam, on the CPU backends here; and the
 * trainer on a backend without synchronous reads (a fake: cpu marked so).
 */
import { createRegistry } from '../../app/catalog';
import { Rng } from '../../src/core/rng';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { resolveConfig } from '../../src/train/config';
import { Learner, type UpdateOptions } from '../../src/train/learner';
import { initMlp } from '../../src/train/mlp';
import { SampleBuffer } from '../../src/train/sample-buffer';
import { Trainer, type IterationMetrics } from '../../src/train/trainer';

const IN = 6;
const A = 5;
const layout = { env: 'fake-v1', roles: ['p'], roleInput: false, obsSize: IN, numActions: A };
const encoder = { size: IN, numActions: A, encode: (_o: unknown, out?: Float32Array) => out ?? new Float32Array(IN), actionIndex: () => 0, action: (i: number) => i };
const adam = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 };

function data(n: number, seed: number, advScale = 1) {
  const rng = Rng.fromSeed(seed);
  const buf = new SampleBuffer(IN, A, 4);
  const x = new Float32Array(IN);
  const mask = new Float32Array(A);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < IN; j++) x[j] = rng.next() < 0.3 ? 0 : rng.next() * 2 - 1;
    for (let j = 0; j < A; j++) mask[j] = rng.next() < 0.6 ? 1 : 0;
    const a = rng.int(A);
    mask[a] = 1;
    buf.push(x, mask, a, Math.log(1 / A) + (rng.next() - 0.5), 0);
  }
  const targets = { advantages: Float32Array.from({ length: n }, () => (rng.next() * 2 - 1) * advScale), returns: Float32Array.from({ length: n }, () => rng.next() * 3) };
  return { buf, targets };
}

const maxDiff = (a: Float32Array[], b: Float32Array[]) => Math.max(...a.map((p, i) => Math.max(...p.map((v, j) => Math.abs(v - b[i][j])))));

describe.each(['cpu', 'wasm'])('device update on %s', (name) => {
  let choice: BackendChoice;
  beforeAll(async () => {
    choice = await selectBackend(name);
  });

  test('takes the steps of the hand-written update (3 epochs × 3 minibatches, clipping and ratio clipping active)', async () => {
    const w = initMlp({ inputSize: IN, hidden: [12, 8], outputSize: A + 1, activation: 'relu' }, 7, 0.5);
    const host = new Learner('p', layout, encoder, w, choice, adam, 'js');
    const device = new Learner('p', layout, encoder, w, choice, adam, 'tf');
    const { buf, targets } = data(20, 3, 4);
    const o: UpdateOptions = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.05, epochs: 3, minibatchSize: 8, targetKl: 0, lr: 0.01, seed: 9 };
    const a = host.update(buf, targets, o);
    const b = await device.updateOnDevice(buf, targets, o);
    expect([b.minibatches, b.epochs, b.samples]).toEqual([9, 3, 20]);
    expect([a.minibatches, a.epochs]).toEqual([9, 3]);
    expect(a.clipFraction).toBeGreaterThan(0); // later epochs clip: the clipped branch is compared too
    for (const k of ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction', 'gradNorm'] as const) expect(b[k]).toBeCloseTo(a[k], 4);
    expect(maxDiff(device.weights.params, host.weights.params)).toBeLessThan(1e-4);
    expect(maxDiff(device.weights.params, w.params)).toBeGreaterThan(1e-3); // it did learn
    // the optimizer state for checkpoints was read back
    expect(device.optimizerState().step).toBe(9);
    expect(maxDiff(device.optimizerState().m, host.optimizerState().m)).toBeLessThan(1e-4);
    host.dispose();
    device.dispose();
  });

  test('KL early stop and non-finite losses as in the hand-written update', async () => {
    const w = initMlp({ inputSize: IN, hidden: [8], outputSize: A + 1, activation: 'tanh' }, 2, 0.5);
    const { buf, targets } = data(16, 5, 50);
    const o: UpdateOptions = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0, epochs: 6, minibatchSize: 16, targetKl: 1e-4, lr: 0.05, seed: 1 };
    const host = new Learner('p', layout, encoder, w, choice, adam, 'js');
    const device = new Learner('p', layout, encoder, w, choice, adam, 'tf');
    const a = host.update(buf, targets, o);
    const b = await device.updateOnDevice(buf, targets, o);
    expect(a.epochs).toBeLessThan(6);
    expect(b.epochs).toBe(a.epochs);
    targets.advantages[3] = NaN;
    expect(Number.isFinite(host.update(buf, targets, o).loss)).toBe(false);
    expect(Number.isFinite((await device.updateOnDevice(buf, targets, o)).loss)).toBe(false);
    host.dispose();
    device.dispose();
  });
});

test('a trainer on a backend without synchronous reads updates on the device and trains like the host path', async () => {
  const cpu = await selectBackend('cpu');
  const run = async (backend: BackendChoice) => {
    const registry = createRegistry();
    const { env, params } = registry.make('deal-or-no-deal-v1', {});
    const metrics: IterationMetrics[] = [];
    const t = await Trainer.create({
      env,
      params,
      registry,
      roles: [['negotiator']],
      opponents: ['self'],
      schedule: { kind: 'simultaneous' },
      iterations: 2,
      config: resolveConfig({ seed: 4, episodesPerIteration: 8, hidden: [16], evalEvery: 0, minibatchSize: 32, epochs: 1, lr: 1e-3 }),
      backend,
      onIteration: (m) => metrics.push(m),
    });
    await t.run();
    const out = { metrics, weights: t.entries[0].learner.weights.params.map((p) => p.slice()), adamStep: t.entries[0].learner.optimizerState().step };
    t.dispose();
    return out;
  };
  const host = await run(cpu);
  const device = await run({ ...cpu, syncReads: false });
  // the first iteration's rollouts are the same; its update differs only by float rounding
  expect(device.metrics[0].samples).toBe(host.metrics[0].samples);
  expect(device.metrics[0].learners.negotiator.update!.loss).toBeCloseTo(host.metrics[0].learners.negotiator.update!.loss, 4);
  expect(device.adamStep).toBe(host.adamStep);
  expect(device.adamStep).toBeGreaterThan(0);
  expect(maxDiff(device.weights, host.weights)).toBeLessThan(5e-3);
});

test('config update: "device" takes the device path on any backend; "host" is refused where reads cannot be synchronous', async () => {
  const cpu = await selectBackend('cpu');
  const registry = createRegistry();
  const { env, params } = registry.make('deal-or-no-deal-v1', {});
  const make = (backend: BackendChoice, update: 'host' | 'device') =>
    Trainer.create({
      env,
      params,
      registry,
      roles: [['negotiator']],
      opponents: ['self'],
      schedule: { kind: 'simultaneous' },
      iterations: 1,
      config: resolveConfig({ seed: 4, episodesPerIteration: 4, hidden: [8], evalEvery: 0, update }),
      backend,
    });
  const t = await make(cpu, 'device');
  const calls: string[] = [];
  const learner = t.entries[0].learner;
  const device = learner.updateOnDevice.bind(learner);
  learner.updateOnDevice = (...a) => (calls.push('device'), device(...a));
  learner.update = () => {
    throw new Error('host path taken');
  };
  await t.run();
  expect(calls).toEqual(['device']);
  t.dispose();
  await expect(make({ ...cpu, syncReads: false }, 'host')).rejects.toThrow(/training config: update "host" needs synchronous tensor reads, which the cpu backend does not have/);
  expect(() => resolveConfig({ update: 'gpu' })).toThrow(/update/);
});
