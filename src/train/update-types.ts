/**
 * The options and diagnostics of one policy update, shared by the learner (learner.ts), the
 * minibatch loop (update-run.ts) and the fused update (fused/), in a file of their own so that
 * none of those imports the learner back.
 */
import type { LossCoefs, LossStats } from './policy-loss';

/** Hyper-parameters of one update. */
export interface UpdateOptions extends LossCoefs {
  epochs: number;
  minibatchSize: number;
  targetKl: number;
  lr: number;
  /** Seed of the minibatch shuffling. */
  seed: number;
}

/** Diagnostics of one update (means over its minibatches). */
export interface UpdateStats extends LossStats {
  gradNorm: number;
  minibatches: number;
  epochs: number;
  samples: number;
}
