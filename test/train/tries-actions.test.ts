import { resolveActionSubset, probeLegalIndices } from '../../src/train/action-subset';
import { initMlp } from '../../src/train/mlp';
import { legalFromObservation, PolicyModel } from '../../src/train/policy-model';
import { SampleBuffer } from '../../src/train/sample-buffer';
import { cutTries } from '../../src/train/tries';
import { computeTargets } from '../../src/train/targets';
import { fixtureEnv } from './fixtures/load';

describe('tries (several independent attempts in one seat episode)', () => {
  const r = (step: number, seat: number, value: number, endsTry?: boolean) => ({ step, seat, value, ...(endsTry ? { endsTry } : {}) });

  test('a trajectory is cut at try-ending rewards, each try with the sum of its rewards', () => {
    const t = { indices: [4, 5, 6, 9, 10], steps: [0, 1, 2, 3, 4], role: 'solver', ret: 0.4, seat: 1 };
    const rewards = [r(1, 1, 1, true), r(2, 0, 5, true), r(3, 1, 0.25), r(3, 1, -0.25, true), r(4, 1, 0.1, true)];
    const out = cutTries([t], rewards, 10);
    expect(out.map((x) => [x.indices, x.ret])).toEqual([
      [[4, 5], 10],
      [[6, 9], 0],
      [[10], 1],
    ]);
  });

  test('rewards given together at the end credit earlier decisions (CURE: k programs judged at once)', () => {
    const t = { indices: [7, 8, 9], steps: [0, 1, 2], role: 'coder', ret: 0, seat: 0 };
    const atEnd = [0, 1, 2].map((k) => ({ ...r(5, 0, k / 2, true), credits: k }));
    expect(cutTries([t], atEnd, 1).map((x) => [x.indices, x.ret])).toEqual([
      [[7], 0],
      [[8], 0.5],
      [[9], 1],
    ]);
  });

  test('decisions after the last try form a piece with the rewards since; no try-ending reward keeps the trajectory whole', () => {
    const t = { indices: [1, 2, 3], steps: [0, 2, 5], role: 'solver', ret: 0.4, seat: 0 };
    expect(cutTries([t], [r(0, 0, 1, true), r(4, 0, 2)], 1).map((x) => [x.indices, x.ret])).toEqual([
      [[1], 1],
      [[2, 3], 2],
    ]);
    expect(cutTries([t], [r(0, 0, 1)], 1)).toEqual([t]);
    expect(cutTries([t], [r(0, 1, 1, true)], 1)).toEqual([t]);
    expect(cutTries([{ ...t, steps: undefined }], [r(0, 0, 1, true)], 1)).toEqual([{ ...t, steps: undefined }]);
  });

  test('grpo groups by start observation: tries at one puzzle compare with each other', () => {
    const buf = new SampleBuffer(2, 2);
    const m = new Float32Array([1, 1]);
    const puzzleA = new Float32Array([1, 0]);
    const puzzleB = new Float32Array([0, 1]);
    const add = (x: Float32Array, ret: number, group: string) => {
      const t = buf.begin('solver', 0, 0, group);
      t.indices.push(buf.push(x, m, 0, -0.7, 0));
      t.ret = ret;
    };
    add(puzzleA, 1, 'g');
    add(puzzleA, 0, 'g');
    add(puzzleB, 1, 'g');
    add(puzzleB, 1, 'g');
    const byStart = computeTargets(buf, { algorithm: 'rloo', gamma: 1, lambda: 1, normalizeAdvantages: false });
    expect(Array.from(byStart.advantages)).toEqual([1, -1, 0, 0]);
    const bySeed = computeTargets(buf, { algorithm: 'rloo', gamma: 1, lambda: 1, normalizeAdvantages: false, groupBy: 'seed' });
    // one group of four: 1 − 2/3, 0 − 1, 1 − 2/3, 1 − 2/3
    expect(Array.from(bySeed.advantages).map((x) => +x.toFixed(6))).toEqual([0.333333, -1, 0.333333, 0.333333]);
  });

  test("tries of one seat episode are one group by start even when the observation counts the attempts (Countdown's K attempts)", () => {
    const buf = new SampleBuffer(2, 2);
    const m = new Float32Array([1, 1]);
    // one solver episode, 3 attempts of 2 steps; the first observation of attempt k shows "k attempts done"
    const t = buf.begin('solver', 1, 0, '0');
    const steps: number[] = [];
    for (let k = 0; k < 3; k++) {
      t.indices.push(buf.push(new Float32Array([1, k / 3]), m, 0, -0.7, 0));
      t.indices.push(buf.push(new Float32Array([0.5, k / 3]), m, 1, -0.7, 0));
      steps.push(2 * k + 1, 2 * k + 2);
    }
    t.steps = steps;
    const cut = cutTries([t], [r(2, 1, 1, true), r(4, 1, 0, true), r(6, 1, 1, true)], 1);
    expect(cut.map((x) => [x.indices, x.ret, x.start])).toEqual([
      [[0, 1], 1, 0],
      [[2, 3], 0, 0],
      [[4, 5], 1, 0],
    ]);
    buf.trajectories.splice(0, 1, ...cut);
    // rloo over one group of three: 1 − 1/2, 0 − 1, 1 − 1/2 (each try alone would get 0)
    const adv = computeTargets(buf, { algorithm: 'rloo', gamma: 1, lambda: 1, normalizeAdvantages: false }).advantages;
    expect(Array.from(adv)).toEqual([0.5, 0.5, -1, -1, 0.5, 0.5]);
  });
});

describe('action subsets and legal indices from observations', () => {
  const env = fixtureEnv('bandit-env');

  test('explicit ranges per role, probed indices, and "all"', async () => {
    const params = env.resolveParams({});
    expect(await resolveActionSubset('all', env, params, ['agent'], async () => new Map())).toBeUndefined();
    expect(await resolveActionSubset({ agent: [[1, 2]], other: [[0, 0]] }, env, params, ['agent'], async () => new Map())).toEqual([1, 2]);
    const seen = await probeLegalIndices(env, params, 5, 1);
    expect([...seen.get('agent')!].sort()).toEqual([0, 1, 2]);
    expect(await resolveActionSubset('probe', env, params, ['agent'], async () => seen)).toEqual([0, 1, 2]);
    await expect(resolveActionSubset({ agent: [[0, 9]] }, env, params, ['agent'], async () => seen)).rejects.toThrow(/index 4 is outside bandit-v1's 0..3/);
  });

  test('a model with a subset maps output units back to actions and masks the rest', () => {
    const layout = { env: 'bandit-v1', roles: ['agent'], roleInput: false, obsSize: 2, numActions: 4, actions: [1, 2] };
    const w = initMlp({ inputSize: 2, hidden: [4], outputSize: 3, activation: 'relu' }, 1, 0);
    w.params[3][1] = 3; // unit 1 = action 2
    const model = new PolicyModel(layout, env.encoder!, w);
    model.prepare({ context: 0 }, [0, 1, 2], 'agent');
    expect(Array.from(model.mask)).toEqual([1, 1]);
    const step = model.decide(null);
    expect([step.index, step.action]).toEqual([1, 2]);
    expect(() => model.prepare({ context: 0 }, [0, 3], 'agent')).toThrow(/none of the 2 legal actions has an output/);
  });

  test('open action sets: legal indices from the observation', () => {
    expect(legalFromObservation(env.encoder!, { legal: [3, 5] })).toEqual([3, 5]);
    expect(legalFromObservation(env.encoder!, { legal: ['x'] })).toBeNull();
    expect(legalFromObservation(env.encoder!, { context: 0 })).toBeNull();
    expect(legalFromObservation({ ...env.encoder!, legal: undefined }, { legal: [3, 5] })).toBeNull();
    const layout = { env: 'bandit-v1', roles: ['agent'], roleInput: false, obsSize: 2, numActions: 4 };
    const model = new PolicyModel(layout, env.encoder!, initMlp({ inputSize: 2, hidden: [4], outputSize: 5, activation: 'relu' }, 1));
    model.prepare({ context: 1, legal: [2] }, null, 'agent');
    expect(model.decide(null).action).toBe(2);
  });
});
