/**
 * The acting forward pass (MlpForward): bit for bit the naive float32 loop, for one row and for
 * batches (each row independent of the batch it comes in).
 */
import { Rng } from '../../src/core/rng';
import { initMlp, layerSizes, MlpForward, type MlpWeights } from '../../src/train/mlp';

/** The reference: out[j] += x[i] * W[i][j] into a Float32Array, zeros of x skipped, i ascending. */
function naive(w: MlpWeights, x: Float32Array): Float32Array {
  const sizes = layerSizes(w.spec);
  let input = x;
  for (let l = 0; l + 1 < sizes.length; l++) {
    const out = Float32Array.from(w.params[2 * l + 1]);
    for (let i = 0; i < sizes[l]; i++) {
      if (input[i] === 0) continue;
      for (let j = 0; j < sizes[l + 1]; j++) out[j] += input[i] * w.params[2 * l][i * sizes[l + 1] + j];
    }
    if (l + 2 < sizes.length) for (let j = 0; j < out.length; j++) out[j] = w.spec.activation === 'tanh' ? Math.tanh(out[j]) : Math.max(0, out[j]);
    input = out;
  }
  return input;
}

function inputs(rows: number, n: number, seed: number): Float32Array {
  const rng = Rng.fromSeed(seed);
  const x = new Float32Array(rows * n);
  for (let i = 0; i < x.length; i++) if (rng.next() < 0.4) x[i] = rng.next() * 4 - 2; // sparse, like one-hot encodings
  return x;
}

const sameBits = (a: Float32Array, b: Float32Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('MlpForward', () => {
  test.each([
    ['relu', [37, 20], 11],
    ['tanh', [16], 9],
    ['relu', [8, 8, 8], 3],
  ] as const)('%s %j: one row and a batch of 7 equal the naive float32 loop bit for bit', (activation, hidden, out) => {
    const w = initMlp({ inputSize: 13, hidden, outputSize: out, activation }, 4);
    // non-zero biases, so their place in the sum matters
    w.params.forEach((p, i) => i % 2 === 1 && p.forEach((_, j) => (p[j] = ((j % 5) - 2) * 0.37)));
    const f = new MlpForward(w);
    const x = inputs(7, 13, 1);
    const batch = f.run(x, 7).slice();
    expect(batch.length).toBe(7 * out);
    for (let r = 0; r < 7; r++) {
      const row = x.subarray(r * 13, (r + 1) * 13);
      const ref = naive(w, row);
      expect(sameBits(batch.subarray(r * out, (r + 1) * out), ref)).toBe(true);
      expect(sameBits(f.run(row).slice(), ref)).toBe(true);
    }
  });

  test('with the needed outputs marked: those and the value bit for bit, groups of eight with none needed read 0', () => {
    const A = 27; // 3 groups of 8, then 3 more units and the value
    const w = initMlp({ inputSize: 13, hidden: [16], outputSize: A + 1, activation: 'relu' }, 5, 0.7);
    w.params[3].fill(0.25); // output biases: uncomputed outputs would read 0.25 + ..., not 0
    const f = new MlpForward(w);
    const x = inputs(3, 13, 3);
    const needed = new Float32Array(3 * A);
    needed[0 * A + 2] = 1; // row 0: group 0 only
    needed[1 * A + 17] = 1; // row 1: group 2 and a unit after the groups
    needed[1 * A + 25] = 1;
    needed[2 * A + 26] = 1; // row 2: only a unit after the groups
    const out = f.run(x, 3, needed, A).slice();
    for (let r = 0; r < 3; r++) {
      const ref = naive(w, x.subarray(r * 13, (r + 1) * 13));
      const row = out.subarray(r * (A + 1), (r + 1) * (A + 1));
      for (let g = 0; g < 3; g++) {
        const wanted = needed.subarray(r * A + g * 8, r * A + g * 8 + 8).some((v) => v !== 0);
        const part = row.subarray(g * 8, g * 8 + 8);
        if (wanted) expect(sameBits(part, ref.subarray(g * 8, g * 8 + 8))).toBe(true);
        else expect([...part]).toEqual(new Array(8).fill(0));
      }
      expect(sameBits(row.subarray(24), ref.subarray(24))).toBe(true); // the units after the groups and the value
    }
  });

  test('after a large batch, smaller calls return just their rows', () => {
    const w = initMlp({ inputSize: 5, hidden: [12], outputSize: 3, activation: 'relu' }, 2);
    const f = new MlpForward(w);
    const x = inputs(9, 5, 2);
    f.run(x, 9);
    expect(f.run(x, 2).length).toBe(6);
    expect(sameBits(f.run(x.subarray(0, 5)).slice(), naive(w, x.subarray(0, 5)))).toBe(true);
  });
});
