/**
 * The fused update (assembly/fused-mlp.ts through Learner impl "fused") against the tfjs
 * autodiff update (the device path: devicePolicyLoss, tf.variableGrads, TfAdam) and against
 * tfjs's own optimizer (tf.train.adam after global-norm clipping), to float32 tolerance over
 * several steps, for every network shape the trainers use: each built-in env's encoder with the
 * default hidden layers [128, 128] and the sizes its benches and example leagues configure
 * ([256, 256], [64, 64]), with and without a role input; plus tanh, no hidden layer, dense
 * inputs (the module's dense kernel) and minibatches whose size is not a multiple of 4.
 */
import type * as TF from '@tensorflow/tfjs';
import { createRegistry } from '../../app/catalog';
import { Rng } from '../../src/core/rng';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { devicePolicyLoss } from '../../src/train/device-loss';
import { Learner, type UpdateOptions, type UpdateStats } from '../../src/train/learner';
import { initMlp, layerSizes, paramShapes, type Activation, type MlpWeights } from '../../src/train/mlp';
import { SampleBuffer } from '../../src/train/sample-buffer';
import { UpdateRun } from '../../src/train/update-run';

const adam = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 };

interface Shape {
  name: string;
  inputSize: number;
  hidden: number[];
  units: number;
  activation: Activation;
  /** Fraction of inputs that are zero (0: dense inputs, the module's dense kernel). */
  zeros: number;
}

/** The shapes the trainers build: every built-in env's encoder (+ role inputs) × the configured hidden sizes. */
function trainerShapes(): Shape[] {
  const registry = createRegistry();
  const configured: Record<string, number[][]> = {
    // bench/learning/*.ts and examples/leagues/*.json
    'deal-or-no-deal-v1': [[256, 256]],
    'countdown-v1': [[256, 256]],
    'werewolf-v1': [[64, 64]],
    'kernel-speedup-v1': [[64, 64]],
  };
  const out: Shape[] = [];
  for (const env of registry.allEnvs()) {
    const enc = env.encoder;
    if (!enc) continue;
    const roles = env.meta.roles.length;
    for (const hidden of [[128, 128], ...(configured[env.meta.id] ?? [])]) {
      out.push({ name: `${env.meta.id} ${JSON.stringify(hidden)}`, inputSize: enc.size, hidden, units: enc.numActions, activation: 'relu', zeros: 0.7 });
    }
    if (roles > 1) out.push({ name: `${env.meta.id} with a role input`, inputSize: enc.size + roles, hidden: [128, 128], units: enc.numActions, activation: 'relu', zeros: 0.7 });
  }
  return out;
}

const SHAPES: Shape[] = [
  ...trainerShapes(),
  { name: 'the bench fixture 64→256→256→16+1, dense inputs', inputSize: 64, hidden: [256, 256], units: 16, activation: 'relu', zeros: 0 },
  { name: 'tanh, odd widths', inputSize: 13, hidden: [37, 21], units: 11, activation: 'tanh', zeros: 0.3 },
  { name: 'no hidden layer', inputSize: 9, hidden: [], units: 6, activation: 'relu', zeros: 0.3 },
  { name: 'three hidden layers', inputSize: 10, hidden: [16, 12, 8], units: 5, activation: 'relu', zeros: 0.5 },
];

/** A learner's batch: `n` samples of legal masks and actions, log π_old near the policy's (so ratios get clipped in later epochs). */
function problem(s: Shape, n: number, seed: number) {
  const rng = Rng.fromSeed(seed);
  const A = s.units;
  const buf = new SampleBuffer(s.inputSize, A, n);
  const x = new Float32Array(s.inputSize);
  const mask = new Float32Array(A);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < s.inputSize; j++) x[j] = rng.next() < s.zeros ? 0 : rng.next() * 2 - 1;
    let legal = 0;
    for (let j = 0; j < A; j++) legal += mask[j] = rng.next() < Math.min(0.7, 12 / A) ? 1 : 0;
    const a = rng.int(A);
    if (!legal || !mask[a]) mask[a] = 1;
    buf.push(x, mask, a, -Math.log(Math.max(2, legal)) + (rng.next() - 0.5) * 0.4, 0);
  }
  const targets = { advantages: Float32Array.from({ length: n }, () => rng.next() * 2 - 1), returns: Float32Array.from({ length: n }, () => rng.next() * 2) };
  return { buf, targets };
}

const maxDiff = (a: readonly Float32Array[], b: readonly Float32Array[]) => Math.max(...a.map((p, i) => p.reduce((m, v, j) => Math.max(m, Math.abs(v - b[i][j])), 0)));
const maxAbs = (a: readonly Float32Array[]) => Math.max(...a.map((p) => p.reduce((m, v) => Math.max(m, Math.abs(v)), 0)));

/**
 * The reference with tfjs's own optimizer: the same minibatches (UpdateRun), the loss as tfjs ops
 * (device-loss.ts), tf.variableGrads, gradients scaled to global norm maxGradNorm, tf.train.adam.
 */
function tfTrainAdam(tf: typeof TF, w: MlpWeights, buf: SampleBuffer, targets: { advantages: Float32Array; returns: Float32Array }, o: UpdateOptions): { weights: Float32Array[]; losses: number[] } {
  const shapes = paramShapes(w.spec);
  const vars = w.params.map((p, i) => tf.variable(tf.tensor(p, shapes[i]), true, `ref${i}_${Math.random()}`));
  const opt = tf.train.adam(o.lr, adam.beta1, adam.beta2, adam.epsilon);
  const depth = layerSizes(w.spec).length - 1;
  const run = new UpdateRun(buf.size, o);
  const losses: number[] = [];
  const A = buf.numActions;
  while (run.nextEpoch()) {
    for (const idx of run.minibatches()) {
      const m = idx.length;
      const rows = (src: Float32Array, width: number) => {
        const out = new Float32Array(m * width);
        idx.forEach((s, r) => out.set(src.subarray(s * width, (s + 1) * width), r * width));
        return out;
      };
      const pick = (src: ArrayLike<number>) => Array.from(idx, (s) => src[s]);
      const x = tf.tensor2d(rows(buf.inputs, buf.inputSize), [m, buf.inputSize]);
      const batch = {
        masks: tf.tensor2d(rows(buf.masks, A), [m, A]),
        actions: tf.tensor1d(pick(buf.actions), 'int32'),
        oldLogp: tf.tensor1d(pick(buf.logp)),
        advantages: tf.tensor1d(pick(targets.advantages)),
        returns: tf.tensor1d(pick(targets.returns)),
      };
      const { value, grads } = tf.variableGrads(() => {
        let h: TF.Tensor2D = x;
        for (let l = 0; l < depth; l++) {
          const z = tf.add(tf.matMul(h, vars[2 * l] as TF.Tensor2D), vars[2 * l + 1]) as TF.Tensor2D;
          h = l + 1 < depth ? ((w.spec.activation === 'tanh' ? tf.tanh(z) : tf.relu(z)) as TF.Tensor2D) : z;
        }
        const r = devicePolicyLoss(tf, h, batch, o);
        r.stats.dispose();
        return r.loss;
      }, vars);
      const list = vars.map((v) => grads[v.name]);
      const norm = Math.sqrt(list.reduce((s, g) => s + (tf.sum(tf.square(g)).dataSync()[0] as number), 0));
      const scale = norm > adam.maxGradNorm ? adam.maxGradNorm / norm : 1;
      const scaled = vars.map((v, i) => ({ name: v.name, tensor: tf.mul(list[i], scale) as TF.Tensor }));
      opt.applyGradients(scaled);
      tf.dispose(scaled.map((g) => g.tensor));
      losses.push(value.dataSync()[0]);
      tf.dispose([x, batch.masks, batch.actions, batch.oldLogp, batch.advantages, batch.returns, value, ...list]);
    }
  }
  const weights = vars.map((v) => Float32Array.from(v.dataSync() as Float32Array));
  vars.forEach((v) => v.dispose());
  opt.dispose();
  return { weights, losses };
}

describe('fused update equals the tfjs updates to float32 tolerance', () => {
  let cpu: BackendChoice;
  beforeAll(async () => {
    cpu = await selectBackend('cpu');
  });

  test.each(SHAPES.map((s) => [s.name, s] as const))('%s: 2 epochs × 3 minibatches (one of 14 rows)', async (_name, s) => {
    const w = initMlp({ inputSize: s.inputSize, hidden: s.hidden, outputSize: s.units + 1, activation: s.activation }, 11, 0.5);
    const layout = { env: 'fake-v1', roles: ['p'], roleInput: false, obsSize: s.inputSize, numActions: s.units };
    const encoder = { size: s.inputSize, numActions: s.units, encode: (_o: unknown, out?: Float32Array) => out ?? new Float32Array(s.inputSize), actionIndex: () => 0, action: (i: number) => i };
    const { buf, targets } = problem(s, 46, 3);
    const o: UpdateOptions = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01, epochs: 2, minibatchSize: 16, targetKl: 0, lr: 1e-3, seed: 5 };
    const fused = new Learner('p', layout, encoder, w, cpu, adam, 'fused');
    const device = new Learner('p', layout, encoder, w, cpu, adam, 'tf');
    const a: UpdateStats = fused.update(buf, targets, o);
    const b: UpdateStats = await device.updateOnDevice(buf, targets, o);
    const ref = tfTrainAdam(cpu.tf, w, buf, targets, o);
    expect([a.minibatches, a.epochs, a.samples]).toEqual([6, 2, 46]);
    for (const k of ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction', 'gradNorm'] as const) expect(Math.abs(a[k] - b[k])).toBeLessThan(1e-4 * Math.max(1, Math.abs(b[k])));
    expect(a.clipFraction).toBeGreaterThan(0); // the clipped branch of the loss is compared too
    // six Adam steps of size ~lr each: the weights moved, and the same way in all three
    const moved = maxDiff(fused.weights.params, w.params);
    expect(moved).toBeGreaterThan(3e-3);
    const tol = 5e-5; // measured up to 1.1e-5 (countdown [256, 256] against tf.train.adam); one wrong step moves a weight ~1e-3
    expect(maxDiff(fused.weights.params, device.weights.params)).toBeLessThan(tol);
    expect(maxDiff(fused.weights.params, ref.weights)).toBeLessThan(tol);
    // Adam's state (checkpoints): the same step count and moments as the tfjs optimizer's
    const sa = fused.optimizerState();
    const sb = device.optimizerState();
    expect(sa.step).toBe(6);
    expect(sb.step).toBe(6);
    expect(maxDiff(sa.m, sb.m)).toBeLessThan(1e-5 * Math.max(1, maxAbs(sb.m)));
    expect(maxDiff(sa.v, sb.v)).toBeLessThan(1e-5 * Math.max(1e-6, maxAbs(sb.v)));
    fused.dispose();
    device.dispose();
  });
});
