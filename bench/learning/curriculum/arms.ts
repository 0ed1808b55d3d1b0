/**
 * Countdown curriculum arms (issue 26, part 3): where the solver's training puzzles come from.
 * The held-out target is the hard distribution (5 numbers) the generator's default (3–4
 * numbers, targets 1–99) never deals.
 *
 * - `generator`: the generator's default puzzles (3–4 numbers);
 * - `hard`: the generator on the hard distribution only (5 numbers);
 * - `hand-made`: an easy-to-hard schedule — 3–4 numbers first, 5 numbers at the end, linearly;
 * - `challenger`: a challenger over the generator's parameters (league/curriculum), starting at
 *   the generator's own distribution and rewarded at the solver's frontier, weighted by each
 *   knob's search effort ({@link knobEfforts}). Its knobs: 3, 4 or 5 numbers, targets 1–99 or
 *   100–999 (the second band is not the held-out one: the challenger is not told which hard
 *   distribution is tested, and the hardest knob by effort is 5 numbers with targets 100–999).
 */
import type { Env } from '../../../src/core/env';
import type { Params } from '../../../src/core/params';
import { deriveSeed } from '../../../src/core/rng';
import type { EpisodeSource } from '../../../src/train/episode-sources';
import type { Knob } from '../../../league/curriculum/param-challenger';
import { defaultContract, type Contract } from '../../../envs/countdown/contract';

export type CurriculumArm = 'generator' | 'hard' | 'hand-made' | 'challenger';
export const CURRICULUM_ARMS: readonly CurriculumArm[] = ['generator', 'hard', 'hand-made', 'challenger'];

/** The solver's env params (the generator's, tinyzero rules, 8 attempts a puzzle). */
export const BASE: Params = { rules: 'tinyzero', roles: 'solver', attempts: 8 };
/** The generator's default contract under tinyzero (3–4 numbers in 1–99, targets 1–99): what the challenger's warm start copies. */
export const GENERATOR: Contract = defaultContract('tinyzero');

/** Target bands: the generator's, and three-digit targets. */
const BANDS: readonly (readonly [number, number])[] = [GENERATOR.target, [100, 999]];

/** The challenger's knobs: number count x target band. */
export const KNOBS: readonly Knob[] = [3, 4, 5].flatMap((count) => BANDS.map((t) => ({ label: `n${count}-t${t[0]}-${t[1]}`, params: { contract: { count, target: [t[0], t[1]] } } })));

/** The knob a puzzle falls in (its number count and target band), or -1. */
export function knobOf(knobs: readonly Knob[], p: { numbers: readonly number[]; target: number }): number {
  return knobs.findIndex((k) => {
    const c = k.params.contract as { count: number; target: [number, number] };
    return c.count === p.numbers.length && p.target >= c.target[0] && p.target <= c.target[1];
  });
}

/**
 * The generator's share of each knob, by imitation (the challenger's warm start): the knobs of
 * `n` puzzles the generator deals under its default params. Not read off the contract: the
 * generator draws the count uniformly but redraws the numbers (count included) when a random
 * fold misses the target band, which favours the counts that land in it more often.
 */
export function generatorShares(env: Env, knobs: readonly Knob[], n = 2000): number[] {
  const params = env.resolveParams(BASE);
  const counts = knobs.map(() => 0);
  for (let i = 0; i < n; i++) {
    const k = knobOf(knobs, env.summary(env.init(params, deriveSeed(31, 'generator-shares', i))) as unknown as { numbers: number[]; target: number });
    if (k < 0) throw new Error('curriculum: the generator dealt a puzzle outside every knob (the knobs must cover its default contract)');
    counts[k]++;
  }
  return counts.map((c) => c / n);
}

/** The hand-made schedule's weights at fraction `f` (0 → 1) of the run over 3, 4, 5 numbers (targets 1–99). */
export function handMadeWeights(f: number): [number, number, number] {
  const three = Math.max(0, 0.5 - f);
  const five = Math.max(0, 2 * f - 1);
  return [three, 1 - three - five, five];
}

/** The fixed arms' sources at iteration `it` of `iterations` (the challenger arm's come from its challenger). */
export function fixedSources(arm: Exclude<CurriculumArm, 'challenger'>, env: Env, it: number, iterations: number): EpisodeSource[] {
  const at = (count: number | [number, number]) => env.resolveParams({ ...BASE, contract: { count, target: [...GENERATOR.target] } });
  if (arm === 'generator') return [{ label: 'generator', weight: 1, params: at([...GENERATOR.count]) }];
  if (arm === 'hard') return [{ label: 'hard', weight: 1, params: at(5) }];
  const w = handMadeWeights(iterations > 1 ? it / (iterations - 1) : 1);
  return [3, 4, 5].map((n, i) => ({ label: `n${n}`, weight: w[i], params: at(n) })).filter((s) => s.weight > 0);
}

/**
 * Each knob's search effort: the exact solver's mean search nodes over `n` puzzles the
 * generator deals under it (seeded, so the same every run) — what the challenger's difficulty
 * term reads (league/curriculum/param-challenger: difficultyFromEffort). A property of the
 * puzzles, measured by the env's own verifier, not of any learner or of the held-out set.
 */
export function knobEfforts(env: Env, knobs: readonly Knob[], n = 100): number[] {
  return knobs.map((k) => {
    const params = env.resolveParams({ ...BASE, ...k.params });
    let nodes = 0;
    let counted = 0;
    for (let i = 0; i < n; i++) {
      const v = (env.summary(env.init(params, deriveSeed(37, `knob-effort-${k.label}`, i))) as unknown as { verdict: { nodes: number } | null }).verdict;
      if (v && Number.isFinite(v.nodes)) {
        nodes += v.nodes;
        counted++;
      }
    }
    if (!counted) throw new Error(`curriculum: no exact-solver verdict for knob ${k.label}`);
    return nodes / counted;
  });
}
