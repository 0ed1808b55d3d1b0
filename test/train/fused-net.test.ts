/**
 * FusedNet: gradients against finite differences on tiny nets, the acting forward pass (rows
 * independent of their batch, the needed-output groups, against the JS forward), the loss's
 * errors, weights and Adam state in and out, and checkpoint compatibility with the JS optimizer.
 */
import { Rng } from '../../src/core/rng';
import { selectBackend } from '../../src/train/backend';
import { FusedNet } from '../../src/train/fused/fused-net';
import { Learner, type UpdateOptions } from '../../src/train/learner';
import { initMlp, MlpForward, type Activation, type MlpWeights } from '../../src/train/mlp';
import type { LossCoefs } from '../../src/train/policy-loss';
import { SampleBuffer } from '../../src/train/sample-buffer';

const coefs: LossCoefs = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.05 };
const sameBits = (a: Float32Array, b: Float32Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** A net loaded with `n` samples of a random problem (some ratios outside the clip range). */
function loaded(activation: Activation, hidden: number[], seed: number, n = 9) {
  const IN = 5;
  const A = 4;
  const w = initMlp({ inputSize: IN, hidden, outputSize: A + 1, activation }, seed, 0.8);
  w.params.forEach((p, i) => i % 2 === 1 && p.forEach((_, j) => (p[j] = 0.1 * Math.sin(j + i))));
  const rng = Rng.fromSeed(seed);
  const x = Float32Array.from({ length: n * IN }, () => (rng.next() < 0.2 ? 0 : rng.next() * 2 - 1));
  const masks = Float32Array.from({ length: n * A }, (_, k) => (k % A === 0 || rng.next() < 0.6 ? 1 : 0));
  const actions = Int32Array.from({ length: n }, (_, i) => {
    let a = rng.int(A);
    while (!masks[i * A + a]) a = rng.int(A);
    return a;
  });
  const logp = Float32Array.from({ length: n }, () => -1.2 + (rng.next() - 0.5) * 1.5);
  const adv = Float32Array.from({ length: n }, () => rng.next() * 2 - 1);
  const ret = Float32Array.from({ length: n }, () => rng.next());
  const net = new FusedNet(w, { training: true, rows: n });
  net.loadSamples(n, x, masks, actions, logp, adv, ret, n);
  net.setOrder(Int32Array.from({ length: n }, (_, i) => i));
  return { net, w, n };
}

describe('FusedNet gradients', () => {
  test.each([
    ['tanh', [6, 5]],
    ['relu', [7]],
    ['relu', [6, 5]],
  ] as const)('%s %j: the loss gradient matches central finite differences', (activation, hidden) => {
    const { net, w, n } = loaded(activation, [...hidden], 3);
    const base = net.lossGrad(0, n, coefs);
    expect(base.clipFraction).toBeGreaterThan(0); // clipped samples are in the check
    const grads = net.readGradients();
    const h = 1e-3;
    let checked = 0;
    let worst = 0;
    w.params.forEach((p, k) => {
      for (let j = 0; j < p.length; j++) {
        const keep = p[j];
        p[j] = keep + h;
        net.setWeights(w);
        const up = net.lossGrad(0, n, coefs).loss;
        p[j] = keep - h;
        net.setWeights(w);
        const down = net.lossGrad(0, n, coefs).loss;
        p[j] = keep;
        const fd = (up - down) / (2 * h);
        const err = Math.abs(fd - grads[k][j]) / Math.max(1e-2, Math.abs(fd) + Math.abs(grads[k][j]));
        worst = Math.max(worst, err);
        checked++;
      }
    });
    net.setWeights(w);
    expect(checked).toBe(w.params.reduce((s, p) => s + p.length, 0));
    expect(worst).toBeLessThan(activation === 'tanh' ? 2e-3 : 2e-2); // ReLU kinks blur a few differences
  });

  test('the loss refuses an action its mask marks illegal, and a row without legal actions', () => {
    const { net, n } = loaded('relu', [4], 1);
    const w = initMlp({ inputSize: 5, hidden: [4], outputSize: 5, activation: 'relu' }, 1);
    const x = new Float32Array(n * 5).fill(0.5);
    const masks = new Float32Array(n * 4).fill(1);
    masks[2 * 4 + 1] = 0;
    const actions = new Int32Array(n);
    actions[2] = 1;
    const zeros = new Float32Array(n);
    net.setWeights(w);
    net.loadSamples(n, x, masks, actions, zeros, zeros, zeros, n);
    expect(() => net.lossGrad(0, n, coefs)).toThrow('policyLoss: sample 2 took action 1, which its mask marks illegal');
    masks.fill(1);
    masks.fill(0, 3 * 4, 4 * 4);
    actions[2] = 0;
    net.loadSamples(n, x, masks, actions, zeros, zeros, zeros, n);
    expect(() => net.lossGrad(0, n, coefs)).toThrow('maskedSoftmax: no legal action in the mask (sample 3)');
    masks.fill(1);
    net.loadSamples(n, x, masks, actions, zeros, zeros, zeros, n);
    expect(Number.isFinite(net.lossGrad(0, n, coefs).loss)).toBe(true);
  });

  test('an acting network has no gradients or Adam state; minibatches larger than loaded are refused', () => {
    const w = initMlp({ inputSize: 5, hidden: [4], outputSize: 3, activation: 'relu' }, 1);
    const acting = new FusedNet(w);
    expect(() => acting.readMoments()).toThrow(/acting only/);
    expect(() => acting.lossGrad(0, 1, coefs)).toThrow(/acting only/);
    const { net } = loaded('relu', [4], 2, 8);
    expect(() => net.lossGrad(0, 9, coefs)).toThrow(/minibatch of 9 rows, sized for 8/);
  });
});

describe('FusedNet acting forward', () => {
  function inputs(rows: number, n: number, seed: number): Float32Array {
    const rng = Rng.fromSeed(seed);
    const x = new Float32Array(rows * n);
    for (let i = 0; i < x.length; i++) if (rng.next() < 0.4) x[i] = rng.next() * 4 - 2;
    return x;
  }

  test.each([
    ['relu', [37, 20], 11],
    ['tanh', [16], 9],
    ['relu', [8, 8, 8], 3],
    ['relu', [], 6],
  ] as const)('%s %j: each row of a batch is bit for bit the row alone, and within float32 rounding of the JS forward', (activation, hidden, out) => {
    const w = initMlp({ inputSize: 13, hidden: [...hidden], outputSize: out, activation }, 4);
    w.params.forEach((p, i) => i % 2 === 1 && p.forEach((_, j) => (p[j] = ((j % 5) - 2) * 0.37)));
    const net = new FusedNet(w, { rows: 2 }); // grows past its first size
    const js = new MlpForward(w);
    const x = inputs(7, 13, 1);
    const batch = net.forward(x, 7).slice();
    expect(batch.length).toBe(7 * out);
    const ref = js.run(x, 7);
    for (let k = 0; k < batch.length; k++) expect(Math.abs(batch[k] - ref[k])).toBeLessThan(1e-5 * Math.max(1, Math.abs(ref[k])));
    for (let r = 0; r < 7; r++) expect(sameBits(net.forward(x.subarray(r * 13, (r + 1) * 13), 1).slice(), batch.subarray(r * out, (r + 1) * out))).toBe(true);
  });

  test('with the needed outputs marked: those and the value as without, groups of eight with none needed read 0', () => {
    const A = 27;
    const w = initMlp({ inputSize: 13, hidden: [16], outputSize: A + 1, activation: 'relu' }, 5, 0.7);
    w.params[3].fill(0.25);
    const net = new FusedNet(w);
    const x = inputs(3, 13, 3);
    const needed = new Float32Array(3 * A);
    needed[0 * A + 2] = 1;
    needed[1 * A + 17] = 1;
    needed[1 * A + 25] = 1;
    needed[2 * A + 26] = 1;
    const full = net.forward(x, 3).slice();
    const out = net.forward(x, 3, needed, A).slice();
    for (let r = 0; r < 3; r++) {
      const row = out.subarray(r * (A + 1), (r + 1) * (A + 1));
      const ref = full.subarray(r * (A + 1), (r + 1) * (A + 1));
      for (let g = 0; g < 3; g++) {
        const wanted = needed.subarray(r * A + g * 8, r * A + g * 8 + 8).some((v) => v !== 0);
        if (wanted) expect(sameBits(row.subarray(g * 8, g * 8 + 8), ref.subarray(g * 8, g * 8 + 8))).toBe(true);
        else expect([...row.subarray(g * 8, g * 8 + 8)]).toEqual(new Array(8).fill(0));
      }
      expect(sameBits(row.subarray(24), ref.subarray(24))).toBe(true);
    }
  });

  test('weights set later are the ones used; read back bit for bit', () => {
    const a = initMlp({ inputSize: 6, hidden: [5], outputSize: 3, activation: 'relu' }, 1);
    const b = initMlp({ inputSize: 6, hidden: [5], outputSize: 3, activation: 'relu' }, 2);
    const net = new FusedNet(a);
    const x = inputs(2, 6, 9);
    const first = net.forward(x, 2).slice();
    net.setWeights(b);
    expect(sameBits(net.forward(x, 2).slice(), first)).toBe(false);
    const back: MlpWeights = net.readWeights();
    back.params.forEach((p, i) => expect(sameBits(p, b.params[i])).toBe(true));
  });
});

describe('fused learner and checkpoints', () => {
  const IN = 6;
  const A = 5;
  const layout = { env: 'fake-v1', roles: ['p'], roleInput: false, obsSize: IN, numActions: A };
  const encoder = { size: IN, numActions: A, encode: (_o: unknown, out?: Float32Array) => out ?? new Float32Array(IN), actionIndex: () => 0, action: (i: number) => i };
  const adam = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 };
  const o: UpdateOptions = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01, epochs: 2, minibatchSize: 8, targetKl: 0, lr: 0.01, seed: 3 };

  function data(seed: number) {
    const rng = Rng.fromSeed(seed);
    const buf = new SampleBuffer(IN, A, 4);
    for (let i = 0; i < 20; i++) {
      const x = Float32Array.from({ length: IN }, () => rng.next() - 0.5);
      const mask = Float32Array.from({ length: A }, () => (rng.next() < 0.6 ? 1 : 0));
      const a = rng.int(A);
      mask[a] = 1;
      buf.push(x, mask, a, -1.5, 0);
    }
    return { buf, targets: { advantages: Float32Array.from({ length: 20 }, () => rng.next() - 0.5), returns: Float32Array.from({ length: 20 }, () => rng.next()) } };
  }

  test('state saved from the fused optimizer resumes in a fresh fused learner bit for bit, and in the JS optimizer within float rounding', async () => {
    const cpu = await selectBackend('cpu');
    const w = initMlp({ inputSize: IN, hidden: [8], outputSize: A + 1, activation: 'relu' }, 3, 0.5);
    const first = data(1);
    const second = data(2);
    const through = new Learner('p', layout, encoder, w, cpu, adam, 'fused');
    through.update(first.buf, first.targets, o);
    const saved = { weights: { spec: w.spec, params: through.weights.params.map((p) => p.slice()) }, state: through.optimizerState() };
    expect(saved.state.step).toBe(6);
    expect(saved.state.m.map((m) => m.length)).toEqual(w.params.map((p) => p.length));
    through.update(second.buf, second.targets, o);
    const resumed = new Learner('p', layout, encoder, w, cpu, adam, 'fused');
    resumed.restore(saved.weights, saved.state);
    resumed.update(second.buf, second.targets, o);
    expect(resumed.updates).toBe(12);
    resumed.weights.params.forEach((p, i) => expect(sameBits(p, through.weights.params[i])).toBe(true));
    const js = new Learner('p', layout, encoder, w, cpu, adam, 'js');
    js.restore(saved.weights, saved.state);
    js.update(second.buf, second.targets, o);
    js.weights.params.forEach((p, i) => p.forEach((v, j) => expect(Math.abs(v - through.weights.params[i][j])).toBeLessThan(1e-5)));
    // the acting model follows the updated weights
    const x = Float32Array.from({ length: IN + 0 }, (_, i) => i / 7);
    const mask = new Float32Array(A).fill(1);
    const acted = through.model.forwardRows(x, 1, mask).slice();
    const fresh = new FusedNet(through.weights).forward(x, 1, mask, A);
    expect(sameBits(acted, fresh)).toBe(true);
    js.dispose();
  });

  test('a non-finite advantage stops the update with a non-finite loss', async () => {
    const cpu = await selectBackend('cpu');
    const w = initMlp({ inputSize: IN, hidden: [8], outputSize: A + 1, activation: 'relu' }, 3, 0.5);
    const learner = new Learner('p', layout, encoder, w, cpu, adam, 'fused');
    const { buf, targets } = data(4);
    targets.advantages[5] = NaN;
    const r = learner.update(buf, targets, o);
    expect(Number.isFinite(r.loss)).toBe(false);
    expect(r.minibatches).toBeLessThan(6);
  });
});
