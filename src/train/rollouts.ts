/**
 * One training iteration's rollouts: `episodesPerIteration` episodes through the match runner,
 * seats filled by the opponent mode (self-play, baselines, frozen snapshots), the training
 * learners' decisions recorded into their sample buffers (cut into tries when the env declares
 * them), and per-learner tallies of returns and wins. Every seed is derived from the config
 * seed, the iteration and the episode, so an iteration replays exactly — with any number of
 * episodes in lockstep (`envsPerBatch`).
 */
import type { Agent } from '../core/agent';
import type { Env } from '../core/env';
import { EventLoopTurn } from '../core/event-loop';
import { setMaxListeners } from 'node:events';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';
import { Rng, deriveSeed } from '../core/rng';
import { runMatch, type MatchResult } from '../match/runner';
import type { TrainConfig } from './config';
import { DecisionBatcher } from './decision-batcher';
import { emptyTally, selfLabel, tallyEpisode, type LearnerTally } from './episode-stats';
import type { Learner } from './learner';
import { policyAgent, RecordingAgent } from './policy-agents';
import type { PolicyModel } from './policy-model';
import { allocateSources, type EpisodeSource } from './episode-sources';
import { SampleBuffer } from './sample-buffer';
import { planSeats, type OpponentMode, type PlanContext, type SeatPlan } from './seat-plan';
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

/** The seat-plan context of one lane, without the per-iteration parts. */
export type LaneContext = Omit<PlanContext<Entry>, 'learnerAgent' | 'training'>;

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
  /**
   * Seat-plan context (without the per-iteration parts) of lane `lane`: the lane's own fixed
   * agents (an agent's per-episode state never meets another episode's), snapshot policies
   * acting through `batcher`.
   */
  base(lane: number, batcher: DecisionBatcher): LaneContext;
  /** Episodes played in lockstep (lanes). */
  lanes: number;
  /** Whether a learner trains (records) in this iteration. */
  training(e: Entry): boolean;
  /** Episode sources (checked, see episode-sources.ts); when given, `opponents` is not used. */
  sources?: readonly EpisodeSource[];
}

/** An episode played by a lane, waiting to be merged in episode order. */
interface Played {
  k: number;
  result: MatchResult;
  plan: SeatPlan<Entry>;
  /** The episode source it was planned by, if any. */
  source?: EpisodeSource;
  /** Its decisions, per learner. */
  bufs: Map<Entry, SampleBuffer>;
}

/**
 * Plays the iteration's episodes into the learners' buffers (cleared first), `lanes` of them
 * in lockstep: each lane runs one episode at a time through the match runner, and every
 * decision the networks owe across lanes is answered in one batched forward pass
 * ({@link DecisionBatcher}). Each episode records into buffers of its own, merged into the
 * learners' buffers in episode order, and tallies are taken in that order too, so the batch is
 * the same for every number of lanes (bit for bit: tested). When `signal` aborts, the
 * episodes under way stop at their next decision, the buffers are cleared and null returned
 * (nothing else changed).
 */
export async function collectEpisodes(s: RolloutSetup, signal: AbortSignal | undefined): Promise<Batch | null> {
  const batch: Batch = { tallies: new Map(s.entries.map((e) => [e, emptyTally()])), outcomes: {}, summaries: [], episodeOutcomes: [] };
  for (const e of s.entries) e.buf.clear();
  const n = s.cfg.episodesPerIteration;
  // episode sources are allocated per group of episodes, exactly by weight (episode-sources.ts)
  const sources = s.sources;
  const allocation = sources ? allocateSources(sources.map((x) => x.weight), Math.ceil(n / s.cfg.groupSize)) : undefined;
  if (sources) {
    batch.episodeSources = [];
    batch.sourceSummaries = Object.fromEntries(sources.map((x) => [x.label, []]));
  }
  const sourceOf = (k: number): EpisodeSource | undefined => (allocation && sources ? sources[allocation[Math.floor(k / s.cfg.groupSize)]] : undefined);
  const batcher = new DecisionBatcher();
  const finished = new Map<number, Played>();
  const spare: Map<Entry, SampleBuffer>[] = [];
  const turn = new EventLoopTurn();
  // The matches get a signal of their own: every pending decision of every lane listens to it,
  // more listeners than Node's default warning limit for the caller's signal (which gets one).
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort();
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  let merged = 0;
  let stopped = false;
  const lane = async (index: number): Promise<void> => {
    const base = s.base(index, batcher);
    try {
      for (;;) {
        await turn.maybe();
        if (signal?.aborted) stopped = true;
        if (stopped || next >= n) return;
        const k = next++;
        finished.set(k, await playEpisode(s, k, base, batcher, stop.signal, spare.pop() ?? new Map(s.entries.map((e) => [e, new SampleBuffer(e.buf.inputSize, e.buf.numActions, 16)])), sourceOf(k)));
        for (let p = finished.get(merged); p; p = finished.get(merged)) {
          finished.delete(merged++);
          mergeEpisode(s, p, batch);
          spare.push(p.bufs);
        }
      }
    } catch (e) {
      stopped = true;
      throw e;
    }
  };
  // Episode sources hand out agents from the league's shared cache (league/episode-sources.ts),
  // not per-lane copies: their episodes play one at a time (the batch is the same either way).
  const laneCount = sources ? 1 : s.lanes;
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(laneCount, n) }, (_, i) => lane(i)));
  signal?.removeEventListener('abort', onAbort);
  const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failed || merged < n || signal?.aborted) {
    for (const e of s.entries) e.buf.clear();
    if (failed) throw failed.reason;
    return null;
  }
  return batch;
}

/**
 * Plays episode `k` with a lane's context: seats planned by the episode source when given, else
 * by the opponent mode; training learners recording into `bufs`.
 */
async function playEpisode(s: RolloutSetup, k: number, base: LaneContext, batcher: DecisionBatcher, signal: AbortSignal | undefined, bufs: Map<Entry, SampleBuffer>, source?: EpisodeSource): Promise<Played> {
  const { cfg, env, iteration: it } = s;
  const params = source?.params ?? s.params;
  const modes = s.opponents;
  const mode = source ? 'source' : modes[k % modes.length];
  const g = Math.floor(k / cfg.groupSize);
  const actSeed = (seat: number) => deriveSeed(cfg.seed, 'act', it, k, seat);
  const ctx: PlanContext<Entry> = {
    ...base,
    training: s.training,
    learnerAgent: (e, seat, record): Agent =>
      record
        ? new RecordingAgent(
            e.id,
            e.learner.model,
            Rng.fromSeed(actSeed(seat)),
            { buf: bufs.get(e)!, episode: k, group: String(g), rewardScale: cfg.rewardScale, recordSteps: env.capabilities.tries },
            batcher,
          )
        : policyAgent(e.id, e.learner.model, Rng.fromSeed(actSeed(seat)), batcher),
  };
  const pool = s.baselines;
  if (mode === 'baselines' && pool.length === 0) throw new Error('--opponents baselines needs at least one baseline agent other than "self" in config.baselines');
  const opponent = mode === 'baselines' ? pool[Math.floor(k / modes.length) % pool.length] : undefined;
  let plan: SeatPlan<Entry> | undefined;
  const result = await runMatch({
    env,
    params,
    seed: deriveSeed(cfg.seed, 'env', it, g),
    matchId: `${s.runId}:${it}:${k}`,
    signal,
    agents: (seats) => {
      const rng = Rng.fromSeed(deriveSeed(cfg.seed, 'plan', it, k));
      const opponentFor = source?.opponent ? (seat: number, role: string) => source.opponent!(seat, role, rng) : undefined;
      plan = planSeats(mode, seats, k, ctx, rng, { opponent, opponentFor, label: source?.label });
      return plan.agents;
    },
  });
  return { k, result, plan: plan!, bufs, source };
}

/** Adds a played episode to the batch: its decisions (cut into tries) to the learners' buffers, its outcome and tallies. */
function mergeEpisode(s: RolloutSetup, p: Played, batch: Batch): void {
  const { result, plan, source } = p;
  batch.outcomes[result.outcome] = (batch.outcomes[result.outcome] ?? 0) + 1;
  batch.summaries.push(result.summary);
  batch.episodeOutcomes.push(result.outcome);
  if (source) {
    batch.episodeSources!.push(source.label);
    batch.sourceSummaries![source.label].push(result.summary);
  }
  for (const e of s.entries) {
    const local = p.bufs.get(e)!;
    if (s.env.capabilities.tries && local.trajectories.length) local.trajectories.push(...cutTries(local.trajectories.splice(0), result.rewards, s.cfg.rewardScale));
    e.buf.append(local);
    local.clear();
    const mine = [...plan.learnerSeats].filter(([, l]) => l === e).map(([seat]) => seat);
    if (mine.length) tallyEpisode(batch.tallies.get(e)!, mine, result.returns, result.seats, plan.label === 'self' ? selfLabel(plan.agents, plan.learnerSeats) : plan.label);
  }
}
