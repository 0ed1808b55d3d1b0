/**
 * The epochs and minibatches of one learner update ({@link UpdateRun}: seeded shuffles, KL early
 * stop, weighted means of the minibatch stats) and the gathering of a minibatch's host arrays,
 * shared by every update path (learner.ts: tfjs host and device paths; fused-update.ts).
 */
import { Rng } from '../core/rng';
import type { LossBatch, LossStats } from './policy-loss';
import type { SampleBuffer } from './sample-buffer';
import type { Targets } from './targets';
import type { UpdateOptions, UpdateStats } from './update-types';

/** The inputs and loss batch of the samples `idx` (host arrays). */
export function gather(buf: SampleBuffer, targets: Targets, idx: Int32Array): { x: Float32Array; batch: LossBatch } {
  const m = idx.length;
  const inSize = buf.inputSize;
  const A = buf.numActions;
  const x = new Float32Array(m * inSize);
  const batch: LossBatch = {
    size: m,
    numActions: A,
    masks: new Float32Array(m * A),
    actions: new Int32Array(m),
    oldLogp: new Float32Array(m),
    advantages: new Float32Array(m),
    returns: new Float32Array(m),
  };
  for (let r = 0; r < m; r++) {
    const s = idx[r];
    x.set(buf.inputs.subarray(s * inSize, (s + 1) * inSize), r * inSize);
    batch.masks.set(buf.masks.subarray(s * A, (s + 1) * A), r * A);
    batch.actions[r] = buf.actions[s];
    batch.oldLogp[r] = buf.logp[s];
    batch.advantages[r] = targets.advantages[s];
    batch.returns[r] = targets.returns[s];
  }
  return { x, batch };
}

const STAT_KEYS = ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction'] as const;

/** The epochs and minibatches of one update and the weighted means of their stats. */
export class UpdateRun {
  private readonly total: UpdateStats;
  private readonly rng: Rng;
  /** The current epoch's sample order (minibatch k = order[k·size .. (k + 1)·size)). */
  readonly order: Int32Array;
  private weightSum = 0;
  private epoch = -1;
  private epochKl = 0;
  private epochN = 0;

  constructor(
    private readonly n: number,
    private readonly o: UpdateOptions,
  ) {
    this.total = { loss: 0, policyLoss: 0, valueLoss: 0, entropy: 0, approxKl: 0, clipFraction: 0, gradNorm: 0, minibatches: 0, epochs: 0, samples: n };
    this.rng = Rng.fromSeed(o.seed);
    this.order = Int32Array.from({ length: n }, (_, i) => i);
  }

  /** Closes the current epoch; whether another one runs (epochs left, KL below the limit). Shuffles for it. */
  nextEpoch(): boolean {
    if (this.n === 0) return false;
    if (this.epoch >= 0) {
      this.total.epochs++;
      if (this.o.targetKl > 0 && this.epochKl / this.epochN > 1.5 * this.o.targetKl) return false;
    }
    if (++this.epoch >= this.o.epochs) return false;
    const { order, rng } = this;
    for (let i = this.n - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    this.epochKl = 0;
    this.epochN = 0;
    return true;
  }

  /** The current epoch's minibatches (sample index lists). */
  *minibatches(): Generator<Int32Array> {
    for (let start = 0; start < this.n; start += this.o.minibatchSize) yield this.order.subarray(start, Math.min(this.n, start + this.o.minibatchSize));
  }

  /** Adds a minibatch's stats; false when they are not finite (stop: {@link failed}). */
  add(stats: LossStats, gradNorm: number, w: number): boolean {
    if (!Number.isFinite(stats.loss) || !Number.isFinite(gradNorm)) return false;
    this.weightSum += w;
    for (const k of STAT_KEYS) this.total[k] += stats[k] * w;
    this.total.gradNorm += gradNorm * w;
    this.total.minibatches++;
    this.epochKl += stats.approxKl * w;
    this.epochN += w;
    return true;
  }

  /** The stats of a refused update: a non-finite loss. */
  failed(loss: number): UpdateStats {
    return { ...this.total, loss: Number.isFinite(loss) ? NaN : loss };
  }

  /** The means over every minibatch. */
  result(): UpdateStats {
    if (this.weightSum > 0) for (const k of [...STAT_KEYS, 'gradNorm'] as const) this.total[k] /= this.weightSum;
    return this.total;
  }
}
