/**
 * Inputs of measured calls: tensor sizes from shapes, the declared outputs of a call, the
 * per-measurement secret and the input streams drawn from it, and the random shapes of the
 * seeded correctness trials.
 *
 * Nothing a kernel sees may be predictable by the kernel: every input and every drawn shape of a
 * measurement comes from a stream seeded by HMAC-SHA256(secret, label), where the secret is 32
 * fresh random bytes per measurement (never derived from the match seed, never shown to the
 * kernel). Streams of different labels (each correctness trial, each warm-up call, each timed
 * trial) are independent: what a kernel learns from one call's inputs says nothing about the
 * next call's.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Rng, type Seed } from '../../../src/core/rng';
import type { KernelOutputSpec } from '../../../src/core/sandbox';
import type { Dims, KernelTask, TypedArrayOf } from '../tasks/task';
import { PROBE_OUTPUT } from './instrument';

/** Elements of a tensor of `shape` (dimension names or numbers) for `dims`. */
export function numel(shape: readonly (string | number)[], dims: Dims): number {
  let n = 1;
  for (const d of shape) n *= typeof d === 'number' ? d : dims[d];
  return n;
}

/** The outputs a call must return for `dims` (the task's, plus the wrapper's probe). */
export function outputSpecs(task: KernelTask, dims: Dims): KernelOutputSpec[] {
  return [...task.outputs.map((o) => ({ name: o.name, dtype: o.dtype, length: numel(o.shape, dims) })), { name: PROBE_OUTPUT, dtype: 'i32', length: 2 }];
}

/** Names of the task's outputs, in declared order. */
export function outputNames(task: KernelTask): string[] {
  return task.outputs.map((o) => o.name);
}

/** A fresh per-measurement secret: 32 random bytes (hex). */
export function freshSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * The seed of one input stream of a measurement: HMAC-SHA256(secret, labels joined by NUL) as 64
 * hex digits — unpredictable without the secret, independent per label (never a 32-bit seed a
 * kernel could search).
 */
export function streamSeed(secret: string, ...labels: (string | number)[]): string {
  return createHmac('sha256', secret).update(labels.map(String).join('\u0000')).digest('hex');
}

/** Fresh seeded inputs for one call. */
export function trialInputs(task: KernelTask, dims: Dims, seed: Seed): Record<string, TypedArrayOf> {
  return task.generate(dims, Rng.fromSeed(seed));
}

/** Why `dims` is outside the task's contract, or null. */
export function dimsProblem(task: KernelTask, dims: unknown): string | null {
  if (!dims || typeof dims !== 'object' || Array.isArray(dims)) return 'dims must be an object of dimension sizes';
  const d = dims as Record<string, unknown>;
  for (const name of Object.keys(d)) if (!Object.hasOwn(task.dims, name)) return `dims has unknown dimension "${name}" (${task.id} has ${Object.keys(task.dims).join(', ')})`;
  for (const [name, r] of Object.entries(task.dims)) {
    const v = Object.hasOwn(d, name) ? d[name] : undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < r.min || v > r.max) return `dims.${name} must be an integer in [${r.min}, ${r.max}], got ${JSON.stringify(v)}`;
  }
  return task.dimsValid ? task.dimsValid(d as Dims) : null;
}

/**
 * `count` shapes for the seeded correctness trials: the timing shape first, then shapes drawn
 * log-uniformly inside the contract (a draw that fails the task's cross-dimension rule is
 * retried; after 50 failures a listed edge or timing shape is taken instead).
 */
export function seededShapes(task: KernelTask, timing: Dims, count: number, seed: Seed): Dims[] {
  const rng = Rng.fromSeed(seed);
  const listed = [...task.edgeShapes, ...task.timingShapes];
  const out: Dims[] = [timing];
  while (out.length < count) {
    let shape: Dims | null = null;
    for (let attempt = 0; attempt < 50 && !shape; attempt++) {
      const d: Dims = {};
      for (const [name, r] of Object.entries(task.dims)) {
        const v = Math.round(Math.exp(Math.log(r.min) + rng.next() * (Math.log(r.max) - Math.log(r.min))));
        d[name] = Math.min(r.max, Math.max(r.min, v));
      }
      if (!task.dimsValid || task.dimsValid(d) === null) shape = d;
    }
    out.push(shape ?? listed[rng.int(listed.length)]);
  }
  return out;
}

/** Short text of a shape: `M=128 N=128 K=128`. */
export function shapeText(dims: Dims): string {
  return Object.entries(dims)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}
