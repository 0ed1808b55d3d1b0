/**
 * One learner's update in an iteration: value targets and advantages from its buffer, the
 * update options (per-learner overrides applied), and the host or device update path.
 */
import { deriveSeed } from '../core/rng';
import type { TrainConfig } from './config';
import type { UpdateOptions, UpdateStats } from './learner';
import type { Entry } from './rollouts';
import { computeTargets } from './targets';

/** The update options of learner `id` in iteration `it` at learning rate `lr`. */
export function updateOptions(cfg: TrainConfig, id: string, it: number, lr: number): UpdateOptions {
  const own = cfg.learners[id] ?? {};
  return {
    clip: cfg.clip,
    valueCoef: cfg.valueCoef,
    entropyCoef: own.entropyCoef ?? cfg.entropyCoef,
    epochs: own.epochs ?? cfg.epochs,
    minibatchSize: cfg.minibatchSize,
    targetKl: cfg.targetKl,
    lr: lr * (own.lrScale ?? 1),
    seed: deriveSeed(cfg.seed, 'shuffle', it, id),
  };
}

/** Updates `e`'s learner on its buffer (on the device when `onDevice`); its stats. */
export function updateLearner(e: Entry, cfg: TrainConfig, it: number, lr: number, onDevice: boolean): UpdateStats | Promise<UpdateStats> {
  const targets = computeTargets(e.buf, { algorithm: cfg.algorithm, gamma: cfg.gamma, lambda: cfg.lambda, normalizeAdvantages: cfg.normalizeAdvantages, groupBy: cfg.groupBy });
  const options = updateOptions(cfg, e.id, it, lr);
  return onDevice ? e.learner.updateOnDevice(e.buf, targets, options) : e.learner.update(e.buf, targets, options);
}
