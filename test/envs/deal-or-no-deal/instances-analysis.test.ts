import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  aggregate,
  analyze,
  actionIndex,
  actionOf,
  DEFAULT_INSTANCES,
  encoder,
  episodeSummary,
  generateInstance,
  instanceProblem,
  nashSplit,
  NUM_ACTIONS,
  parseInstanceLine,
  validInstanceCount,
  type Instance,
} from '../../../envs/deal-or-no-deal';
import { BARGAINING_INSTANCES_1000 } from '../../../envs/deal-or-no-deal/data/instances';
import { Rng } from '../../../src/core/rng';
import { INSTANCE0, play, start } from './helpers';

const inst0 = parseInstanceLine(INSTANCE0) as Instance;

describe('instances', () => {
  test('the generated module holds the OpenSpiel file line for line; every instance is valid', () => {
    const txt = readFileSync(join(__dirname, '../../../envs/deal-or-no-deal/data/bargaining_instances1000.txt'), 'utf8');
    expect(BARGAINING_INSTANCES_1000).toEqual(txt.split('\n').filter(Boolean));
    expect(DEFAULT_INSTANCES).toHaveLength(1000);
    for (const i of DEFAULT_INSTANCES) expect(instanceProblem(i.pool, i.values)).toBeNull();
    expect(DEFAULT_INSTANCES[0]).toEqual({ pool: [1, 2, 3], values: [[8, 1, 0], [4, 0, 2]], line: INSTANCE0, index: 0 });
  });

  test('constraints: pool 1..7 per type and 5..7 in all, totals 10, none worthless to both, one valued by both', () => {
    expect(instanceProblem([1, 2, 5], [[8, 1, 0], [4, 3, 0]])).toMatch(/5..7 items/);
    expect(instanceProblem([0, 2, 4], [[0, 5, 0], [0, 1, 2]])).toMatch(/pool counts/);
    expect(instanceProblem([1, 2, 3], [[8, 1, 0], [4, 3, 0]])).toMatch(/worthless|valued by someone/);
    expect(instanceProblem([1, 2, 3], [[10, 0, 0], [0, 2, 2]])).toMatch(/one type by both/);
    expect(parseInstanceLine('1,2,3 8,1,0')).toMatch(/must look like/);
  });

  test('the generator draws uniformly from the 5,793 valid instances', () => {
    expect(validInstanceCount()).toBe(5793);
    const rng = Rng.fromSeed(3);
    const seen = new Set<string>();
    for (let k = 0; k < 300; k++) {
      const g = generateInstance(rng);
      expect(instanceProblem(g.pool, g.values)).toBeNull();
      seen.add(g.line);
    }
    expect(seen.size).toBeGreaterThan(280);
    expect(start({ instances: 'generated' }, 4).state.inst.index).toBeNull();
    expect(validInstanceCount(true)).toBe(4793);
    const defaults = new Set(DEFAULT_INSTANCES.map((i) => i.line));
    for (let seed = 0; seed < 200; seed++) expect(defaults.has(start({ instances: 'novel' }, seed).state.inst.line)).toBe(false);
  });
});

describe('analysis', () => {
  test('Pareto frontier, best joint score and Nash split of instance 0', () => {
    const a = analyze(inst0);
    expect(a.splits).toHaveLength(24);
    // Hats are worth something only to seat 0 and balls only to seat 1; the book goes either way.
    expect([...a.pareto].sort((x, y) => x - y)).toEqual([15, 16]); // [0,2,0] -> (2, 10); [1,2,0] -> (10, 6)
    expect(a.score.get(16)).toEqual([10, 6]);
    expect(a.maxJoint).toBe(16);
    expect(nashSplit(inst0, 0)).toBe(16); // 10 * 6 = 60 beats 2 * 10 = 20
    expect(nashSplit(inst0, 1)).toBe(16); // joint welfare 16
    // Zero-sum: no split is equal here (seat 0 scores 0..2 or 8..10), so the Nash split falls back
    // to the most equal one, a gap of 2 (e.g. seat 0 keeps hats and balls: (2, 4)).
    const zeroSum = a.score.get(nashSplit(inst0, -1))!;
    expect(Math.min(...a.splits.map((id) => Math.abs(a.score.get(id)![0] - a.score.get(id)![1])))).toBe(2);
    expect(Math.abs(zeroSum[0] - zeroSum[1])).toBe(2);
  });

  test('episode summary and play summary', () => {
    const { env, state } = start({ instance: INSTANCE0 });
    const deal = play(env, state, [16, 120]).state;
    const s1 = episodeSummary(deal);
    expect(s1).toMatchObject({ agreement: true, deal: [[1, 2, 0], [0, 0, 3]], scores: [10, 6], joint: 16, maxJoint: 16, pareto: true, turns: 1 });
    const s2 = episodeSummary(play(env, state, [1, 120]).state); // (8, 6): book+balls... not Pareto (hats wasted on seat 1)
    expect(s2).toMatchObject({ scores: [8, 6], pareto: false, joint: 14 });
    const s3 = episodeSummary(play(env, state, Array(10).fill(0)).state);
    expect(s3).toMatchObject({ agreement: false, deal: null, scores: [0, 0], pareto: false, outcome: 'no-agreement' });
    expect(env.summary(deal)).toEqual(s1);
    expect(aggregate([s1, s2, s3])).toEqual({
      episodes: 3,
      agreementRate: 2 / 3,
      meanScores: [6, 4],
      meanJoint: 10,
      jointOfMax: 30 / 48,
      paretoRate: 0.5,
      paretoOfAll: 1 / 3,
      meanTurns: 4,
    });
  });
});

describe('encoder', () => {
  test('fixed size; own values, pool, last offer and turn info; indices cover both protocols', () => {
    const { env, state } = start({ instance: INSTANCE0, coop: 0.5 });
    const s = play(env, state, [85]).state; // seat 0 keeps the 3 balls
    const x = encoder.encode(env.observe(s, 1), new Float32Array(encoder.size));
    expect(x).toHaveLength(144);
    expect(x[0]).toBe(1); // openspiel
    expect(x[2]).toBe(1); // seat 1's turn
    expect([x[4 + 1], x[12 + 2], x[20 + 3]]).toEqual([1, 1, 1]); // pool one-hot 1, 2, 3
    expect([x[28 + 4], x[39 + 0], x[50 + 2]]).toEqual([1, 1, 1]); // seat 1's values 4, 0, 2
    expect(x[67]).toBe(1); // an offer is on the table
    expect(x[68]).toBe(0); // made by the partner
    expect(x[96]).toBeCloseTo(0.4); // accepting gives book + 2 hats, worth 4 to seat 1
    expect(x[121]).toBeCloseTo(0.1); // 1 of 10 turns used
    expect(x[122 + 9]).toBe(1); // 9 turns left
    expect(x[133]).toBe(0.5); // coop
    // The encoding comes from the observation only: seat 0's view differs in the values block.
    const y = encoder.encode(env.observe(s, 0), new Float32Array(encoder.size));
    expect(y[28 + 8]).toBe(1);
    expect(NUM_ACTIONS).toBe(364);
    for (let i = 0; i < NUM_ACTIONS; i++) expect(actionIndex(actionOf(i))).toBe(i);
    expect(actionIndex({ type: 'message', text: 'free text' })).toBe(-1);
    expect(actionIndex(121.5)).toBe(-1);
    expect(actionIndex(300)).toBe(300); // an index stands for itself (observation legal lists)
    expect(actionIndex(364)).toBe(-1);
  });
});

describe('private information', () => {
  test('variants change only the owner\'s values (same pool, still valid) and pending selection', () => {
    const { env, state } = start({ instance: INSTANCE0 });
    const variants = env.privateVariants!(state, 1, Rng.fromSeed(1));
    expect(variants.length).toBeGreaterThan(0);
    for (const v of variants) {
      expect(v.inst.pool).toEqual([1, 2, 3]);
      expect(v.inst.values[0]).toEqual([8, 1, 0]);
      expect(v.inst.values[1]).not.toEqual([4, 0, 2]);
      expect(instanceProblem(v.inst.pool, v.inst.values)).toBeNull();
      expect(env.observe(v, 0)).toEqual(env.observe(state, 0));
      expect(env.observe(v, 'public')).toEqual(env.observe(state, 'public'));
      expect(env.observe(v, 1)).not.toEqual(env.observe(state, 1));
    }
  });
});
