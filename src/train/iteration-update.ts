/**
 * The updates of one training iteration: for every learner the schedule lets train, its returns
 * shaped by its proposer reward (when configured), its targets, then its update — in this thread,
 * or posted to the update worker (fused/update-pool.ts) so the trainer's thread can play the next
 * iteration's episodes meanwhile. Everything an update reads is prepared (and, for the worker,
 * copied) before the returned promise's first wait, so the caller may refill the buffers as soon
 * as the call returns; the learners take the new weights only once `applyAfter` settles.
 */
import { finiteWeights } from './checkpoint';
import type { TrainConfig } from './config';
import { summarizeTally } from './episode-stats';
import type { UpdateWorker } from './fused/update-pool';
import type { UpdateStats } from './learner';
import { updateLearner, updateOptions } from './learner-update';
import type { LearnerMetrics } from './metrics-log';
import { shapeBufferReturns } from './proposer-reward';
import type { Batch, Entry } from './rollouts';
import { computeTargets } from './targets';

/** Learners' metrics and the sample counts of an iteration's updates. */
export interface IterationUpdate {
  learners: Record<string, LearnerMetrics>;
  samples: number;
  /** Samples × epochs through the optimizer. */
  processed: number;
  /** Wall seconds from the start until the last update was computed (not counting the wait for `applyAfter`). */
  seconds: number;
}

/** What the updates of an iteration need. */
export interface UpdateSetup {
  entries: readonly Entry[];
  training(e: Entry): boolean;
  cfg: TrainConfig;
  iteration: number;
  lr: number;
  /** The device update (asynchronous reads) instead of the host or fused one. */
  onDevice: boolean;
  /** Run fused updates in this worker. */
  worker?: UpdateWorker;
  /**
   * With the worker: the learners keep their weights until this settles (the episodes played
   * meanwhile all see the weights from before the update), then take the updated ones.
   */
  applyAfter?: Promise<unknown>;
  /** The error to throw when a learner's update diverged (non-finite loss or weights). */
  diverged(e: Entry, loss: number): Error;
}

interface Job {
  e: Entry;
  m: LearnerMetrics;
  size: number;
  run(): Promise<UpdateStats> | UpdateStats;
  /** When its update was computed (performance.now()). */
  doneAt?: number;
}

/** Updates every learner that trains in this iteration on its buffer of `batch`; see the module note. */
export function runUpdates(s: UpdateSetup, batch: Batch): Promise<IterationUpdate> {
  const start = performance.now();
  const jobs: Job[] = [];
  const learners: Record<string, LearnerMetrics> = {};
  for (const e of s.entries) {
    const training = s.training(e);
    const m: LearnerMetrics = { training, ...summarizeTally(batch.tallies.get(e)!), updates: e.learner.updates };
    learners[e.id] = m;
    if (!training || e.buf.size === 0) continue;
    const reward = s.cfg.learners[e.id]?.reward;
    const shaped = reward && shapeBufferReturns(e.buf, batch.episodeOutcomes, reward);
    if (shaped) m.reward = { valid: shaped.valid, repeated: shaped.repeated, meanPenalty: shaped.meanPenalty };
    if (s.worker && e.learner.impl === 'fused') {
      const cfg = s.cfg;
      const targets = computeTargets(e.buf, { algorithm: cfg.algorithm, gamma: cfg.gamma, lambda: cfg.lambda, normalizeAdvantages: cfg.normalizeAdvantages, groupBy: cfg.groupBy });
      const pending = s.worker.run(e.learner.updateRequest(e.buf, targets, updateOptions(cfg, e.id, s.iteration, s.lr)));
      const job: Job = {
        e,
        m,
        size: e.buf.size,
        run: async () => {
          const r = await pending;
          job.doneAt = performance.now();
          await s.applyAfter;
          e.learner.applyUpdate(r);
          return r.stats;
        },
      };
      jobs.push(job);
    } else jobs.push({ e, m, size: e.buf.size, run: () => updateLearner(e, s.cfg, s.iteration, s.lr, s.onDevice) });
  }
  return finish(s, jobs, learners, start);
}

async function finish(s: UpdateSetup, jobs: Job[], learners: Record<string, LearnerMetrics>, start: number): Promise<IterationUpdate> {
  let samples = 0;
  let processed = 0;
  let end = start;
  for (const j of jobs) {
    const stats = await j.run();
    end = Math.max(end, j.doneAt ?? performance.now());
    j.m.update = stats;
    j.m.updates = j.e.learner.updates;
    if (!Number.isFinite(stats.loss) || !finiteWeights(j.e.learner.weights)) throw s.diverged(j.e, stats.loss);
    samples += j.size;
    processed += j.size * stats.epochs;
  }
  return { learners, samples, processed, seconds: (end - start) / 1000 };
}
