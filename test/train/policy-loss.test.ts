import { Rng } from '../../src/core/rng';
import { policyLoss, type LossBatch } from '../../src/train/policy-loss';

const coefs = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01 };

function one(oldLogp: number, adv: number): LossBatch {
  return {
    size: 1,
    numActions: 3,
    masks: new Float32Array([1, 1, 0]),
    actions: new Int32Array([0]),
    oldLogp: new Float32Array([oldLogp]),
    advantages: new Float32Array([adv]),
    returns: new Float32Array([1.5]),
  };
}

describe('policy loss (hand-computed)', () => {
  const outputs = [0, 0, 5, 0.5]; // logits 0, 0, 5 (illegal), value .5

  test('ratio 1: pg = −A, H = ln 2, value loss ½(.5 − 1.5)²', () => {
    const grad = new Float32Array(4);
    const s = policyLoss(outputs, one(Math.log(0.5), 2), coefs, grad);
    expect(s.policyLoss).toBeCloseTo(-2, 6);
    expect(s.entropy).toBeCloseTo(Math.LN2, 6);
    expect(s.valueLoss).toBeCloseTo(0.5, 6);
    expect(s.loss).toBeCloseTo(-2 + 0.25 - 0.01 * Math.LN2, 6);
    expect(s.approxKl).toBeCloseTo(0, 6);
    expect(s.clipFraction).toBe(0);
    // d/dz0 = −2·(1 − .5) = −1; d/dz1 = −2·(0 − .5) = 1; illegal logit 0; d/dV = .5·(.5 − 1.5)
    expect(Array.from(grad).map((x) => +x.toFixed(6))).toEqual([-1, 1, 0, -0.5]);
  });

  test('ratio 1.5 with A > 0 is clipped: pg = −1.2, no policy gradient', () => {
    const grad = new Float32Array(4);
    const s = policyLoss(outputs, one(Math.log(0.5) - Math.log(1.5), 1), coefs, grad);
    expect(s.policyLoss).toBeCloseTo(-1.2, 6);
    expect(s.clipFraction).toBe(1);
    expect(s.approxKl).toBeCloseTo(0.5 - Math.log(1.5), 6);
    expect(Math.abs(grad[0]) + Math.abs(grad[1]) + Math.abs(grad[2])).toBeLessThan(1e-7);
  });

  test('ratio 1.5 with A < 0 is not clipped (pessimistic bound): pg = 1.5, gradient flows', () => {
    const grad = new Float32Array(4);
    const s = policyLoss(outputs, one(Math.log(0.5) - Math.log(1.5), -1), coefs, grad);
    expect(s.policyLoss).toBeCloseTo(1.5, 6);
    expect(s.clipFraction).toBe(0);
    expect(grad[0]).toBeCloseTo(0.75, 6);
    expect(grad[1]).toBeCloseTo(-0.75, 6);
  });

  test('an action the mask forbids is a loud error', () => {
    const b = one(0, 1);
    b.actions[0] = 2;
    expect(() => policyLoss(outputs, b, coefs, new Float32Array(4))).toThrow(/marks illegal/);
  });
});

describe('policy loss gradient matches finite differences', () => {
  test('random batch with clipped and unclipped samples', () => {
    const rng = Rng.fromSeed(5);
    const B = 6;
    const A = 4;
    const outputs = Float64Array.from({ length: B * (A + 1) }, () => rng.next() * 2 - 1);
    const masks = new Float32Array(B * A);
    const actions = new Int32Array(B);
    for (let i = 0; i < B; i++) {
      for (let j = 0; j < A; j++) masks[i * A + j] = j === 0 || rng.next() < 0.6 ? 1 : 0;
      const legal = [0, 1, 2, 3].filter((j) => masks[i * A + j] > 0);
      actions[i] = legal[rng.int(legal.length)];
    }
    const batch: LossBatch = {
      size: B,
      numActions: A,
      masks,
      actions,
      oldLogp: Float32Array.from({ length: B }, () => -0.5 - rng.next()),
      advantages: Float32Array.from({ length: B }, () => rng.next() * 4 - 2),
      returns: Float32Array.from({ length: B }, () => rng.next()),
    };
    const c = { clip: 0.3, valueCoef: 0.7, entropyCoef: 0.05 };
    const grad = new Float32Array(outputs.length);
    policyLoss(outputs, batch, c, grad);
    const h = 1e-5;
    const scratch = new Float32Array(outputs.length);
    for (let k = 0; k < outputs.length; k++) {
      const up = Float64Array.from(outputs);
      const down = Float64Array.from(outputs);
      up[k] += h;
      down[k] -= h;
      const numeric = (policyLoss(up, batch, c, scratch).loss - policyLoss(down, batch, c, scratch).loss) / (2 * h);
      expect(grad[k]).toBeCloseTo(numeric, 4);
    }
  });
});
