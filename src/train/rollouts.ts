/**
 * One training iteration's rollouts: `episodesPerIteration` episodes through the match runner,
 * seats filled by the opponent mode (self-play, baselines, frozen snapshots), the training
 * learners' decisions recorded into their sample buffers (cut into tries when the env declares
 * them), and per-learner tallies of returns and wins. Every seed is derived from the config
 * seed, the iteration and the episode, so an iteration replays exactly.
 */
import type { Agent } from '../core/agent';
import type { Env } from '../core/env';
import { EventLoopTurn } from '../core/event-loop';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';
import { Rng, deriveSeed } from '../core/rng';
import { runMatch } from '../match/runner';
import type { TrainConfig } from './config';
import { emptyTally, selfLabel, tallyEpisode, type LearnerTally } from './episode-stats';
import type { Learner } from './learner';
import { policyAgent, RecordingAgent } from './policy-agents';
import type { PolicyModel } from './policy-model';
import type { SampleBuffer } from './sample-buffer';
import { allocateSources, type EpisodeSource } from './episode-sources';
import { planSeats, type OpponentMode, type PlanContext } from './seat-plan';
import { cutTries } from './tries';

/** A frozen opponent in a learner's pool. */
export interface Snapshot {
  label: string;
  model: PolicyModel;
  file?: string;
}

/** A learner of a run with its sample buffer and its opponent pool. */
export interface Entry {
  index: number;
  id: string;
  roles: string[];
  learner: Learner;
  buf: SampleBuffer;
  pool: Snapshot[];
}

/** What an iteration's rollouts produced. */
export interface Batch {
  tallies: Map<Entry, LearnerTally>;
  outcomes: Record<string, number>;
  summaries: JsonValue[];
  /** Outcome label of each episode, by episode index. */
  episodeOutcomes: string[];
  /** With episode sources: each episode's source label (by episode index) and the summaries per source. */
  episodeSources?: string[];
  sourceSummaries?: Record<string, JsonValue[]>;
}

/** Everything the rollouts of one iteration need from the trainer. */
export interface RolloutSetup {
  env: Env;
  params: Params;
  cfg: TrainConfig;
  runId: string;
  opponents: readonly OpponentMode[];
  /** Baseline agent specs that can sit at the table (config.baselines without "self"). */
  baselines: readonly string[];
  entries: readonly Entry[];
  iteration: number;
  /** Seat-plan context without the per-iteration parts. */
  base: Omit<PlanContext<Entry>, 'learnerAgent' | 'training'>;
  /** Whether a learner trains (records) in this iteration. */
  training(e: Entry): boolean;
  /** Episode sources (checked, see episode-sources.ts); when given, `opponents` is not used. */
  sources?: readonly EpisodeSource[];
}

/**
 * Plays the iteration's episodes into the learners' buffers (cleared first). Yields to the
 * event loop now and then; when `signal` aborts, the buffers are cleared and null returned
 * (nothing else changed).
 */
export async function collectEpisodes(s: RolloutSetup, signal: AbortSignal | undefined): Promise<Batch | null> {
  const batch: Batch = { tallies: new Map(s.entries.map((e) => [e, emptyTally()])), outcomes: {}, summaries: [], episodeOutcomes: [] };
  for (const e of s.entries) e.buf.clear();
  let allocation: number[] | undefined;
  if (s.sources) {
    allocation = allocateSources(
      s.sources.map((x) => x.weight),
      Math.ceil(s.cfg.episodesPerIteration / s.cfg.groupSize),
    );
    batch.episodeSources = [];
    batch.sourceSummaries = Object.fromEntries(s.sources.map((x) => [x.label, []]));
  }
  const turn = new EventLoopTurn();
  for (let k = 0; k < s.cfg.episodesPerIteration; k++) {
    await turn.maybe();
    if (signal?.aborted) {
      for (const e of s.entries) e.buf.clear();
      return null;
    }
    const source = allocation && s.sources ? s.sources[allocation[Math.floor(k / s.cfg.groupSize)]] : undefined;
    await playEpisode(s, k, batch, source);
  }
  return batch;
}

/**
 * Plays episode `k`: seats planned by the episode source when given, else by the opponent
 * mode; training learners recording; tallies it into `batch`.
 */
async function playEpisode(s: RolloutSetup, k: number, batch: Batch, source?: EpisodeSource): Promise<void> {
  const { cfg, env, iteration: it } = s;
  const params = source?.params ?? s.params;
  const tries = env.capabilities.tries;
  const modes = s.opponents;
  const mode = source ? 'source' : modes[k % modes.length];
  const g = Math.floor(k / cfg.groupSize);
  const actSeed = (seat: number) => deriveSeed(cfg.seed, 'act', it, k, seat);
  const ctx: PlanContext<Entry> = {
    ...s.base,
    training: s.training,
    learnerAgent: (e, seat, record): Agent =>
      record
        ? new RecordingAgent(e.id, e.learner.model, Rng.fromSeed(actSeed(seat)), {
            buf: e.buf,
            episode: k,
            group: String(g),
            rewardScale: cfg.rewardScale,
            recordSteps: tries,
          })
        : policyAgent(e.id, e.learner.model, Rng.fromSeed(actSeed(seat))),
  };
  const pool = s.baselines;
  if (mode === 'baselines' && pool.length === 0) throw new Error('--opponents baselines needs at least one baseline agent other than "self" in config.baselines');
  const opponent = mode === 'baselines' ? pool[Math.floor(k / modes.length) % pool.length] : undefined;
  let plan: ReturnType<typeof planSeats<Entry>> | undefined;
  const result = await runMatch({
    env,
    params,
    seed: deriveSeed(cfg.seed, 'env', it, g),
    matchId: `${s.runId}:${it}:${k}`,
    agents: (seats) => {
      const rng = Rng.fromSeed(deriveSeed(cfg.seed, 'plan', it, k));
      const opponentFor = source?.opponent ? (seat: number, role: string) => source.opponent!(seat, role, rng) : undefined;
      plan = planSeats(mode, seats, k, ctx, rng, { opponent, opponentFor, label: source?.label });
      return plan.agents;
    },
  });
  batch.outcomes[result.outcome] = (batch.outcomes[result.outcome] ?? 0) + 1;
  batch.summaries.push(result.summary);
  batch.episodeOutcomes.push(result.outcome);
  if (source) {
    batch.episodeSources!.push(source.label);
    batch.sourceSummaries![source.label].push(result.summary);
  }
  if (tries) {
    for (const e of s.entries) {
      const trajs = e.buf.trajectories;
      let first = trajs.length;
      while (first > 0 && trajs[first - 1].episode === k) first--;
      if (first < trajs.length) trajs.push(...cutTries(trajs.splice(first), result.rewards, cfg.rewardScale));
    }
  }
  const p = plan!;
  for (const e of s.entries) {
    const mine = [...p.learnerSeats].filter(([, l]) => l === e).map(([seat]) => seat);
    if (mine.length) tallyEpisode(batch.tallies.get(e)!, mine, result.returns, result.seats, p.label === 'self' ? selfLabel(p.agents, p.learnerSeats) : p.label);
  }
}
