/**
 * Training throughput: updates/s and samples/s for the fixed network 64→256→256→16
 * (relu), batch 256, Adam, softmax cross-entropy, on every tfjs backend that loads here, for
 * three implementations of the same step:
 *
 * - `layers`:  tf.sequential dense layers + optimizer.minimize (the tfjs textbook way);
 * - `autodiff`: low-level ops + tf.variableGrads + tf.train.adam;
 * - `arena`:   what the trainer uses — explicit forward/backward (fused matMul+bias+relu,
 *              explicit transposes on wasm), loss gradient in JS, Adam in JS (wasm/cpu) or
 *              in tfjs ops (native backends);
 * plus `arena-ppo`: the trainer's real PPO minibatch step (Learner.update) on the same trunk
 * with a 16-action policy head + value head.
 *
 * The machine may be shared: each rate is the best of several timed windows (wall clock),
 * and the CPU-time rate (process CPU seconds) is shown beside it.
 * Usage: npm run bench:train [-- --seconds 2 --batch 256,4096 --backend wasm]
 */
import type * as TF from '@tensorflow/tfjs';
import { Rng } from '../src/core/rng';
import { JsAdam, TfAdam } from '../src/train/adam';
import { BACKEND_ORDER, probeBackends, selectBackend, type BackendChoice } from '../src/train/backend';
import { Learner, tfOptimizerFor } from '../src/train/learner';
import { initMlp, paramShapes } from '../src/train/mlp';
import { SampleBuffer } from '../src/train/sample-buffer';
import { TfMlp, transposeModeFor } from '../src/train/tf-mlp';
import { measure } from './rate';

const IN = 64;
const HIDDEN = [256, 256];
const OUT = 16;

function data(tf: typeof TF, batch: number): { x: TF.Tensor2D; y: TF.Tensor2D; xs: Float32Array; labels: Int32Array } {
  const rng = Rng.fromSeed(1);
  const xs = Float32Array.from({ length: batch * IN }, () => rng.next() * 2 - 1);
  const labels = Int32Array.from({ length: batch }, () => rng.int(OUT));
  return { x: tf.tensor2d(xs, [batch, IN]), y: tf.oneHot(tf.tensor1d(labels, 'int32'), OUT).toFloat() as TF.Tensor2D, xs, labels };
}

function layersStep(tf: typeof TF, batch: number): { step: () => void; sync: () => void } {
  const model = tf.sequential({
    layers: [tf.layers.dense({ inputShape: [IN], units: HIDDEN[0], activation: 'relu' }), tf.layers.dense({ units: HIDDEN[1], activation: 'relu' }), tf.layers.dense({ units: OUT })],
  });
  const opt = tf.train.adam(1e-3);
  const { x, y } = data(tf, batch);
  return {
    step: () => tf.dispose(opt.minimize(() => tf.losses.softmaxCrossEntropy(y, model.apply(x) as TF.Tensor) as TF.Scalar, true) ?? []),
    sync: () => void model.getWeights()[0].dataSync(),
  };
}

function autodiffStep(tf: typeof TF, batch: number): { step: () => void; sync: () => void } {
  const spec = { inputSize: IN, hidden: HIDDEN, outputSize: OUT, activation: 'relu' as const };
  const w = initMlp(spec, 1);
  const shapes = paramShapes(spec);
  const vars = w.params.map((p, i) => tf.variable(tf.tensor(p, shapes[i])));
  const opt = tf.train.adam(1e-3);
  const { x, y } = data(tf, batch);
  const f = () => {
    let h: TF.Tensor = x;
    for (let l = 0; l < 3; l++) {
      h = tf.add(tf.matMul(h, vars[2 * l]), vars[2 * l + 1]);
      if (l < 2) h = tf.relu(h);
    }
    return tf.losses.softmaxCrossEntropy(y, h) as TF.Scalar;
  };
  return { step: () => tf.dispose(opt.minimize(f, true) ?? []), sync: () => void vars[0].dataSync() };
}

function arenaStep(choice: BackendChoice, batch: number): { step: () => void; sync: () => void } {
  const tf = choice.tf;
  const weights = initMlp({ inputSize: IN, hidden: HIDDEN, outputSize: OUT, activation: 'relu' }, 1);
  const net = new TfMlp(tf, weights, transposeModeFor(choice.tfBackend));
  const cfg = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0 };
  const js = tfOptimizerFor(choice) === 'js' ? new JsAdam(cfg, weights.params.map((p) => p.length)) : null;
  const tfAdam = js ? null : new TfAdam(tf, cfg, net.vars);
  const { x, labels } = data(tf, batch);
  const grad = new Float32Array(batch * OUT);
  return {
    step: () => {
      const pass = net.forward(x);
      const out = net.output(pass).dataSync() as Float32Array;
      for (let i = 0; i < batch; i++) {
        const o = i * OUT;
        let mx = -Infinity;
        for (let j = 0; j < OUT; j++) mx = Math.max(mx, out[o + j]);
        let s = 0;
        for (let j = 0; j < OUT; j++) s += Math.exp(out[o + j] - mx);
        for (let j = 0; j < OUT; j++) grad[o + j] = (Math.exp(out[o + j] - mx) / s - (j === labels[i] ? 1 : 0)) / batch;
      }
      const g = tf.tensor2d(grad, [batch, OUT]);
      const grads = net.backward(pass, g);
      net.disposeForward(pass);
      g.dispose();
      if (js) {
        js.update(weights.params, grads.map((t) => t.dataSync() as Float32Array), 1e-3);
        net.writeWeights(weights);
      } else tfAdam!.update(grads, 1e-3);
      tf.dispose(grads);
    },
    sync: () => void net.vars[0].dataSync(),
  };
}

function ppoStep(choice: BackendChoice, batch: number): { step: () => void; sync: () => void } {
  const layout = { env: 'bench-v1', roles: ['p'], roleInput: false, obsSize: IN, numActions: OUT };
  const encoder = { size: IN, numActions: OUT, encode: (_o: unknown, out?: Float32Array) => out ?? new Float32Array(IN), actionIndex: () => 0, action: (i: number) => i };
  const weights = initMlp({ inputSize: IN, hidden: HIDDEN, outputSize: OUT + 1, activation: 'relu' }, 1);
  const learner = new Learner('p', layout, encoder, weights, choice, { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 });
  const buf = new SampleBuffer(IN, OUT, batch);
  const rng = Rng.fromSeed(2);
  const mask = new Float32Array(OUT);
  const x = new Float32Array(IN);
  for (let i = 0; i < batch; i++) {
    for (let j = 0; j < IN; j++) x[j] = rng.next() * 2 - 1;
    for (let j = 0; j < OUT; j++) mask[j] = j === 0 || rng.next() < 0.7 ? 1 : 0;
    buf.push(x, mask, 0, -1.5, 0);
  }
  const targets = { advantages: Float32Array.from({ length: batch }, () => rng.next() - 0.5), returns: Float32Array.from({ length: batch }, () => rng.next()) };
  const o = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01, epochs: 1, minibatchSize: batch, targetKl: 0, lr: 1e-4, seed: 1 };
  return { step: () => void learner.update(buf, targets, o), sync: () => {} };
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const seconds = Number(arg('--seconds')) || 2;
  const only = arg('--backend');
  const probes = await probeBackends();
  console.log(`training throughput: net ${IN}→${HIDDEN.join('→')}→${OUT} (relu), Adam, node ${process.version}`);
  for (const p of probes) console.log(`- ${p.name}: ${p.ok ? 'available' : `unavailable (${p.reason})`}`);
  console.log('\n| backend | implementation | batch | updates/s (best window) | samples/s | updates per CPU-second |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const name of BACKEND_ORDER) {
    if (only && name !== only) continue;
    if (!probes.find((p) => p.name === name)?.ok) continue;
    const choice = await selectBackend(name);
    const native = choice.tfBackend === 'tensorflow';
    const batches = (arg('--batch') ?? (native ? '256,4096' : '256')).split(',').map(Number);
    for (const batch of batches) {
      const impls: [string, () => { step: () => void; sync: () => void }][] = [
        ['layers', () => layersStep(choice.tf, batch)],
        ['autodiff', () => autodiffStep(choice.tf, batch)],
        ['arena', () => arenaStep(choice, batch)],
        ['arena-ppo', () => ppoStep(choice, batch)],
      ];
      for (const [impl, make] of impls) {
        const { step, sync } = make();
        const secs = name === 'cpu' && impl !== 'arena' ? Math.min(seconds, 1.5) : seconds;
        const r = measure(step, secs, sync);
        console.log(`| ${name} | ${impl} | ${batch} | ${r.wall.toFixed(1)} | ${Math.round(r.wall * batch)} | ${r.cpu.toFixed(1)} |`);
      }
    }
  }
  console.log('\nreference (issue): PyTorch 1.13 CPU, one thread: 34 updates/s; tfjs wasm about 20; tfjs cpu about 4.');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
