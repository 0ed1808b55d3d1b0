/**
 * A challenger over the generator's parameters: a categorical policy over "knobs" (each a set
 * of env params for the generator, e.g. Countdown's number count and target band), whose
 * puzzles are the generator's own under those params — so every puzzle it poses is valid and,
 * where the generator guarantees it, solvable. It starts from the generator's distribution
 * (the initial probabilities are the generator's parameters, e.g. count uniform over 3–4,
 * targets 1–99), not from random, and learns by a natural policy gradient on the solver's
 * frontier.
 *
 * **Reward.** A knob's reward is R-Zero's uncertainty 1 − |2p − 1| averaged over its puzzles
 * (p: the share of the solver's attempts at a puzzle that are right), scaled by a difficulty
 * term, minus a repetition penalty for puzzles posed twice in one batch:
 *
 *     r_k = u_k · ((1 − w) + w · d_k) − λ · repeated_k
 *
 * where d_k ∈ [0, 1] is the knob's difficulty (e.g. {@link difficultyFromEffort} of the exact
 * solver's search effort on its puzzles: a property of the puzzles, not of the learner) and w ∈
 * [0, 1] its weight (0, the default: R-Zero's reward alone). Why: uncertainty alone peaks where
 * the solver succeeds half the time, so a knob the solver starts near 0 on (Countdown's 5-number
 * puzzles) pays less than any easier knob for as long as the easier ones are unmastered — in the
 * first measurement (bench/learning/README.md) the challenger never left 3–4 numbers. With the
 * term, the harder of two knobs at equal uncertainty pays more, so once the solver is at its
 * frontier on an easier knob the challenger moves on to a harder one where it is merely
 * uncertain. The term multiplies, it does not add: a knob the solver always solves (u = 0) or
 * never solves (u = 0) pays nothing however hard it is — a solved knob loses mass, and puzzles
 * out of the solver's reach are not rewarded (R-Zero's reason for the uncertainty reward).
 *
 * **Exploration floor.** `epsilon` of every iteration's puzzles are drawn uniformly over the
 * knobs. The trainer allocates an iteration's puzzles to sources by largest remainders, so a
 * floor worth less than one puzzle a knob may deal a knob no puzzle at all for many iterations
 * (at 32 puzzles, 0.05 / 6 knobs is 0.27 puzzle: it loses to the big knobs' remainders), and a
 * knob without puzzles is not observed, so never rewarded. Given `puzzles` (per iteration), the
 * floor is raised to one whole puzzle per knob (epsilon ≥ knobs / puzzles): every knob is
 * observed every iteration, the ones it has not moved toward included.
 *
 * It plugs into the trainer as weighted episode sources (one per knob, weight = its
 * probability: the allocation is exact), and reads back each source's statistics (the env's
 * aggregate, extended by {@link frontierAggregate}).
 */
import type { Env } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import type { EpisodeSource } from '../../src/train/episode-sources';

/** One choice of the challenger: a label and the params of its puzzles (merged over the base params). */
export interface Knob {
  label: string;
  params: Params;
}

/** Settings of the challenger. */
export interface ParamChallengerOptions {
  /** Share of each iteration's puzzles drawn uniformly over the knobs (default 0.05; in [0, 1]). */
  epsilon?: number;
  /**
   * Puzzles per iteration: when given, the exploration floor is raised to at least one puzzle
   * per knob per iteration (epsilon ≥ knobs / puzzles). Must be at least the number of knobs.
   */
  puzzles?: number;
  /** Step size on the logits per unit of reward advantage (default 0.5). */
  lr?: number;
  /** Repetition penalty λ per share of repeated puzzles (default 0.5, as R-Zero's). */
  repetition?: number;
  /** Each knob's difficulty in [0, 1] (e.g. {@link difficultyFromEffort}); needed when `difficultyWeight` > 0. */
  difficulty?: readonly number[];
  /** Weight w ∈ [0, 1] of the difficulty term: the reward is u · ((1 − w) + w · d) (default 0: uncertainty alone). */
  difficultyWeight?: number;
}

/** What the challenger reads about one knob's puzzles of an iteration. */
export interface KnobStats {
  puzzles: number;
  /** Mean of 1 − |2p − 1| over the knob's puzzles. */
  uncertainty: number;
  /** Share of its puzzles that repeat an earlier one of the same iteration. */
  repeated: number;
}

/** R-Zero's uncertainty reward of a puzzle the solver gets right in a share `p` of its attempts. */
export const uncertainty = (p: number): number => 1 - Math.abs(2 * p - 1);

/**
 * Knob difficulties in [0, 1] from a measured effort per knob (e.g. the exact solver's mean
 * search nodes on its puzzles): the log of the effort, rescaled so that the easiest knob is 0
 * and the hardest 1 (log: effort grows exponentially with the number count, and a knob twice as
 * hard as another should be as far above it wherever the two sit). All 0 when every effort is
 * the same. Efforts must be finite and > 0.
 */
export function difficultyFromEffort(effort: readonly number[]): number[] {
  if (!effort.length || effort.some((e) => !(Number.isFinite(e) && e > 0))) throw new Error(`param challenger: efforts must be finite and > 0 (got ${effort.join(', ')})`);
  const logs = effort.map(Math.log);
  const lo = Math.min(...logs);
  const span = Math.max(...logs) - lo;
  return logs.map((x) => (span > 0 ? (x - lo) / span : 0));
}

const softmax = (xs: readonly number[]): number[] => {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const t = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / t);
};

const inUnit = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1;

/** The categorical challenger over knobs. */
export class ParamChallenger {
  /** Logits of the learned part of the policy. */
  theta: number[];
  /** The exploration floor in force (the option, raised to one puzzle a knob when `puzzles` is given). */
  readonly epsilon: number;
  readonly lr: number;
  private readonly repetition: number;
  /** The weight w of the difficulty term. */
  readonly difficultyWeight: number;
  /** Per knob: its difficulty d (all 0 when none was given). */
  readonly difficulty: readonly number[];
  /** Per knob: the factor (1 − w) + w · d its uncertainty is scaled by. */
  readonly scale: readonly number[];

  /**
   * Starts at `initial` (probabilities over the knobs: the generator's share of each; knobs the
   * generator never deals start at a tiny logit and are reached through the exploration floor).
   */
  constructor(
    readonly knobs: readonly Knob[],
    initial: readonly number[],
    options: ParamChallengerOptions = {},
  ) {
    const n = knobs.length;
    if (!n || initial.length !== n) throw new Error(`param challenger: ${n} knobs, ${initial.length} initial probabilities`);
    if (initial.some((p) => !(p >= 0)) || !(initial.reduce((a, b) => a + b, 0) > 0)) throw new Error('param challenger: initial probabilities must be >= 0 and not all 0');
    const epsilon = options.epsilon ?? 0.05;
    if (!inUnit(epsilon)) throw new Error(`param challenger: epsilon must be in [0, 1] (got ${epsilon})`);
    const puzzles = options.puzzles;
    if (puzzles !== undefined && !(Number.isInteger(puzzles) && puzzles >= n)) throw new Error(`param challenger: ${puzzles} puzzles per iteration cannot give each of the ${n} knobs one (need an integer >= ${n})`);
    this.epsilon = puzzles === undefined ? epsilon : Math.max(epsilon, n / puzzles);
    this.lr = options.lr ?? 0.5;
    if (!(Number.isFinite(this.lr) && this.lr > 0)) throw new Error(`param challenger: lr must be > 0 (got ${this.lr})`);
    this.repetition = options.repetition ?? 0.5;
    const w = options.difficultyWeight ?? 0;
    if (!inUnit(w)) throw new Error(`param challenger: difficultyWeight must be in [0, 1] (got ${w})`);
    const d = options.difficulty;
    if (d !== undefined && (d.length !== n || !d.every(inUnit))) throw new Error(`param challenger: difficulty needs one value in [0, 1] per knob (${n} knobs, got ${d.join(', ')})`);
    if (w > 0 && d === undefined) throw new Error('param challenger: difficultyWeight > 0 needs the knobs\' difficulty');
    this.difficultyWeight = w;
    this.difficulty = d ? [...d] : knobs.map(() => 0);
    this.scale = this.difficulty.map((x) => 1 - w + w * x);
    const total = initial.reduce((a, b) => a + b, 0);
    this.theta = initial.map((p) => Math.log(Math.max(p / total, 1e-4)));
  }

  /** The learned policy (without the exploration floor). */
  policy(): number[] {
    return softmax(this.theta);
  }

  /** The distribution puzzles are drawn from: the policy mixed with `epsilon` of uniform. */
  probabilities(): number[] {
    const n = this.knobs.length;
    return this.policy().map((p) => (1 - this.epsilon) * p + this.epsilon / n);
  }

  /** The knobs as episode sources of one iteration (label = knob label, weight = probability, params merged over `base`). */
  sources(env: Env, base: Params): EpisodeSource[] {
    const probs = this.probabilities();
    return this.knobs.map((k, i) => ({ label: k.label, weight: probs[i], params: env.resolveParams({ ...base, ...k.params }) }));
  }

  /**
   * The reward of each knob from its stats, u · ((1 − w) + w · d) − λ · repeated (null for a knob
   * without puzzles this iteration, or whose stats are not finite numbers).
   */
  rewards(stats: Readonly<Record<string, KnobStats | undefined>>): (number | null)[] {
    return this.knobs.map((k, i) => {
      const s = stats[k.label];
      return s && s.puzzles > 0 && Number.isFinite(s.uncertainty) && Number.isFinite(s.repeated) ? s.uncertainty * this.scale[i] - this.repetition * s.repeated : null;
    });
  }

  /**
   * One update on the iteration's stats: each knob with puzzles this iteration moves its logit
   * by `lr` x (its reward − the policy-weighted mean reward of those knobs). This is the natural
   * policy gradient of a softmax over arms whose rewards are all observed (multiplicative
   * weights), not the vanilla gradient: the vanilla one scales a knob's step by its own
   * probability, so a knob the generator never deals (probability ~1e-4, reached only through the
   * exploration floor) could never grow however good its reward. Returns the rewards and the mean.
   */
  update(stats: Readonly<Record<string, KnobStats | undefined>>): { rewards: (number | null)[]; baseline: number } {
    const r = this.rewards(stats);
    const pi = this.policy();
    const seen = r.map((x, i) => (x === null ? 0 : pi[i]));
    const mass = seen.reduce((a, b) => a + b, 0);
    if (!(mass > 0)) return { rewards: r, baseline: NaN };
    const baseline = r.reduce<number>((t, x, i) => t + (x === null ? 0 : (seen[i] / mass) * x), 0);
    this.theta = this.theta.map((t, j) => (r[j] === null ? t : t + this.lr * (r[j]! - baseline)));
    // keep the logits bounded (a knob far ahead for long would overflow exp after many updates)
    const top = Math.max(...this.theta);
    this.theta = this.theta.map((t) => Math.max(t - top, -30));
    return { rewards: r, baseline };
  }

  /** Saved state (the logits), for resuming. */
  state(): { theta: number[] } {
    return { theta: [...this.theta] };
  }

  restore(s: { theta: readonly number[] }): void {
    if (s.theta.length !== this.knobs.length || s.theta.some((x) => !Number.isFinite(x))) throw new Error('param challenger: saved state does not fit these knobs');
    this.theta = [...s.theta];
  }
}

/**
 * The env with an aggregate that also reports what the challenger reads: the mean uncertainty
 * of the puzzles (`solved`: the share of a puzzle's attempts that were right), the share of
 * repeated puzzles (same numbers, in any order, and target) and the mean number count.
 */
export function frontierAggregate(env: Env): Env {
  const base = env.aggregate;
  const aggregate = (summaries: readonly JsonValue[]): { [key: string]: JsonValue } => {
    const seen = new Set<string>();
    let repeated = 0;
    let u = 0;
    let count = 0;
    let n = 0;
    for (const s of summaries) {
      const x = s as { numbers?: number[]; target?: number; solved?: number } | null;
      if (!x || !Array.isArray(x.numbers) || typeof x.solved !== 'number') continue;
      n++;
      u += uncertainty(x.solved);
      count += x.numbers.length;
      const key = `${[...x.numbers].sort((a, b) => a - b).join(',')}=${x.target}`;
      if (seen.has(key)) repeated++;
      seen.add(key);
    }
    return { ...(base ? base(summaries) : {}), frontier: { puzzles: n, uncertainty: n ? u / n : 0, repeated: n ? repeated / n : 0, meanCount: n ? count / n : 0 } };
  };
  return { ...env, aggregate };
}

/** The challenger's stats per knob from an iteration's `sources` metrics (as written by {@link frontierAggregate}). */
export function knobStats(sources: Record<string, { envStats?: { [key: string]: JsonValue } }> | undefined): Record<string, KnobStats> {
  const out: Record<string, KnobStats> = {};
  for (const [label, s] of Object.entries(sources ?? {})) {
    const f = s.envStats?.frontier as { puzzles?: number; uncertainty?: number; repeated?: number } | undefined;
    if (f && typeof f.puzzles === 'number') out[label] = { puzzles: f.puzzles, uncertainty: f.uncertainty ?? 0, repeated: f.repeated ?? 0 };
  }
  return out;
}
