/**
 * Advantages and value targets for every sample of a learner's buffer, from its trajectories'
 * final returns (rewards arrive at the end of an episode: the env's returns).
 *
 * - ppo: each trajectory's reward sequence is 0, …, 0, R (R on the seat's last decision), and
 *   GAE over the network's values gives advantages and value targets; advantages are then
 *   normalized over the batch when configured.
 * - grpo / rloo: every decision of a trajectory gets its trajectory's group-relative advantage
 *   (outcome supervision); value targets are the discounted returns. Groups: trajectories of
 *   one role that start from the same observation (`groupBy` "start", the default: the K
 *   attempts at one puzzle, every challenger episode, the episodes of one seed group), or
 *   that come from the same seed group of `groupSize` episodes (`groupBy` "seed").
 */
import { discountedReturns, gae, groupAdvantages, normalize, type GroupBaseline } from './advantages';
import type { SampleBuffer } from './sample-buffer';

/** What the update needs per sample. */
export interface Targets {
  advantages: Float32Array;
  returns: Float32Array;
}

export interface TargetOptions {
  algorithm: 'ppo' | GroupBaseline;
  gamma: number;
  lambda: number;
  normalizeAdvantages: boolean;
  groupBy?: 'start' | 'seed';
}

/** Key of a trajectory's start: its role and the exact input of its first decision. */
function startKey(buf: SampleBuffer, role: string, first: number): string {
  const row = buf.inputs.subarray(first * buf.inputSize, (first + 1) * buf.inputSize);
  return `${role}\u0000${Buffer.from(row.buffer, row.byteOffset, row.byteLength).toString('base64')}`;
}

/** Computes the targets of every sample in `buf`. */
export function computeTargets(buf: SampleBuffer, o: TargetOptions): Targets {
  const advantages = new Float32Array(buf.size);
  const returns = new Float32Array(buf.size);
  const trajs = buf.trajectories.filter((t) => t.indices.length > 0);
  if (o.algorithm === 'ppo') {
    for (const t of trajs) {
      const T = t.indices.length;
      const rewards = new Float64Array(T);
      rewards[T - 1] = t.ret;
      const values = t.indices.map((i) => buf.values[i]);
      const r = gae(rewards, values, o.gamma, o.lambda, 0);
      t.indices.forEach((i, k) => {
        advantages[i] = r.advantages[k];
        returns[i] = r.returns[k];
      });
    }
    if (o.normalizeAdvantages) normalize(advantages);
    return { advantages, returns };
  }
  const adv = groupAdvantages(
    trajs.map((t) => t.ret),
    // a try's start is its seat's first decision in the episode (tries.ts): the K attempts at one puzzle are one group
    trajs.map((t) => (o.groupBy === 'seed' ? `${t.group}\u0000${t.role}` : startKey(buf, t.role, t.start ?? t.indices[0]))),
    o.algorithm,
  );
  trajs.forEach((t, k) => {
    const T = t.indices.length;
    const rewards = new Float64Array(T);
    rewards[T - 1] = t.ret;
    const ret = discountedReturns(rewards, o.gamma);
    t.indices.forEach((i, j) => {
      advantages[i] = adv[k];
      returns[i] = ret[j];
    });
  });
  return { advantages, returns };
}
