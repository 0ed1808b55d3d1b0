/**
 * Batched acting for vectorized self-play. Episodes played in lockstep ask their policies for
 * decisions through one batcher; it queues each request per network and, once every episode
 * that can progress has asked (one turn of the event loop: the episodes advance through
 * promise continuations only), evaluates each network once for all its queued rows and
 * answers them in the order they were asked.
 *
 * A row's answer is bit for bit the one {@link PolicyModel.decide} gives for the same input
 * and sampler: the forward pass is row-independent (mlp.ts) and each request keeps its own
 * random stream. Errors stay per request: a request that cannot be prepared throws at once
 * (the runner records the fault as for any agent), one that fails in the batch rejects alone.
 */
import type { Rng } from '../core/rng';
import type { PolicyModel, PolicyStep } from './policy-model';

/** Called with a decision's step, input row and mask row (views, valid during the call). */
export type StepSink = (step: PolicyStep, input: Float32Array, mask: Float32Array) => void;

interface Pending {
  rng: Rng | null;
  sink: StepSink | undefined;
  resolve(step: PolicyStep): void;
  reject(e: unknown): void;
}

/** One network's queue: inputs and masks row after row. */
class ModelQueue {
  x: Float32Array;
  masks: Float32Array;
  pending: Pending[] = [];

  constructor(readonly model: PolicyModel) {
    this.x = new Float32Array(model.input.length * 16);
    this.masks = new Float32Array(model.mask.length * 16);
  }

  add(p: Pending): void {
    const { model } = this;
    const r = this.pending.length;
    const inSize = model.input.length;
    const units = model.mask.length;
    if ((r + 1) * inSize > this.x.length) {
      const grownX = new Float32Array(this.x.length * 2);
      grownX.set(this.x);
      this.x = grownX;
      const grownM = new Float32Array(this.masks.length * 2);
      grownM.set(this.masks);
      this.masks = grownM;
    }
    this.x.set(model.input, r * inSize);
    this.masks.set(model.mask, r * units);
    this.pending.push(p);
  }
}

/** Counters of a batcher (for benches and tests). */
export interface BatcherStats {
  /** Forward passes run (one per network per flush). */
  passes: number;
  /** Decisions answered. */
  decisions: number;
  /** Largest batch of one pass. */
  largest: number;
}

/** Queues policy decisions and answers them in batched forward passes (see the module note). */
export class DecisionBatcher {
  private readonly queues = new Map<PolicyModel, ModelQueue>();
  private scheduled = false;
  readonly stats: BatcherStats = { passes: 0, decisions: 0, largest: 0 };

  /**
   * Queues a decision of `model` for an observation (prepared now: a bad observation or role
   * throws here) and returns the promise of its step. `rng` null: greedy. `sink` sees the
   * step with the decision's input and mask just before the promise resolves (recording).
   */
  decide(model: PolicyModel, obs: unknown, legal: readonly unknown[] | null, role: string, rng: Rng | null, sink?: StepSink): Promise<PolicyStep> {
    model.prepare(obs, legal, role);
    let q = this.queues.get(model);
    if (!q) this.queues.set(model, (q = new ModelQueue(model)));
    const queue = q;
    const promise = new Promise<PolicyStep>((resolve, reject) => queue.add({ rng, sink, resolve, reject }));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return promise;
  }

  /** Answers every queued decision: one forward pass per network, rows in the order asked. */
  flush(): void {
    this.scheduled = false;
    for (const [model, q] of this.queues) {
      const pending = q.pending;
      if (pending.length === 0) continue;
      q.pending = [];
      const rows = pending.length;
      this.stats.passes++;
      this.stats.decisions += rows;
      if (rows > this.stats.largest) this.stats.largest = rows;
      let out: Float32Array;
      try {
        out = model.forwardRows(q.x, rows, q.masks);
      } catch (e) {
        for (const p of pending) p.reject(e);
        continue;
      }
      const inSize = model.input.length;
      const units = model.mask.length;
      for (let r = 0; r < rows; r++) {
        const p = pending[r];
        try {
          const step = model.choose(out, r * (units + 1), q.masks, r * units, p.rng);
          p.sink?.(step, q.x.subarray(r * inSize, (r + 1) * inSize), q.masks.subarray(r * units, (r + 1) * units));
          p.resolve(step);
        } catch (e) {
          p.reject(e);
        }
      }
    }
  }
}
