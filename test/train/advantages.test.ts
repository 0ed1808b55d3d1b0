import { discountedReturns, gae, groupAdvantages, normalize } from '../../src/train/advantages';
import { SampleBuffer } from '../../src/train/sample-buffer';
import { computeTargets } from '../../src/train/targets';

describe('GAE', () => {
  test('hand-computed: rewards [0,0,1], values [.5,.6,.7], gamma .9, lambda .8', () => {
    // δ2 = 1 − .7 = .3; δ1 = .9·.7 − .6 = .03; δ0 = .9·.6 − .5 = .04
    // A2 = .3; A1 = .03 + .72·.3 = .246; A0 = .04 + .72·.246 = .21712
    const r = gae([0, 0, 1], [0.5, 0.6, 0.7], 0.9, 0.8);
    expect(Array.from(r.advantages).map((x) => +x.toFixed(10))).toEqual([0.21712, 0.246, 0.3]);
    expect(Array.from(r.returns).map((x) => +x.toFixed(10))).toEqual([0.71712, 0.846, 1]);
  });

  test('bootstrap value of a cut trajectory: δ = 1 + .5·2 − .5 = 1.5', () => {
    expect(gae([1], [0.5], 0.5, 0.95, 2).advantages[0]).toBeCloseTo(1.5, 12);
  });

  test('lambda 1 and zero values give discounted returns; lambda 0 gives one-step TD errors', () => {
    const r = gae([1, 2, 3], [0, 0, 0], 0.5, 1);
    expect(Array.from(r.advantages)).toEqual([1 + 0.5 * 2 + 0.25 * 3, 2 + 0.5 * 3, 3]);
    expect(Array.from(discountedReturns([1, 2, 3], 0.5))).toEqual([2.75, 3.5, 3]);
    const td = gae([0, 1], [2, 3], 1, 0);
    expect(Array.from(td.advantages)).toEqual([1, -2]); // 0 + 3 − 2; 1 + 0 − 3
  });

  test('length mismatch is an error', () => {
    expect(() => gae([1, 2], [1], 1, 1)).toThrow(/2 rewards but 1 values/);
  });
});

describe('group-relative baselines', () => {
  test('GRPO: (R − mean) / (sample std + 1e-4)', () => {
    const a = groupAdvantages([1, 0, 0, 1], ['g', 'g', 'g', 'g'], 'grpo');
    // mean .5, std √(4·.25/3) = .57735; .5 / .57745 = .86588
    expect(a[0]).toBeCloseTo(0.8658754297607016, 10);
    expect(a[1]).toBeCloseTo(-0.8658754297607016, 10);
    const b = groupAdvantages([2, 4, 9], [7, 7, 7], 'grpo');
    // mean 5, std √((9 + 1 + 16)/2) = 3.60555
    expect(b[0]).toBeCloseTo(-0.8320272180547876, 10);
    expect(b[1]).toBeCloseTo(-0.27734240601826254, 10);
    expect(b[2]).toBeCloseTo(1.1093696240730502, 10);
  });

  test('RLOO: R_i − mean of the others', () => {
    const a = groupAdvantages([3, 1, 2], ['x', 'x', 'x'], 'rloo');
    expect(Array.from(a)).toEqual([1.5, -1.5, 0]); // 3 − 1.5; 1 − 2.5; 2 − 2
  });

  test('groups are separate; singletons and constant groups get 0', () => {
    const a = groupAdvantages([1, 5, 3, 5, 100], ['a', 'b', 'a', 'b', 'c'], 'rloo');
    expect(Array.from(a)).toEqual([-2, 0, 2, 0, 0]);
    const g = groupAdvantages([1, 5, 3, 5, 100], ['a', 'b', 'a', 'b', 'c'], 'grpo');
    expect(g[0]).toBeCloseTo(-1 / (Math.SQRT2 + 1e-4), 10);
    expect(g[2]).toBeCloseTo(1 / (Math.SQRT2 + 1e-4), 10);
    expect([g[1], g[3], g[4]]).toEqual([0, 0, 0]);
  });

  test('normalize: mean 0, population std 1', () => {
    const x = new Float64Array([1, 2, 3, 4]);
    normalize(x);
    const sd = Math.sqrt(1.25);
    [-1.5 / sd, -0.5 / sd, 0.5 / sd, 1.5 / sd].forEach((v, i) => expect(x[i]).toBeCloseTo(v, 7));
  });
});

describe('targets over a buffer with interleaved trajectories', () => {
  function buffer(): SampleBuffer {
    const buf = new SampleBuffer(1, 2);
    const x = new Float32Array(1);
    const m = new Float32Array([1, 1]);
    const a = buf.begin('p', 0, 0, '0');
    const b = buf.begin('p', 1, 0, '0');
    // seats 0 and 1 alternate: samples 0 (a), 1 (b), 2 (a), 3 (b)
    a.indices.push(buf.push(x, m, 0, -0.7, 0.5));
    b.indices.push(buf.push(x, m, 1, -0.7, 0.25));
    a.indices.push(buf.push(x, m, 0, -0.7, 0.5));
    b.indices.push(buf.push(x, m, 1, -0.7, 0));
    a.ret = 1;
    b.ret = -1;
    return buf;
  }

  test('ppo: GAE per seat over its own decisions (gamma 1, lambda 1)', () => {
    const t = computeTargets(buffer(), { algorithm: 'ppo', gamma: 1, lambda: 1, normalizeAdvantages: false });
    // seat 0: returns 1, 1; advantages 1 − .5 = .5 each. seat 1: returns −1, −1; advantages −1.25, −1.
    expect(Array.from(t.returns)).toEqual([1, -1, 1, -1]);
    expect(Array.from(t.advantages)).toEqual([0.5, -1.25, 0.5, -1]);
  });

  test('rloo: every decision of a trajectory gets its group-relative advantage', () => {
    const t = computeTargets(buffer(), { algorithm: 'rloo', gamma: 1, lambda: 1, normalizeAdvantages: false });
    expect(Array.from(t.advantages)).toEqual([2, -2, 2, -2]);
    expect(Array.from(t.returns)).toEqual([1, -1, 1, -1]);
  });
});
