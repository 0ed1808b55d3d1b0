/**
 * The boundary attacker of kernel-speedup-v1: one input at the edges of the contract, where
 * kernels tuned on typical inputs break — a shape whose sizes are not multiples of any tile or
 * unroll factor (the least aligned of the contract's listed edge shapes, so cross-dimension rules
 * hold), values cycling through the range's extremes (large magnitudes for softmax, the top bin
 * for histograms), and subnormals where the contract allows them.
 */
import type { AgentFactory } from '../../../src/core/agent';
import type { TensorFill } from '../measure/attack';
import type { Dims } from '../tasks/task';
import type { KernelObservation } from '../types';

const MIN_SUBNORMAL = 2 ** -149;

/** How badly a shape fits tiles: the number of dimensions not divisible by 2, 4, 8 (more is better), then size. */
function misalignment(d: Dims): number {
  let score = 0;
  for (const v of Object.values(d)) for (const m of [2, 4, 8]) if (v > 1 && v % m !== 0) score++;
  return score;
}

/** The values an input cycles through: both ends of its range, their halves, zero (and a subnormal where allowed). */
export function boundaryValues(spec: KernelObservation['task']['inputs'][number]): number[] {
  const [lo, hi] = spec.range;
  const ints = spec.dtype !== 'f32';
  const half = (x: number) => (ints ? Math.trunc(x / 2) : x / 2);
  const vals = [hi, lo, hi, half(hi), lo, half(lo), hi, 0].filter((v) => v >= lo && v <= hi);
  if (!ints && spec.subnormals && lo <= MIN_SUBNORMAL && MIN_SUBNORMAL <= hi) vals.push(MIN_SUBNORMAL, -MIN_SUBNORMAL >= lo ? -MIN_SUBNORMAL : MIN_SUBNORMAL);
  return vals;
}

/** The attack: the least aligned listed edge shape, every input cycling through its boundary values. */
export function boundaryAttack(o: KernelObservation): { dims: Dims; inputs: Record<string, TensorFill> } {
  const shapes = [...o.task.edgeShapes];
  shapes.sort((a, b) => misalignment(b) - misalignment(a) || Object.values(b).reduce((x, y) => x * y, 1) - Object.values(a).reduce((x, y) => x * y, 1));
  const dims = shapes[0];
  const inputs: Record<string, TensorFill> = {};
  for (const spec of o.task.inputs) inputs[spec.name] = { cycle: boundaryValues(spec) };
  return { dims, inputs };
}

export const boundaryAttacker: AgentFactory = {
  name: 'boundary-attacker',
  description: 'one input at the contract’s edges: the least tile-aligned listed shape, values cycling through the range extremes (large magnitudes), subnormals where allowed',
  envs: ['kernel-speedup-v1'],
  roles: ['attacker'],
  create: () => ({ name: 'boundary-attacker', act: (o: KernelObservation) => boundaryAttack(o) }),
};
