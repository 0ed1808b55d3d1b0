/**
 * The messages between the trainer and its update worker (update-worker.ts, update-pool.ts): a
 * learner's whole update as data — weights, Adam state, the samples and targets, the options —
 * and its result. Typed arrays travel as transferred copies, so the worker owns what it gets and
 * the trainer can refill its buffers with the next iteration's episodes meanwhile.
 */
import type { AdamConfig } from '../adam';
import type { UpdateOptions, UpdateStats } from '../update-types';
import type { MlpSpec } from '../mlp';

/** One learner's update. */
export interface UpdateRequest {
  /** Request number (replies carry it back). */
  id: number;
  /** The learner: the worker keeps one module instance per learner. */
  learner: string;
  spec: MlpSpec;
  adam: AdamConfig;
  weights: Float32Array[];
  m: Float32Array[];
  v: Float32Array[];
  /** Adam steps taken before this update. */
  step: number;
  /** Samples: n inputs (n × inputSize), masks (n × units), actions, log π_old, advantages, value targets. */
  n: number;
  inputs: Float32Array;
  masks: Float32Array;
  actions: Int32Array;
  logp: Float32Array;
  advantages: Float32Array;
  returns: Float32Array;
  options: UpdateOptions;
}

/** What an update produced: the new weights and Adam state, and its stats. */
export interface UpdateResult {
  weights: Float32Array[];
  m: Float32Array[];
  v: Float32Array[];
  step: number;
  stats: UpdateStats;
}

/** The worker's answer. */
export type UpdateReply = { id: number; ok: true; result: UpdateResult } | { id: number; ok: false; error: string };

/** The typed arrays of a request or result, for the transfer list. */
export function transferables(x: UpdateRequest | UpdateResult): ArrayBuffer[] {
  const arrays: ArrayBufferView[] = [...x.weights, ...x.m, ...x.v];
  if ('inputs' in x) arrays.push(x.inputs, x.masks, x.actions, x.logp, x.advantages, x.returns);
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}
