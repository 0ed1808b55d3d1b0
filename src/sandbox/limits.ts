/** Default resource limits of sandbox runs, and their validation. */
import type { RunLimits } from '../core/sandbox';

/** Limits with every field set. */
export type ResolvedLimits = Required<RunLimits>;

/** Defaults: 2 s per test, 256 MB, 1 MB of output. */
export const DEFAULT_LIMITS: ResolvedLimits = { timeMs: 2000, memoryMb: 256, outputBytes: 1_000_000 };

/** Hard ceilings a request may not exceed (a run asking for more is refused with sandbox-error). */
export const MAX_LIMITS: ResolvedLimits = { timeMs: 60_000, memoryMb: 2048, outputBytes: 64_000_000 };

/** The request's limits with defaults filled; throws naming the bad field. */
export function resolveLimits(limits: RunLimits | undefined): ResolvedLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ResolvedLimits)[]) {
    const v = limits?.[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > MAX_LIMITS[key]) {
      throw new RangeError(`limits.${key} must be a number in (0, ${MAX_LIMITS[key]}], got ${JSON.stringify(v)}`);
    }
    out[key] = Math.ceil(v);
  }
  return out;
}
