/**
 * The kernel task format: one file per task in this folder, each exporting a {@link KernelTask}.
 *
 * Calling convention, the same for the reference, the expert, template kernels and every
 * candidate: the source text of ONE function expression,
 *
 *     function kernel(inputs, dims) { ...; return { out: new Float32Array(n) }; }
 *
 * `inputs` maps each input name to a typed array (Float32Array for f32, Int32Array for i32,
 * Uint32Array for u32; row-major, length = product of its shape), `dims` maps each dimension name
 * to an integer. It returns an object mapping each output name to a typed array of the declared
 * dtype and length. The source runs inside a sandboxed isolate with nothing but the language
 * (no timers, no clock, no require), so it must be self-contained. Kernels must not modify their
 * inputs (the measurement checks).
 */
import type { Rng } from '../../../src/core/rng';

/** Element types of tensors. */
export type DType = 'f32' | 'i32' | 'u32';

/** Typed array of each dtype. */
export type TypedArrayOf = Float32Array | Int32Array | Uint32Array;

/** Inclusive range of one dimension allowed by the contract. */
export interface DimRange {
  min: number;
  max: number;
}

/** An input tensor of the contract: shape in dimension names (or fixed numbers) and value range. */
export interface InputSpec {
  name: string;
  dtype: DType;
  shape: (string | number)[];
  /** Inclusive range of values the kernel must handle (the attacker must stay inside it). */
  range: [number, number];
  /** True when subnormal (denormal) floats are inside the contract. Default false. */
  subnormals?: boolean;
}

/** An output tensor of the contract. */
export interface OutputSpec {
  name: string;
  dtype: DType;
  shape: (string | number)[];
}

/** Shapes: a value for every dimension name. */
export type Dims = Record<string, number>;

/** One knob of the schedule template: its name and the options it can take, in fixed order. */
export interface Knob {
  name: string;
  options: readonly (number | string)[];
}

/** A schedule: one chosen option per knob. */
export type Schedule = Record<string, number | string>;

/**
 * The task's schedule template: the defender's discrete action space. Action index = the
 * mixed-radix number of the option indices, first knob most significant (see schedule.ts).
 */
export interface KernelTemplate {
  knobs: readonly Knob[];
  /** Kernel source for a schedule; every legal schedule must compute the reference's result. */
  render(schedule: Schedule): string;
  /** Optional legality rule (e.g. tile ≥ unroll); default: every combination is legal. */
  legal?(schedule: Schedule): boolean;
}

/** Allowed error: |actual − expected| ≤ atol + rtol·|expected| elementwise (torch.allclose). 0/0 = exact. */
export interface Tolerance {
  atol: number;
  rtol: number;
}

/** One kernel task. */
export interface KernelTask {
  /** Short id, e.g. "matmul". */
  id: string;
  title: string;
  /** What the kernel computes, its inputs, outputs and layout, for the defender. */
  description: string;
  dims: Record<string, DimRange>;
  /** Optional cross-dimension rule (e.g. a conv's input larger than its kernel); default none. */
  dimsValid?(dims: Dims): string | null;
  inputs: readonly InputSpec[];
  outputs: readonly OutputSpec[];
  tolerance: Tolerance;
  /** Shapes the correctness check always includes: the contract's edges (1, odd sizes, max). */
  edgeShapes: readonly Dims[];
  /** Shapes used for timing (kept small enough that one call takes ~0.1–5 ms). */
  timingShapes: readonly Dims[];
  /** Shapes never used for tuning, for evaluating learned schedules. */
  heldOutShapes: readonly Dims[];
  /** Honest reference: straightforward typed-array JS. */
  reference: string;
  /** A hand-optimized JS version: the ceiling (best known speedup). */
  expert: string;
  template: KernelTemplate;
  /** Seeded input generator; values inside each input's range. */
  generate(dims: Dims, rng: Rng): Record<string, TypedArrayOf>;
}
