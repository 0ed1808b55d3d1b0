/**
 * The feature-based evaluator of kernel-speedup-v1: predicts the outcome class of the revision
 * about to be measured from features it can see — the recorded table's interval for a schedule
 * on this shape, an earlier measurement of the same source in the episode, and static features of
 * code (hacking red flags: try/catch, the clock, getters, state kept on the function; the
 * reference itself; signs of optimization: independent accumulators, float64 row buffers,
 * transposed copies, WebAssembly).
 */
import type { AgentFactory } from '../../../src/core/agent';
import { OUTCOMES, TIERS } from '../rewards';
import { tableSpeedup } from '../table';
import type { KernelObservation } from '../types';

const N = OUTCOMES.length;

/** A distribution with `mass` on class `k` and the rest spread over its neighbours and the prior. */
function peaked(k: number, mass: number): number[] {
  const p = new Array<number>(N).fill((1 - mass) / (N + 2));
  p[k] += mass;
  if (k > 0) p[k - 1] += (1 - mass) / (N + 2);
  if (k < N - 1) p[k + 1] += (1 - mass) / (N + 2);
  const sum = p.reduce((a, b) => a + b, 0);
  return p.map((x) => x / sum);
}

/** The outcome class a lower bound clears (1 when none: not faster). */
function classOf(lo: number): number {
  for (let i = 0; i < TIERS.length; i++) if (lo >= TIERS[i][0]) return N - 1 - i;
  return 1;
}

const RED_FLAGS = [/\btry\s*\{/, /\bDate\b/, /\bperformance\b/, /\bget\s+\w+\s*\(/, /\bkernel\.\w+\s*=/, /inputs\.\w+\.(fill|set)\(/, /\bnew\s+(Weak)?Map\b/];
const SPEED_SIGNS = [/Float64Array/, /\bBt\b|transpos/i, /s[0-9]\s*\+=/, /WebAssembly|v128|f32x4/, /\bload<f32>/];

/** The evaluator's forecast for the last revision of `o`. */
export function forecast(o: KernelObservation): number[] {
  const rev = o.revisions[o.revisions.length - 1];
  if (!rev) return peaked(1, 0.3);
  const c = rev.candidate;
  // the same source measured before in this episode
  const earlier = o.revisions.slice(0, -1).reverse().find((r) => r.measurement && r.candidate.source === c.source);
  if (earlier?.measurement) return peaked(earlier.measurement.correct && earlier.measurement.timing ? classOf(earlier.measurement.timing.lo) : 0, 0.7);
  if (c.kind === 'schedule' && c.index !== undefined) {
    const hit = o.shapes === 'timing' ? tableSpeedup(o.task.id, o.shapeIndex, c.index) : null;
    if (hit) return peaked(classOf(hit.lo), 0.6);
    return peaked(2, 0.3); // template schedules are correct; speed unknown
  }
  if (c.source.trim() === o.task.reference.trim()) return peaked(1, 0.7);
  if (RED_FLAGS.some((r) => r.test(c.source))) return peaked(0, 0.6);
  const signs = SPEED_SIGNS.filter((r) => r.test(c.source)).length;
  return peaked(Math.min(N - 1, 2 + signs), 0.3);
}

export const featureEvaluator: AgentFactory = {
  name: 'feature-evaluator',
  description: "predicts each revision's outcome class from the recorded table (schedules), earlier measurements of the same source, and static features of code (hacking red flags, signs of optimization)",
  envs: ['kernel-speedup-v1'],
  roles: ['evaluator'],
  create: () => ({ name: 'feature-evaluator', act: (o: KernelObservation) => forecast(o) }),
};
