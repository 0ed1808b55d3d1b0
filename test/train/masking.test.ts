import { Rng } from '../../src/core/rng';
import { fillMask, greedyIndex, maskedSoftmax, sampleIndex } from '../../src/train/masked-policy';
import { initMlp } from '../../src/train/mlp';
import { PolicyModel, PolicyLayoutError } from '../../src/train/policy-model';
import { fixtureEnv } from './fixtures/load';

describe('action masking', () => {
  test('masked softmax: concrete probabilities, illegal entries exactly 0', () => {
    const probs = new Float64Array(4);
    const lse = maskedSoftmax([1, 2, 100, 0], [1, 1, 0, 1], probs);
    const z = Math.exp(1) + Math.exp(2) + Math.exp(0);
    expect(probs[0]).toBeCloseTo(Math.exp(1) / z, 12);
    expect(probs[1]).toBeCloseTo(Math.exp(2) / z, 12);
    expect(probs[2]).toBe(0);
    expect(probs[3]).toBeCloseTo(1 / z, 12);
    expect(lse).toBeCloseTo(Math.log(z), 12);
  });

  test('offsets: logits and mask read from their own offsets', () => {
    const probs = new Float64Array(2);
    maskedSoftmax([9, 9, 0, 5], [0, 0, 1, 0], probs, 2, 2, 2);
    expect(Array.from(probs)).toEqual([1, 0]);
  });

  test('no legal entry is an error, not a NaN distribution', () => {
    expect(() => maskedSoftmax([1, 2], [0, 0], new Float64Array(2))).toThrow(/no legal action/);
  });

  test('sampling never returns an illegal index, even when its logit dominates', () => {
    const rng = Rng.fromSeed(3);
    const probs = new Float64Array(5);
    maskedSoftmax([1e4, 0, 1e4, -3, 0.5], [0, 1, 0, 1, 1], probs);
    const counts = [0, 0, 0, 0, 0];
    for (let i = 0; i < 20000; i++) counts[sampleIndex(probs, rng)]++;
    expect(counts[0]).toBe(0);
    expect(counts[2]).toBe(0);
    expect(counts[1] + counts[3] + counts[4]).toBe(20000);
    expect(counts[4]).toBeGreaterThan(counts[1]); // 0.5 > 0
    expect(greedyIndex(probs)).toBe(4);
  });

  test('fillMask maps legal actions through actionIndex and skips unindexed ones', () => {
    const mask = new Float32Array(4);
    const n = fillMask(mask, ['a', 'c', 'zzz', 'c'], (a) => ['a', 'b', 'c', 'd'].indexOf(a as string));
    expect(n).toBe(2);
    expect(Array.from(mask)).toEqual([1, 0, 1, 0]);
  });

  test('a policy model never picks an action the env does not list as legal', () => {
    const env = fixtureEnv('bandit-env');
    const layout = { env: 'bandit-v1', roles: ['agent'], roleInput: false, obsSize: 2, numActions: 4 };
    const w = initMlp({ inputSize: 2, hidden: [8], outputSize: 5, activation: 'relu' }, 1);
    // Make the never-legal action 3 the network's overwhelming favourite.
    const last = w.params[3];
    last[3] = 1e3;
    const model = new PolicyModel(layout, env.encoder!, w);
    const rng = Rng.fromSeed(11);
    for (let i = 0; i < 2000; i++) {
      const state = env.init({}, i);
      const legal = env.legalActions!(state, 0);
      model.prepare(env.observe(state, 0), legal, 'agent');
      const step = model.decide(i % 2 ? rng : null);
      expect(legal).toContain(step.action);
      expect(step.index).not.toBe(3);
    }
  });

  test('a model refuses a role it was not trained for, and an open action set', () => {
    const env = fixtureEnv('bandit-env');
    const layout = { env: 'bandit-v1', roles: ['agent'], roleInput: false, obsSize: 2, numActions: 4 };
    const model = new PolicyModel(layout, env.encoder!, initMlp({ inputSize: 2, hidden: [4], outputSize: 5, activation: 'tanh' }, 2));
    expect(() => model.prepare({ context: 0 }, [0, 1], 'spy')).toThrow(PolicyLayoutError);
    expect(() => model.prepare({ context: 0 }, null, 'agent')).toThrow(/finite legal action list/);
    expect(() => model.prepare({ context: 0 }, [99], 'agent')).toThrow(/none of the 1 legal actions/);
  });
});
