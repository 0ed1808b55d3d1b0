/**
 * A challenger over the generator's parameters: a categorical policy over "knobs" (each a set
 * of env params for the generator, e.g. Countdown's number count and target band), whose
 * puzzles are the generator's own under those params — so every puzzle it poses is valid and,
 * where the generator guarantees it, solvable. It starts from the generator's distribution
 * (the initial probabilities are the generator's parameters, e.g. count uniform over 3–4,
 * targets 1–99), not from random, and learns by a natural policy gradient on the solver's
 * frontier: a knob's reward is R-Zero's uncertainty 1 − |2p − 1| averaged over its puzzles (p:
 * the share of the solver's attempts at a puzzle that are right), minus a repetition penalty for puzzles posed
 * twice in one batch. An exploration floor `epsilon` keeps every knob tried now and then.
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
  /** Share of each iteration's puzzles drawn uniformly over the knobs (default 0.05). */
  epsilon?: number;
  /** Step size on the logits per unit of reward advantage (default 0.5). */
  lr?: number;
  /** Repetition penalty λ per share of repeated puzzles (default 0.5, as R-Zero's). */
  repetition?: number;
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

const softmax = (xs: readonly number[]): number[] => {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const t = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / t);
};

/** The categorical challenger over knobs. */
export class ParamChallenger {
  /** Logits of the learned part of the policy. */
  theta: number[];
  private readonly epsilon: number;
  private readonly lr: number;
  private readonly repetition: number;

  /**
   * Starts at `initial` (probabilities over the knobs: the generator's share of each; knobs the
   * generator never deals start at a tiny logit and are reached through the exploration floor).
   */
  constructor(
    readonly knobs: readonly Knob[],
    initial: readonly number[],
    options: ParamChallengerOptions = {},
  ) {
    if (!knobs.length || initial.length !== knobs.length) throw new Error(`param challenger: ${knobs.length} knobs, ${initial.length} initial probabilities`);
    if (initial.some((p) => !(p >= 0)) || !(initial.reduce((a, b) => a + b, 0) > 0)) throw new Error('param challenger: initial probabilities must be >= 0 and not all 0');
    this.epsilon = options.epsilon ?? 0.05;
    this.lr = options.lr ?? 0.5;
    this.repetition = options.repetition ?? 0.5;
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

  /** The reward of each knob from its stats (null for a knob without puzzles this iteration). */
  rewards(stats: Readonly<Record<string, KnobStats | undefined>>): (number | null)[] {
    return this.knobs.map((k) => {
      const s = stats[k.label];
      return s && s.puzzles > 0 ? s.uncertainty - this.repetition * s.repeated : null;
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
