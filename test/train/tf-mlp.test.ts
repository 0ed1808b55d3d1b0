import type * as TF from '@tensorflow/tfjs';
import { Rng } from '../../src/core/rng';
import { JsAdam, TfAdam, clipScale } from '../../src/train/adam';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { initMlp, MlpForward, type Activation } from '../../src/train/mlp';
import { TfMlp, type TransposeMode } from '../../src/train/tf-mlp';

function randomBatch(rows: number, cols: number, seed: number): Float32Array {
  const rng = Rng.fromSeed(seed);
  return Float32Array.from({ length: rows * cols }, () => (rng.next() < 0.3 ? 0 : rng.next() * 2 - 1));
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe.each(['cpu', 'wasm'])('tfjs MLP on the %s backend', (backendName) => {
  let choice: BackendChoice;
  let tf: typeof TF;
  beforeAll(async () => {
    choice = await selectBackend(backendName);
    tf = choice.tf;
  });

  const cases: [Activation, TransposeMode][] = [
    ['relu', 'explicit'],
    ['relu', 'flag'],
    ['tanh', 'explicit'],
    ['tanh', 'flag'],
  ];

  test.each(cases)('%s / %s: forward equals the JS forward; backward equals tfjs autodiff', (activation, mode) => {
    const spec = { inputSize: 7, hidden: [9, 5], outputSize: 4, activation };
    const w = initMlp(spec, 3);
    const net = new TfMlp(tf, w, mode);
    const B = 6;
    const x = randomBatch(B, 7, 1);
    const xt = tf.tensor2d(x, [B, 7]);
    const pass = net.forward(xt);
    const out = net.output(pass).dataSync();
    const js = new MlpForward(w);
    for (let i = 0; i < B; i++) {
      const row = js.run(x.subarray(i * 7, i * 7 + 7));
      expect(maxAbsDiff(row, out.subarray(i * 4, i * 4 + 4))).toBeLessThan(1e-5);
    }
    const dOut = tf.tensor2d(randomBatch(B, 4, 2), [B, 4]);
    const grads = net.backward(pass, dOut);
    // Reference: gradient of sum(f(x) ⊙ dOut) w.r.t. every variable, by tfjs autodiff.
    const f = () => {
      let h: TF.Tensor = xt;
      for (let l = 0; l < 3; l++) {
        h = tf.add(tf.matMul(h, net.vars[2 * l]), net.vars[2 * l + 1]);
        if (l < 2) h = activation === 'relu' ? tf.relu(h) : tf.tanh(h);
      }
      return tf.sum(tf.mul(h, dOut)) as TF.Scalar;
    };
    const ref = tf.variableGrads(f, net.vars);
    net.vars.forEach((v, i) => {
      const expected = ref.grads[v.name].dataSync();
      expect(maxAbsDiff(grads[i].dataSync(), expected)).toBeLessThan(1e-5);
    });
    net.disposeForward(pass);
    for (const g of grads) g.dispose();
    net.dispose();
  });

  test('JS Adam and tfjs Adam take the same steps (clipping active)', () => {
    const cfg = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.3 };
    const sizes = [12, 3];
    const p0 = [randomBatch(4, 3, 5), randomBatch(1, 3, 6)];
    const vars = [tf.variable(tf.tensor2d(p0[0], [4, 3])), tf.variable(tf.tensor1d(p0[1]))];
    const tfAdam = new TfAdam(tf, cfg, vars);
    const js = new JsAdam(cfg, sizes);
    const params = p0.map((p) => p.slice());
    for (let step = 0; step < 5; step++) {
      const g = [randomBatch(4, 3, 10 + step), randomBatch(1, 3, 20 + step)];
      const n1 = js.update(params, g, 0.01);
      const gt = [tf.tensor2d(g[0], [4, 3]), tf.tensor1d(g[1])];
      const n2 = tfAdam.update(gt, 0.01);
      gt.forEach((t) => t.dispose());
      expect(n2).toBeCloseTo(n1, 5);
    }
    expect(maxAbsDiff(vars[0].dataSync(), params[0])).toBeLessThan(1e-6);
    expect(maxAbsDiff(vars[1].dataSync(), params[1])).toBeLessThan(1e-6);
    const st = tfAdam.state();
    expect(st.step).toBe(5);
    expect(maxAbsDiff(st.m[0], js.m[0])).toBeLessThan(1e-6);
    tfAdam.dispose();
    vars.forEach((v) => v.dispose());
  });

  test('JS Adam takes the steps of tfjs\'s own tf.train.adam (no clipping; varying gradients and sizes)', () => {
    const cfg = { beta1: 0.9, beta2: 0.99, epsilon: 1e-6, maxGradNorm: 0 };
    const p0 = [randomBatch(5, 4, 7), randomBatch(1, 4, 8)];
    const vars = [tf.variable(tf.tensor2d(p0[0], [5, 4])), tf.variable(tf.tensor1d(p0[1]))];
    const opt = tf.train.adam(0.05, cfg.beta1, cfg.beta2, cfg.epsilon);
    const js = new JsAdam(cfg, [20, 4]);
    const params = p0.map((p) => p.slice());
    for (let step = 0; step < 6; step++) {
      const g = [randomBatch(5, 4, 30 + step).map((x) => x * (step + 1)), randomBatch(1, 4, 40 + step)];
      js.update(params, g, 0.05);
      opt.applyGradients([
        { name: vars[0].name, tensor: tf.tensor2d(g[0], [5, 4]) },
        { name: vars[1].name, tensor: tf.tensor1d(g[1]) },
      ]);
    }
    expect(maxAbsDiff(vars[0].dataSync(), params[0])).toBeLessThan(2e-6);
    expect(maxAbsDiff(vars[1].dataSync(), params[1])).toBeLessThan(2e-6);
    // and the weights did move (several learning-rate steps)
    expect(maxAbsDiff(params[0], p0[0])).toBeGreaterThan(0.1);
    opt.dispose();
    vars.forEach((v) => v.dispose());
  });
});

test('clip scale: factor only above the limit', () => {
  expect(clipScale(2, 0.5)).toBe(0.25);
  expect(clipScale(0.4, 0.5)).toBe(1);
  expect(clipScale(10, 0)).toBe(1);
});

test('Adam hand-computed first step: p − lr·sign(g) (bias-corrected)', () => {
  const js = new JsAdam({ beta1: 0.9, beta2: 0.999, epsilon: 0, maxGradNorm: 0 }, [2]);
  const p = [new Float32Array([1, 1])];
  js.update(p, [new Float32Array([3, -0.5])], 0.1);
  expect(p[0][0]).toBeCloseTo(0.9, 6);
  expect(p[0][1]).toBeCloseTo(1.1, 6);
});
