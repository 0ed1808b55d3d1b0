import { createRegistry } from '../../app/catalog';
import { selectBackend } from '../../src/train/backend';
import { ConfigError, resolveConfig } from '../../src/train/config';
import { multisetJaccard, shapeBufferReturns, shapeProposerReturns, similarityClusters } from '../../src/train/proposer-reward';
import { SampleBuffer } from '../../src/train/sample-buffer';
import { Trainer } from '../../src/train/trainer';

// Countdown's challenger actions: 90 + v adds the number v, 190 + t sets the target t.
const puzzle = (numbers: number[], target: number) => [...numbers.map((v) => 90 + v), 190 + target];
const opts = { repetition: 0.5, similarity: 0.75, invalidOutcomes: ['unsolvable'] };

describe('proposer reward: similarity and clusters', () => {
  test('multiset Jaccard counts repeats and ignores order', () => {
    expect(multisetJaccard(puzzle([3, 5, 7, 9], 24), puzzle([9, 7, 5, 3], 24))).toBe(1);
    expect(multisetJaccard(puzzle([3, 5, 7, 9], 24), puzzle([3, 5, 7, 9], 25))).toBeCloseTo(4 / 6, 12);
    expect(multisetJaccard([1, 1, 2], [1, 2, 2])).toBe(2 / 4); // {1,2} shared; union {1,1,2,2}
    expect(multisetJaccard([1, 1], [1])).toBe(1 / 2);
    expect(multisetJaccard([], [])).toBe(1);
    expect(multisetJaccard([1], [])).toBe(0);
  });

  test('clusters are the connected components of the similarity graph (single linkage chains)', () => {
    const items = [[1, 2, 3, 4], [1, 2, 3, 5], [1, 2, 6, 5], [7, 8, 9, 10]];
    // A~B 3/5, B~C 3/5, A~C 2/6: one chain at 0.6, nothing at 0.7
    const at = (t: number) => similarityClusters(items.length, (i, j) => multisetJaccard(items[i], items[j]) >= t);
    const c6 = at(0.6);
    expect(c6[0]).toBe(c6[1]);
    expect(c6[1]).toBe(c6[2]);
    expect(c6[3]).not.toBe(c6[0]);
    expect(new Set(at(0.7)).size).toBe(4);
  });
});

describe('proposer reward: a hand-computed batch', () => {
  // λ = 0.5, similarity ≥ 0.75, "unsolvable" invalid. Valid proposals B = 4:
  // P0 and P1 are the same puzzle (cluster of 2), P2 differs in the target only (4/6 < 0.75, alone),
  // P3 is invalid (unsolvable: keeps −1, left out), P4 has P3's actions but P3 does not count (alone).
  const batch = [
    { actions: puzzle([3, 5, 7, 9], 24), ret: 1, outcome: 'partly-solved' },
    { actions: puzzle([9, 7, 5, 3], 24), ret: 0.5, outcome: 'partly-solved' },
    { actions: puzzle([3, 5, 7, 9], 25), ret: 1, outcome: 'partly-solved' },
    { actions: puzzle([1, 1, 2, 2], 10), ret: -1, outcome: 'unsolvable' },
    { actions: puzzle([1, 1, 2, 2], 10), ret: 0.1, outcome: 'solved' },
  ];

  test('penalty λ·|C|/B on valid proposals, floored at 0; invalid ones keep the env return', () => {
    const r = shapeProposerReturns(batch, opts);
    // P0: 1 − 0.5·2/4 = 0.75; P1: 0.5 − 0.25 = 0.25; P2: 1 − 0.5·1/4 = 0.875; P3: −1; P4: max(0, 0.1 − 0.125) = 0
    expect(r.returns).toEqual([0.75, 0.25, 0.875, -1, 0]);
    expect(r.clusterSizes).toEqual([2, 2, 1, 0, 1]);
    expect(r.valid).toBe(4);
    expect(r.repeated).toBe(2);
    expect(r.meanPenalty).toBeCloseTo((0.25 + 0.25 + 0.125 + 0.125) / 4, 12);
  });

  test('without validity filtering the unsolvable proposal would join a cluster; with repetition 0 returns are untouched', () => {
    const unfiltered = shapeProposerReturns(batch, { ...opts, invalidOutcomes: [] });
    expect(unfiltered.valid).toBe(5);
    expect(unfiltered.clusterSizes).toEqual([2, 2, 1, 2, 2]);
    // −1 − 0.5·2/5 floored to 0: validity filtering is what keeps an unsolvable proposal at −1
    expect(unfiltered.returns[3]).toBe(0);
    const off = shapeProposerReturns(batch, { ...opts, repetition: 0 });
    expect(off.returns).toEqual(batch.map((p) => p.ret));
    expect(off.repeated).toBe(2);
  });

  test('a batch of identical proposals loses λ each; bad settings are refused', () => {
    const same = [0, 1, 2].map(() => ({ actions: puzzle([2, 3, 4, 5], 14), ret: 1, outcome: 'solved' }));
    expect(shapeProposerReturns(same, opts).returns).toEqual([0.5, 0.5, 0.5]);
    expect(shapeProposerReturns([], opts)).toMatchObject({ returns: [], valid: 0, meanPenalty: 0 });
    expect(() => shapeProposerReturns(same, { ...opts, similarity: 1.5 })).toThrow('similarity must be in [0, 1]');
    expect(() => shapeProposerReturns(same, { ...opts, repetition: -1 })).toThrow('repetition must be >= 0');
    expect(() => resolveConfig({ learners: { challenger: { reward: { repetition: -1 } } } })).toThrow(ConfigError);
    expect(() => resolveConfig({ learners: { challenger: { reward: { similarity: 2 } } } })).toThrow('learners.challenger.reward.similarity');
  });

  test("a learner's buffer: each trajectory is a proposal, its outcome found by episode", () => {
    const buf = new SampleBuffer(1, 1);
    batch.forEach((p, k) => {
      const t = buf.begin('challenger', 0, k, String(k));
      for (const a of p.actions) t.indices.push(buf.push(new Float32Array(1), new Float32Array(1), a, 0, 0));
      t.ret = p.ret;
    });
    buf.begin('challenger', 0, 5, '5'); // an empty trajectory is ignored
    const r = shapeBufferReturns(buf, batch.map((p) => p.outcome), opts);
    expect(buf.trajectories.map((t) => t.ret)).toEqual([0.75, 0.25, 0.875, -1, 0, 0]);
    expect(r.valid).toBe(4);
  });
});

describe('proposer reward in training', () => {
  test("the trainer shapes the challenger's returns before its update and reports what it did", async () => {
    const registry = createRegistry();
    const { env, params } = registry.make('countdown-v1', { rules: 'tinyzero', roles: 'challenger-solver', attempts: 2, contract: { count: 3 } });
    const t = await Trainer.create({
      env,
      params,
      registry,
      roles: [['challenger']],
      opponents: ['baselines'],
      schedule: { kind: 'simultaneous' },
      iterations: 1,
      // similarity 0: every valid proposal is a near-duplicate of every other, so each loses λ = 1 (floored at 0)
      config: resolveConfig({
        algorithm: 'grpo',
        groupSize: 1,
        seed: 4,
        episodesPerIteration: 16,
        hidden: [8],
        evalEvery: 0,
        baselines: ['greedy'],
        actions: { challenger: [[91, 190], [191, 1189]] },
        learners: { challenger: { reward: { repetition: 1, similarity: 0, invalidOutcomes: ['unsolvable'] } } },
      }),
      backend: await selectBackend('cpu'),
    });
    const m = (await t.step())!;
    const rets = t.entries[0].buf.trajectories.map((x) => x.ret);
    t.dispose();
    const unsolvable = m.outcomes.unsolvable ?? 0;
    expect(m.learners.challenger.reward).toEqual({ valid: 16 - unsolvable, repeated: 16 - unsolvable > 1 ? 16 - unsolvable : 0, meanPenalty: 16 - unsolvable ? 1 : 0 });
    expect(rets).toHaveLength(16);
    expect(rets.filter((x) => x === -1)).toHaveLength(unsolvable);
    expect(rets.every((x) => x === -1 || x === 0)).toBe(true);
    expect(16 - unsolvable).toBeGreaterThan(0); // some proposals were valid, so the shaping had something to do
  });
});
