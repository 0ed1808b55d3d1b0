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
import { frontierAggregate, knobStats, ParamChallenger, uncertainty, type KnobStats } from '../../league/curriculum/param-challenger';
import { BASE, generatorShares, KNOBS } from '../../bench/learning/curriculum/arms';
import { runCurriculum } from '../../bench/learning/curriculum/experiment';

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
    const out = await runCurriculum({ scale: { iterations: 2, puzzles: 4, heldOut: 4, reference: 2 }, seeds: [1], arms: ['generator', 'challenger'], dir, registry: createRegistry() });
    expect(out!.results.map((r) => r.arm)).toEqual(['generator', 'challenger']);
    for (const r of out!.results) {
      expect(r.curve.map((p) => p.iteration)).toEqual([1, 2]);
      expect(r.hard).toBeGreaterThanOrEqual(0);
    }
    const first = out!.results[1].curve[0].weights;
    const shares = generatorShares(env, KNOBS);
    KNOBS.forEach((k, i) => expect(first[k.label]).toBeCloseTo(0.95 * shares[i] + 0.05 / KNOBS.length, 3));
    expect(out!.results[1].curve[0].theta).toHaveLength(KNOBS.length);
  });
});
