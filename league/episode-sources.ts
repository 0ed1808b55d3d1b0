/**
 * A league learner's episode sources (config `learners[].sources`) as the trainer's
 * {@link EpisodeSource}s: co-evolution through the league. A solver trains against the
 * challenger learner's current policy, past challengers (league snapshot players drawn by
 * PFSP on the league's head-to-head results) and the env's generator; a challenger trains
 * against the solver and its snapshots; a main learner against itself (`self`), its own and its
 * exploiters' snapshots, so its reward measures the frontier of a population
 * rather than of one moving network. No weights are copied between trainers: another
 * learner's policy is read where it is, snapshots are the league's checkpoint files.
 */
import type { Agent } from '../src/core/agent';
import type { Env } from '../src/core/env';
import type { Params } from '../src/core/params';
import { Rng, deriveSeed } from '../src/core/rng';
import type { PlayerRecord } from '../src/store/store';
import { loadCheckpoint } from '../src/train/checkpoint';
import type { EpisodeSource } from '../src/train/episode-sources';
import type { FixedAgents } from '../src/train/fixed-agents';
import { policyAgent } from '../src/train/policy-agents';
import { checkLayoutFor, PolicyModel } from '../src/train/policy-model';
import { LeagueConfigError, type LearnerSpec, type SourceSpec } from './config';
import type { HeadToHead } from './matchmaking/head-to-head';
import { normalize } from './matchmaking/pick';
import { pfspWeight } from './matchmaking/pfsp';

/** What the sources read from the league at each training round. */
export interface SourceWorld {
  env: Env;
  /** The league's params (a generator source's params are merged over them). */
  params: Params;
  /** The current policy of a learner (by league id), read at the time of the episode. */
  learnerModel(id: string): PolicyModel;
  /** Roles a learner plays. */
  learnerRoles(id: string): readonly string[];
  /** Snapshot players descending from a learner, in the order they joined. */
  snapshotsOf(id: string): readonly PlayerRecord[];
  /** The league's baseline players (roles resolved). */
  baselines: readonly PlayerRecord[];
  /** Agents of the baseline players' specs, one per seat. */
  fixed: FixedAgents;
}

/** The sampling agent of `model` for one seat of one episode (its generator drawn from the episode's). */
function sampling(name: string, model: PolicyModel, seat: number, rng: Rng): Agent {
  return policyAgent(name, model, Rng.fromSeed(deriveSeed(Math.floor(rng.next() * 2 ** 32), 'source', seat)));
}

/** The episode sources of one league learner. */
export class LearnerSources {
  private readonly params: (Params | undefined)[];
  private readonly models = new Map<string, PolicyModel>();

  /** Resolves generator params now, so a bad one is a one-line config error naming the field. */
  constructor(
    private readonly spec: LearnerSpec,
    index: number,
    private readonly world: SourceWorld,
  ) {
    this.params = (spec.sources ?? []).map((s, j) => {
      if (s.kind !== 'generator') return undefined;
      try {
        return world.env.resolveParams({ ...world.params, ...s.params });
      } catch (e) {
        throw new LeagueConfigError(`league config: learners.${index}.sources.${j}.params: ${(e as Error).message}`);
      }
    });
  }

  /**
   * The sources of a training round, with `h2h` the league's results so far: a snapshot
   * source without snapshots yet is left out (its share goes to the others).
   */
  sources(h2h: HeadToHead): EpisodeSource[] {
    const out: EpisodeSource[] = [];
    (this.spec.sources ?? []).forEach((s, j) => {
      const made = this.source(s, j, h2h);
      if (made) out.push(made);
    });
    return out;
  }

  private source(s: SourceSpec, j: number, h2h: HeadToHead): EpisodeSource | null {
    const { world } = this;
    switch (s.kind) {
      case 'generator':
        return { label: `generator${this.suffix('generator', j)}`, weight: s.weight, params: this.params[j] };
      case 'learner': {
        const roles = world.learnerRoles(s.of);
        return { label: s.of, weight: s.weight, opponent: (seat, role, rng) => (roles.includes(role) ? sampling(s.of, world.learnerModel(s.of), seat, rng) : null) };
      }
      case 'self':
        return { label: `self-play${this.suffix('self', j)}`, weight: s.weight, opponent: (seat, role, rng) => (this.spec.roles.includes(role) ? sampling(this.spec.id, world.learnerModel(this.spec.id), seat, rng) : null) };
      case 'players': {
        const pool = world.baselines.filter((p) => !s.ids || s.ids.includes(p.id));
        return {
          label: `players${this.suffix('players', j)}`,
          weight: s.weight,
          opponent: (seat, role, rng) => {
            const fit = pool.flatMap((p) => (p.roles.includes(role) ? [world.fixed.get(p.agent, seat, role)] : [])).filter((a): a is Agent => a !== null);
            return fit.length ? fit[rng.int(fit.length)] : null;
          },
        };
      }
      case 'snapshots': {
        let snaps = world.snapshotsOf(s.of);
        if (s.last) snaps = snaps.slice(-s.last);
        if (!snaps.length) return null;
        const probs = normalize(snaps.map((x) => (s.pfsp === 'uniform' ? 1 : pfspWeight(h2h.winProbability(this.spec.id, x.id), { weighting: s.pfsp, p: s.p }))));
        return {
          label: `${s.of}-snapshots`,
          weight: s.weight,
          opponent: (seat, role, rng) => {
            const snap = snaps[rng.weighted(probs)];
            return snap.roles.includes(role) ? sampling(snap.id, this.model(snap), seat, rng) : null;
          },
        };
      }
    }
  }

  /** "" for the first source of a kind, "-<j>" for later ones (labels stay unique). */
  private suffix(kind: SourceSpec['kind'], j: number): string {
    const first = (this.spec.sources ?? []).findIndex((x) => x.kind === kind);
    return first === j ? '' : `-${j}`;
  }

  /** A snapshot player's policy, loaded once from its checkpoint file. */
  private model(p: PlayerRecord): PolicyModel {
    let m = this.models.get(p.id);
    if (!m) {
      if (!p.checkpoint) throw new Error(`snapshot ${p.id} has no checkpoint file`);
      const ckpt = loadCheckpoint(p.checkpoint);
      m = new PolicyModel(ckpt.layout, checkLayoutFor(ckpt.layout, this.world.env), ckpt.weights);
      this.models.set(p.id, m);
    }
    return m;
  }
}
