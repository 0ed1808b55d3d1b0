/**
 * The three arms of the payoff experiment (issue 26) as league configs, all derived from one
 * example (arm c, examples/leagues/<env>-payoff.json), so they differ only in where the main
 * learners' episodes come from:
 *
 * - `fixed`: against the league's scripted players only;
 * - `self-play`: naive self-play against the latest self (one-team games: the learner's own
 *   current policy; team games: the other side's current learner);
 * - `league`: the example as written — PFSP over snapshots, self-play, and main exploiters
 *   (AlphaStar's recipe).
 *
 * Equal samples: every arm's learners together collect the same training episodes per round
 * (`equal: "total"`, the default: the example splits each main's `training.episodes` between
 * the main and its exploiter with `options.episodesPerIteration`, e.g. 96 + 32 of 128), or every
 * main learner collects the same (`equal: "main"`: the exploiters' episodes come on top).
 */
import type { LearnerSpec, SourceSpec } from '../../../league/config';

export type Arm = 'fixed' | 'self-play' | 'league';
export const ARMS: readonly Arm[] = ['fixed', 'self-play', 'league'];

/** A league config as written (JSON). */
export type RawConfig = Record<string, any>;

/** The scale of one arm's run. */
export interface ArmScale {
  rounds: number;
  /** Training episodes per round of each main learner (before the league arm's exploiter share). */
  episodes: number;
  /** League matches per round. */
  every: number;
  equal: 'total' | 'main';
}

/** What the arms need to know about the env's example. */
export interface ArmSpec {
  /** Learner ids whose final policies are evaluated (one per side in team games). */
  mains: readonly string[];
  /** Player ids the fixed arm trains against. */
  scripted: readonly string[];
  /** The self-play arm's sources of a main learner. */
  selfPlay(main: string): SourceSpec[];
}

/** The league config of `arm` at `seed` (name `<base>-<arm>-<seed>`), probes left out. */
export function armConfig(example: RawConfig, spec: ArmSpec, arm: Arm, seed: number, scale: ArmScale): RawConfig {
  const learners = (example.learners as RawConfig[]).filter((l) => arm === 'league' || spec.mains.includes(l.id));
  // the example's split of a round's episodes (e.g. main 96 + its exploiter 32 of 128), scaled to `episodes`
  const base = example.training.episodes as number;
  const episodesOf = (l: RawConfig): number => {
    if (arm !== 'league' || (scale.equal === 'main' && spec.mains.includes(l.id))) return scale.episodes;
    return Math.max(1, Math.round((((l.options?.episodesPerIteration as number | undefined) ?? base) * scale.episodes) / base));
  };
  const sourcesOf = (l: RawConfig): unknown => {
    if (arm === 'fixed') return [{ kind: 'players', weight: 1, ids: [...spec.scripted] }];
    if (arm === 'self-play') return spec.selfPlay(l.id);
    return l.sources;
  };
  return {
    ...example,
    name: `${example.name}-${arm}-${seed}`,
    seed,
    learners: learners.map((l) => ({ ...l, sources: sourcesOf(l), options: { ...l.options, episodesPerIteration: episodesOf(l) } }) satisfies Partial<Record<keyof LearnerSpec, unknown>>),
    training: { ...example.training, every: scale.every, episodes: scale.episodes },
    probes: [],
    budget: { matches: scale.rounds * scale.every },
  };
}

/** Training episodes per round of an arm's config: of its main learners, and of all its learners. */
export function episodesPerRound(config: RawConfig, spec: ArmSpec): { main: number; total: number } {
  const per = (l: RawConfig) => (l.options?.episodesPerIteration as number | undefined) ?? (config.training.episodes as number);
  const learners = config.learners as RawConfig[];
  return { main: learners.filter((l) => spec.mains.includes(l.id)).reduce((t, l) => t + per(l), 0), total: learners.reduce((t, l) => t + per(l), 0) };
}
