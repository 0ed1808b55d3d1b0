/**
 * The curriculum challenger over the generator's parameters (league/curriculum/param-challenger)
 * and its Countdown knobs (bench/learning/curriculum/arms): it starts from the generator's own
 * distribution (the puzzles it poses before any update are distributed like the generator's), it
 * moves toward the knob at the solver's frontier even when that knob starts near probability 0,
 * and the statistics it reads (uncertainty, repeated puzzles) are computed as documented.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../../app/catalog';
import type { Env } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { difficultyFromEffort, frontierAggregate, knobStats, ParamChallenger, uncertainty, type KnobStats } from '../../league/curriculum/param-challenger';
import { allocateSources } from '../../src/train/episode-sources';
import { BASE, generatorShares, knobEfforts, KNOBS } from '../../bench/learning/curriculum/arms';
import { CHALLENGER_DEFAULTS, challengerOptions, runCurriculum } from '../../bench/learning/curriculum/experiment';
import { real } from '../../bench/learning/flags';

const env = createRegistry().env('countdown-v1') as Env;
const SHARES = generatorShares(env, KNOBS, 600);

interface Puzzle {
  numbers: number[];
  target: number;
}

/** Deals `n` puzzles: the i-th from the source whose cumulative weight covers (i + ½) / n (an exact allocation). */
function deal(sources: readonly { weight: number; params?: Params }[], n: number): Puzzle[] {
  const total = sources.reduce((t, s) => t + s.weight, 0);
  const out: Puzzle[] = [];
  for (let i = 0; i < n; i++) {
    const u = ((i + 0.5) / n) * total;
    let acc = 0;
    const s = sources.find((x) => (acc += x.weight) >= u) ?? sources[sources.length - 1];
    out.push(env.summary(env.init(s.params!, 1000 + i)) as unknown as Puzzle);
  }
  return out;
}

/** Share of puzzles with 3, 4 and 5 numbers, and of targets above 99. */
function histogram(ps: readonly Puzzle[]): number[] {
  const share = (f: (p: Puzzle) => boolean) => ps.filter(f).length / ps.length;
  return [share((p) => p.numbers.length === 3), share((p) => p.numbers.length === 4), share((p) => p.numbers.length === 5), share((p) => p.target > 99)];
}

describe('param challenger warm start', () => {
  test('its puzzles before any update are distributed like the generator\'s own', () => {
    const challenger = new ParamChallenger(KNOBS, SHARES, { epsilon: 0 });
    const mine = histogram(deal(challenger.sources(env, BASE), 1200));
    const generator = histogram(deal([{ weight: 1, params: env.resolveParams(BASE) }], 1200));
    expect(generator[2]).toBe(0); // the generator never deals 5 numbers: the hard distribution is out of its reach
    for (let k = 0; k < mine.length; k++) expect(Math.abs(mine[k] - generator[k])).toBeLessThan(0.05);
  });

  test('the initial policy is the generator\'s shares; the exploration floor adds epsilon of uniform', () => {
    const shares = SHARES;
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(shares.map((x, i) => (x > 0 ? KNOBS[i].label : null)).filter(Boolean)).toEqual(['n3-t1-99', 'n4-t1-99']);
    const c = new ParamChallenger(KNOBS, shares, { epsilon: 0.06 });
    c.policy().forEach((p, i) => expect(Math.abs(p - shares[i])).toBeLessThan(1e-3));
    c.probabilities().forEach((p, i) => expect(p).toBeCloseTo(0.94 * c.policy()[i] + 0.01, 9));
  });

  test('bad initial probabilities and a saved state that does not fit are refused', () => {
    expect(() => new ParamChallenger(KNOBS, [1])).toThrow(/6 knobs, 1 initial/);
    expect(() => new ParamChallenger(KNOBS, KNOBS.map(() => 0))).toThrow(/not all 0/);
    expect(() => new ParamChallenger(KNOBS, KNOBS.map((_, i) => (i ? 1 : -1)))).toThrow(/>= 0/);
    const c = new ParamChallenger(KNOBS, SHARES);
    expect(() => generatorShares(env, KNOBS.slice(1), 50)).toThrow(/outside every knob/);
    expect(() => c.restore({ theta: [0, 0] })).toThrow(/does not fit/);
    expect(() => c.restore({ theta: KNOBS.map(() => NaN) })).toThrow(/does not fit/);
    c.restore({ theta: KNOBS.map((_, i) => i) });
    expect(c.state().theta).toEqual(KNOBS.map((_, i) => i));
  });
});

describe('param challenger update', () => {
  const five = KNOBS.findIndex((k) => k.label === 'n5-t1-99');
  const stats = (best: number, others: number): Record<string, KnobStats> => Object.fromEntries(KNOBS.map((k, i) => [k.label, { puzzles: 4, uncertainty: i === five ? best : others, repeated: 0 }]));

  test('a knob the generator never deals grows when it is the one at the solver\'s frontier', () => {
    const c = new ParamChallenger(KNOBS, SHARES);
    expect(c.policy()[five]).toBeLessThan(1e-3);
    for (let i = 0; i < 30; i++) c.update(stats(0.9, 0.1));
    expect(c.policy()[five]).toBeGreaterThan(0.5);
  });

  test('knobs without puzzles this iteration keep their logits; with no puzzles at all nothing moves', () => {
    const c = new ParamChallenger(KNOBS, SHARES);
    const before = c.state().theta;
    expect(Number.isNaN(c.update({}).baseline)).toBe(true);
    expect(c.state().theta).toEqual(before);
    const only = { [KNOBS[0].label]: { puzzles: 3, uncertainty: 0.8, repeated: 0 }, [KNOBS[2].label]: { puzzles: 3, uncertainty: 0.2, repeated: 0 } };
    const { rewards } = c.update(only);
    expect(rewards.filter((r) => r !== null)).toHaveLength(2);
    const after = c.state().theta;
    expect(after[0] - after[2]).toBeGreaterThan(before[0] - before[2] + 0.2);
    // the shift that keeps the top logit at 0 moves every logit alike: the untouched knobs keep their gaps
    expect(after[4] - after[5]).toBeCloseTo(before[4] - before[5], 9);
  });

  test('the repetition penalty lowers a knob\'s reward', () => {
    const c = new ParamChallenger(KNOBS, SHARES, { repetition: 0.5 });
    const r = c.rewards({ [KNOBS[0].label]: { puzzles: 4, uncertainty: 0.75, repeated: 0.5 } });
    expect(r[0]).toBeCloseTo(0.5, 9);
    expect(r.slice(1).every((x) => x === null)).toBe(true);
  });
});

describe('the difficulty term of the challenger\'s reward', () => {
  // the knobs' exact-solver efforts as measured in the reference table (n3 22, n4 ~80, n5 401 and 779 nodes)
  const D = difficultyFromEffort([22, 22, 79, 82, 401, 779]);
  const [n3, , n4, , n5, n5big] = [0, 1, 2, 3, 4, 5];
  const at = (u: readonly number[]): Record<string, KnobStats> => Object.fromEntries(KNOBS.map((k, i) => [k.label, { puzzles: 4, uncertainty: u[i], repeated: 0 }]));
  const fives = (c: ParamChallenger) => c.policy()[n5] + c.policy()[n5big];

  test('at equal uncertainty the harder knob is paid more; without the term (w = 0) they are paid alike', () => {
    const c = new ParamChallenger(KNOBS, SHARES, { difficulty: D, difficultyWeight: 0.8 });
    const r = c.rewards(at([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]));
    expect(r[n3]).toBeCloseTo(0.5 * 0.2, 9); // the easiest knob keeps 1 − w of its uncertainty
    expect(r[n5big]).toBeCloseTo(0.5, 9); // the hardest all of it
    expect(r[n5]!).toBeGreaterThan(r[n4]!);
    expect(r[n4]!).toBeGreaterThan(r[n3]!);
    expect(c.scale.map((x, i) => x - (0.2 + 0.8 * D[i])).every((x) => Math.abs(x) < 1e-12)).toBe(true);
    const plain = new ParamChallenger(KNOBS, SHARES, { difficulty: D, difficultyWeight: 0 });
    expect(new Set(plain.rewards(at([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]))).size).toBe(1);
    expect(new ParamChallenger(KNOBS, SHARES).rewards(at([0.3, 0.3, 0.3, 0.3, 0.3, 0.3]))).toEqual(KNOBS.map(() => 0.3));
  });

  test('once the solver is at its frontier on easier knobs, the 5-number knobs the generator never deals take over; without the term they do not', () => {
    // the solver half-succeeds on 3 and 4 numbers and is merely uncertain on 5 (it succeeds ~15% of the time)
    const u = [0.7, 0.5, 0.6, 0.5, 0.4, 0.35];
    const withTerm = new ParamChallenger(KNOBS, SHARES, { difficulty: D, difficultyWeight: 0.9, puzzles: 32, lr: 2 });
    const without = new ParamChallenger(KNOBS, SHARES, { difficulty: D, difficultyWeight: 0, puzzles: 32, lr: 2 });
    const start = fives(withTerm);
    expect(start).toBeLessThan(1e-3);
    for (let i = 0; i < 100; i++) {
      withTerm.update(at(u));
      without.update(at(u));
    }
    expect(fives(withTerm)).toBeGreaterThan(0.9);
    expect(fives(without)).toBeLessThan(start);
  });

  test('a solved knob loses mass however hard it is (the term multiplies the uncertainty, it adds nothing)', () => {
    const c = new ParamChallenger(KNOBS, KNOBS.map(() => 1), { difficulty: D, difficultyWeight: 1 });
    const before = c.policy()[n5big];
    const { rewards } = c.update(at([0.6, 0.6, 0.6, 0.6, 0.6, 0]));
    expect(rewards[n5big]).toBe(0);
    expect(c.policy()[n5big]).toBeLessThan(before);
    for (let i = 0; i < 50; i++) c.update(at([0.6, 0.6, 0.6, 0.6, 0.6, 0]));
    expect(c.policy()[n5big]).toBeLessThan(0.01);
  });

  test('stats that are not finite numbers are not rewarded and leave the logits finite', () => {
    const c = new ParamChallenger(KNOBS, SHARES, { difficulty: D, difficultyWeight: 0.5 });
    const bad = { ...at([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]), [KNOBS[n5].label]: { puzzles: 4, uncertainty: NaN, repeated: 0 }, [KNOBS[n4].label]: { puzzles: 4, uncertainty: 0.5, repeated: Infinity } };
    const { rewards } = c.update(bad);
    expect(rewards[n5]).toBeNull();
    expect(rewards[n4]).toBeNull();
    expect(c.state().theta.every(Number.isFinite)).toBe(true);
  });

  test('difficulty from effort: log scale, easiest 0, hardest 1; bad efforts refused', () => {
    expect(D[n3]).toBe(0);
    expect(D[n5big]).toBe(1);
    expect(D[n4]).toBeGreaterThan(0.3);
    expect(D[n4]).toBeLessThan(D[n5]);
    expect(difficultyFromEffort([10, Math.sqrt(10 * 1000), 1000])[1]).toBeCloseTo(0.5, 9);
    expect(difficultyFromEffort([7, 7, 7])).toEqual([0, 0, 0]);
    for (const bad of [[], [1, 0], [1, -2], [1, NaN], [1, Infinity]]) expect(() => difficultyFromEffort(bad)).toThrow(/finite and > 0/);
  });

  test('bad difficulty settings are refused', () => {
    expect(() => new ParamChallenger(KNOBS, SHARES, { difficultyWeight: 0.5 })).toThrow(/needs the knobs' difficulty/);
    expect(() => new ParamChallenger(KNOBS, SHARES, { difficulty: D, difficultyWeight: 1.5 })).toThrow(/difficultyWeight must be in \[0, 1\]/);
    expect(() => new ParamChallenger(KNOBS, SHARES, { difficulty: D, difficultyWeight: NaN })).toThrow(/difficultyWeight/);
    expect(() => new ParamChallenger(KNOBS, SHARES, { difficulty: D.slice(1), difficultyWeight: 0.5 })).toThrow(/one value in \[0, 1\] per knob/);
    expect(() => new ParamChallenger(KNOBS, SHARES, { difficulty: D.map((x) => x + 1), difficultyWeight: 0.5 })).toThrow(/one value in \[0, 1\] per knob/);
    expect(() => new ParamChallenger(KNOBS, SHARES, { epsilon: -0.1 })).toThrow(/epsilon/);
    expect(() => new ParamChallenger(KNOBS, SHARES, { lr: 0 })).toThrow(/lr must be > 0/);
  });

  test('the knobs\' efforts: more numbers, more search; the same every time', () => {
    const e = knobEfforts(env, KNOBS, 30);
    expect(e[n4]).toBeGreaterThan(e[n3]);
    expect(e[n5]).toBeGreaterThan(e[n4]);
    expect(knobEfforts(env, KNOBS, 30)).toEqual(e);
  });
});

describe('the exploration floor', () => {
  const pushDown = (c: ParamChallenger, knob: number) => {
    for (let i = 0; i < 100; i++) c.update(Object.fromEntries(KNOBS.map((k, j) => [k.label, { puzzles: 4, uncertainty: j === knob ? 0 : 0.8, repeated: 0 }])));
  };

  test('given the puzzles per iteration, every knob gets a puzzle every iteration under the trainer\'s allocation, even one the policy has left', () => {
    for (const puzzles of [6, 7, 32, 64, 100]) {
      const c = new ParamChallenger(KNOBS, SHARES, { puzzles });
      expect(c.epsilon).toBeCloseTo(Math.max(0.05, KNOBS.length / puzzles), 12);
      pushDown(c, 5);
      expect(c.policy()[5]).toBeLessThan(1e-6);
      const dealt = allocateSources(c.probabilities(), puzzles);
      for (let k = 0; k < KNOBS.length; k++) expect(dealt.filter((x) => x === k).length).toBeGreaterThanOrEqual(1);
    }
  });

  test('a floor worth less than a puzzle a knob deals some knobs none (why the floor counts puzzles)', () => {
    const c = new ParamChallenger(KNOBS, SHARES, { epsilon: 0.05 });
    const dealt = allocateSources(c.probabilities(), 32);
    expect(KNOBS.some((_, k) => !dealt.includes(k))).toBe(true);
  });

  test('a larger epsilon is kept; fewer puzzles than knobs is refused', () => {
    expect(new ParamChallenger(KNOBS, SHARES, { puzzles: 64, epsilon: 0.3 }).epsilon).toBe(0.3);
    expect(() => new ParamChallenger(KNOBS, SHARES, { puzzles: 5 })).toThrow(/5 puzzles per iteration cannot give each of the 6 knobs one/);
    expect(() => new ParamChallenger(KNOBS, SHARES, { puzzles: 6.5 })).toThrow(/need an integer >= 6/);
  });
});

describe('frontier statistics', () => {
  test('uncertainty peaks at p = 0.5 and is 0 at 0 and 1', () => {
    expect(uncertainty(0.5)).toBe(1);
    expect(uncertainty(0)).toBe(0);
    expect(uncertainty(1)).toBe(0);
    expect(uncertainty(0.25)).toBeCloseTo(0.5, 9);
  });

  test('the aggregate counts a puzzle posed twice (numbers in another order) as repeated, and reads back per knob', () => {
    const agg = frontierAggregate(env).aggregate!;
    const s = (numbers: number[], target: number, solved: number): JsonValue => ({ numbers, target, solved });
    const out = agg([s([1, 2, 3], 6, 0.5), s([3, 1, 2], 6, 1), s([1, 2, 3], 7, 0), null]) as { frontier: { puzzles: number; uncertainty: number; repeated: number; meanCount: number } };
    expect(out.frontier.puzzles).toBe(3);
    expect(out.frontier.repeated).toBeCloseTo(1 / 3, 9);
    expect(out.frontier.uncertainty).toBeCloseTo(1 / 3, 9);
    expect(out.frontier.meanCount).toBe(3);
    expect(knobStats({ a: { envStats: out as { [key: string]: JsonValue } }, b: {} })).toEqual({ a: { puzzles: 3, uncertainty: 1 / 3, repeated: 1 / 3 } });
  });
});

describe('the curriculum experiment (bench/learning/curriculum)', () => {
  test('the challenger arm\'s first iteration draws from the generator\'s distribution; every arm is trained and scored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-curriculum-'));
    const out = await runCurriculum({ scale: { iterations: 2, puzzles: 12, heldOut: 4, reference: 2 }, seeds: [1], arms: ['generator', 'challenger'], dir, registry: createRegistry() });
    expect(out!.results.map((r) => r.arm)).toEqual(['generator', 'challenger']);
    for (const r of out!.results) {
      expect(r.curve.map((p) => p.iteration)).toEqual([1, 2]);
      expect(r.hard).toBeGreaterThanOrEqual(0);
    }
    const first = out!.results[1].curve[0].weights;
    const shares = generatorShares(env, KNOBS);
    // the floor is one puzzle per knob: 6 knobs of 12 puzzles, so half of them uniform
    KNOBS.forEach((k, i) => expect(first[k.label]).toBeCloseTo(0.5 * shares[i] + 0.5 / KNOBS.length, 3));
    expect(Object.values(out!.results[1].curve[0].sources).map((s) => s.puzzles)).toEqual(KNOBS.map(() => expect.any(Number)));
    for (const s of Object.values(out!.results[1].curve[0].sources)) expect(s.puzzles).toBeGreaterThanOrEqual(1);
    expect(out!.results[1].curve[0].theta).toHaveLength(KNOBS.length);
  });
});

describe('the experiment\'s challenger settings', () => {
  test('a floor of one puzzle per knob, the difficulty term from the knobs\' efforts, then the run\'s overrides', () => {
    const o = challengerOptions({ scale: { iterations: 1, puzzles: 32, heldOut: 1, reference: 1 } }, env);
    expect(o.puzzles).toBe(32);
    expect(o.difficultyWeight).toBe(CHALLENGER_DEFAULTS.difficultyWeight);
    expect(o.lr).toBe(CHALLENGER_DEFAULTS.lr);
    expect(Math.min(...o.difficulty!)).toBe(0);
    expect(o.difficulty!.slice(0, 2).every((x) => x < 0.05)).toBe(true); // the 3-number knobs are the easiest
    expect(Math.max(...o.difficulty!)).toBe(1);
    expect(o.difficulty!.findIndex((x) => x === 1)).toBeGreaterThanOrEqual(4); // a 5-number knob is the hardest
    const plain = challengerOptions({ scale: { iterations: 1, puzzles: 32, heldOut: 1, reference: 1 }, challenger: { difficultyWeight: 0, lr: 2 } }, env);
    expect([plain.difficultyWeight, plain.lr]).toEqual([0, 2]);
  });

  test('real-number flags: the default when absent, the value when in range, a one-line error otherwise', () => {
    const argv = process.argv;
    try {
      process.argv = ['node', 'bench'];
      expect(real('difficulty-weight', 0.9, 0, 1)).toBe(0.9);
      process.argv = ['node', 'bench', '--difficulty-weight=0.25'];
      expect(real('difficulty-weight', 0.9, 0, 1)).toBe(0.25);
      for (const v of ['1.5', '-1', 'abc', '', 'Infinity']) {
        process.argv = ['node', 'bench', `--difficulty-weight=${v}`];
        expect(() => real('difficulty-weight', 0.9, 0, 1)).toThrow(/--difficulty-weight: expected a number in \[0, 1\]/);
      }
    } finally {
      process.argv = argv;
    }
  });
});
