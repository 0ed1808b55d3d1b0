/**
 * Decisions collected for one learner during an iteration, stored flat in growable typed
 * arrays (no per-decision objects), and grouped into trajectories (one per seat per episode).
 */

/**
 * One seat's decisions in one episode, by sample index in time order (seats of one learner
 * that play the same episode interleave in the buffer).
 */
export interface Trajectory {
  indices: number[];
  /** Env step of each decision, recorded for envs with tries (see tries.ts). */
  steps?: number[];
  role: string;
  seat: number;
  /** Episode index within the iteration. */
  episode: number;
  /** Group key: trajectories of one role that share a start state share it. */
  group: string;
  /** The seat's final return (set when the episode ends; already reward-scaled). */
  ret: number;
  /**
   * For a try cut from a seat's episode (tries.ts): the sample index of the seat's first
   * decision in the episode. Tries of one seat share it, so grouping by start observation puts
   * them in one group even when the observation counts the attempts.
   */
  start?: number;
}

function grow<T extends Float32Array | Int32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let n = Math.max(16, a.length);
  while (n < need) n *= 2;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

/** Growable storage of (input, mask, action, logp, value) rows. */
export class SampleBuffer {
  size = 0;
  inputs: Float32Array;
  masks: Float32Array;
  actions: Int32Array;
  logp: Float32Array;
  values: Float32Array;
  readonly trajectories: Trajectory[] = [];

  constructor(
    readonly inputSize: number,
    readonly numActions: number,
    capacity = 256,
  ) {
    this.inputs = new Float32Array(capacity * inputSize);
    this.masks = new Float32Array(capacity * numActions);
    this.actions = new Int32Array(capacity);
    this.logp = new Float32Array(capacity);
    this.values = new Float32Array(capacity);
  }

  /** Appends one decision; returns its index. */
  push(input: Float32Array, mask: Float32Array, action: number, logp: number, value: number): number {
    const i = this.size;
    const need = i + 1;
    this.inputs = grow(this.inputs, need * this.inputSize);
    this.masks = grow(this.masks, need * this.numActions);
    this.actions = grow(this.actions, need);
    this.logp = grow(this.logp, need);
    this.values = grow(this.values, need);
    this.inputs.set(input, i * this.inputSize);
    this.masks.set(mask, i * this.numActions);
    this.actions[i] = action;
    this.logp[i] = logp;
    this.values[i] = value;
    this.size = need;
    return i;
  }

  /** Opens an (empty) trajectory. */
  begin(role: string, seat: number, episode: number, group: string): Trajectory {
    const t: Trajectory = { indices: [], role, seat, episode, group, ret: 0 };
    this.trajectories.push(t);
    return t;
  }

  /**
   * Appends every decision and trajectory of `other` (same sizes) after this buffer's own,
   * sample indices shifted: the result is what recording `other`'s episode directly into this
   * buffer would have made.
   */
  append(other: SampleBuffer): void {
    if (other.inputSize !== this.inputSize || other.numActions !== this.numActions) {
      throw new Error(`SampleBuffer.append: buffer of ${other.inputSize}×${other.numActions} into one of ${this.inputSize}×${this.numActions}`);
    }
    const base = this.size;
    const need = base + other.size;
    this.inputs = grow(this.inputs, need * this.inputSize);
    this.masks = grow(this.masks, need * this.numActions);
    this.actions = grow(this.actions, need);
    this.logp = grow(this.logp, need);
    this.values = grow(this.values, need);
    this.inputs.set(other.inputs.subarray(0, other.size * this.inputSize), base * this.inputSize);
    this.masks.set(other.masks.subarray(0, other.size * this.numActions), base * this.numActions);
    this.actions.set(other.actions.subarray(0, other.size), base);
    this.logp.set(other.logp.subarray(0, other.size), base);
    this.values.set(other.values.subarray(0, other.size), base);
    this.size = need;
    for (const t of other.trajectories) this.trajectories.push({ ...t, indices: t.indices.map((i) => i + base) });
  }

  /** Empties the buffer (keeps its capacity). */
  clear(): void {
    this.size = 0;
    this.trajectories.length = 0;
  }
}
