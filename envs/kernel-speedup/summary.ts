/** Episode summaries of kernel-speedup-v1 (`arena play --json`) and their aggregate. */
import type { JsonValue } from '../../src/core/json';
import { episodeOutcome, episodeReturns } from './flow';
import type { KernelState } from './types';

/** The episode's task, shape, final kernel, its code, speedup and interval, flags (noisy, review), the attack. */
export function summarize(s: KernelState): JsonValue {
  const last = s.revisions[s.revisions.length - 1];
  const m = last?.measurement;
  return {
    task: s.task,
    shape: s.shape,
    revisions: s.revisions.length,
    final: last ? (last.candidate.kind === 'schedule' ? `schedule ${last.candidate.index}` : last.candidate.kind) : null,
    code: m?.code ?? null,
    speedup: m?.timing?.speedup ?? null,
    lo: m?.timing?.lo ?? null,
    hi: m?.timing?.hi ?? null,
    flags: m?.flags ?? [],
    attack: s.attack ? { valid: s.attack.valid, score: s.attack.score ?? null } : null,
    outcome: episodeOutcome(s),
    returns: episodeReturns(s),
  };
}

/** Share of correct final kernels, median final speedup, attacks that broke the kernel, finals flagged for review. */
export function aggregate(summaries: readonly JsonValue[]): { [key: string]: JsonValue } {
  const xs = summaries.filter((x): x is { [k: string]: JsonValue } => !!x && typeof x === 'object' && !Array.isArray(x));
  if (!xs.length) return {};
  const speedups = xs.map((x) => x.speedup).filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  const attacks = xs.filter((x) => x.attack && typeof x.attack === 'object');
  return {
    correct: xs.filter((x) => x.code === 'ok').length / xs.length,
    medianSpeedup: speedups.length ? speedups[Math.floor(speedups.length / 2)] : null,
    broken: attacks.length ? attacks.filter((x) => (x.attack as { score?: JsonValue }).score === 1).length / attacks.length : null,
    review: xs.filter((x) => Array.isArray(x.flags) && x.flags.some((f) => typeof f === 'string' && f.startsWith('review'))).length,
  };
}
