/**
 * A learner's update on a {@link FusedNet}: the buffer and its targets go into the module's
 * sample store once, each epoch's shuffled order once, then one module call per minibatch step
 * (gather, forward, PPO loss, backward, global-norm clipping, Adam). The epochs, shuffles, KL
 * early stop and stat means are the other paths' (update-run.ts), so the three paths take the
 * same minibatches.
 */
import type { AdamConfig } from '../adam';
import type { UpdateOptions, UpdateStats } from '../update-types';
import type { SampleBuffer } from '../sample-buffer';
import type { Targets } from '../targets';
import { UpdateRun } from '../update-run';
import type { FusedNet } from './fused-net';

/** The samples an update reads (a SampleBuffer, or its arrays sent to the update worker). */
export type UpdateSamples = Pick<SampleBuffer, 'size' | 'inputs' | 'masks' | 'actions' | 'logp'>;

/** Adam's step counter, advanced once per minibatch. */
export interface StepCounter {
  step: number;
}

/**
 * Runs the update over every sample in `buf`: the same contract as Learner.update (stops at the
 * first minibatch whose loss or gradient norm is not finite and returns a non-finite loss).
 */
export function fusedUpdate(net: FusedNet, adam: AdamConfig, counter: StepCounter, buf: UpdateSamples, targets: Targets, o: UpdateOptions): UpdateStats {
  const run = new UpdateRun(buf.size, o);
  if (buf.size === 0) return run.result();
  const rows = Math.min(o.minibatchSize, buf.size);
  net.loadSamples(buf.size, buf.inputs, buf.masks, buf.actions, buf.logp, targets.advantages, targets.returns, rows);
  while (run.nextEpoch()) {
    net.setOrder(run.order);
    for (let start = 0; start < buf.size; start += o.minibatchSize) {
      const count = Math.min(o.minibatchSize, buf.size - start);
      const t = ++counter.step;
      const { stats, gradNorm } = net.step(start, count, o, { lr: o.lr, beta1: adam.beta1, beta2: adam.beta2, epsilon: adam.epsilon, maxGradNorm: adam.maxGradNorm, t });
      if (!run.add(stats, gradNorm, count)) return run.failed(stats.loss);
    }
  }
  return run.result();
}
