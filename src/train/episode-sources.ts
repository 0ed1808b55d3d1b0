/**
 * Episode sources: where a learner's training episodes come from, with weights. A run that
 * is given sources (the league's co-evolving learners) plays each iteration's episode groups
 * from them in proportion to their weights, instead of cycling the `opponents` modes:
 *
 * - a source with `opponent` fills the seats outside the learner's side with the agents it
 *   returns (another learner's current policy, a snapshot drawn by PFSP, a baseline);
 * - a source with `params` plays its episodes under those params (the env's own generator:
 *   Countdown's solver without a challenger);
 * - seats the source leaves open get the run's default agent for their role.
 *
 * The allocation is exact and deterministic (largest remainders, then spread evenly), so an
 * iteration replays the same way and the mix is the configured one, not a random draw of it.
 */
import type { Agent } from '../core/agent';
import type { Env } from '../core/env';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';
import type { Rng } from '../core/rng';

/** One source of a learner's training episodes. */
export interface EpisodeSource {
  /** Name in the metrics (win rate per opposition, per-source env statistics). */
  label: string;
  /** Relative share of the iteration's episode groups (≥ 0; the weights must not all be 0). */
  weight: number;
  /** Params of this source's episodes (resolved); default: the run's params. */
  params?: Params;
  /**
   * The agent for a seat outside the learner's side (called once per seat per episode, with
   * the episode's seeded generator), or null for the run's default agent of the role.
   */
  opponent?(seat: number, role: string, rng: Rng): Agent | null;
}

/** A bad list of sources; the message names the source. */
export class EpisodeSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EpisodeSourceError';
  }
}

/** Checks labels and weights: one line naming the bad source. */
export function checkSources(sources: readonly EpisodeSource[]): void {
  if (sources.length === 0) throw new EpisodeSourceError('episode sources: none given');
  const seen = new Set<string>();
  for (const s of sources) {
    if (!(Number.isFinite(s.weight) && s.weight >= 0)) throw new EpisodeSourceError(`episode source "${s.label}": weight must be a finite number >= 0 (got ${String(s.weight)})`);
    if (seen.has(s.label)) throw new EpisodeSourceError(`episode source "${s.label}": label used twice`);
    seen.add(s.label);
  }
  if (!sources.some((s) => s.weight > 0)) throw new EpisodeSourceError(`episode sources: every weight is 0 (${sources.map((s) => s.label).join(', ')})`);
}

/**
 * The source index of each of `slots` episode groups: counts proportional to `weights` by
 * largest remainders (ties to the earlier source), each source's slots spread evenly over the
 * iteration. Pure: the same weights and slots always give the same list.
 */
export function allocateSources(weights: readonly number[], slots: number): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) throw new EpisodeSourceError('episode sources: every weight is 0');
  const quotas = weights.map((w) => (w / total) * slots);
  const counts = quotas.map(Math.floor);
  let left = slots - counts.reduce((a, b) => a + b, 0);
  const order = quotas.map((q, i) => ({ i, r: q - Math.floor(q) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    counts[i]++;
    left--;
  }
  const positions: { pos: number; i: number }[] = [];
  counts.forEach((c, i) => {
    for (let j = 0; j < c; j++) positions.push({ pos: (j + 0.5) / c, i });
  });
  positions.sort((a, b) => a.pos - b.pos || a.i - b.i);
  return positions.map((p) => p.i);
}

/** One source's line in the iteration metrics: its episodes and the env's aggregate of them. */
export interface SourceStats {
  episodes: number;
  envStats?: { [key: string]: JsonValue };
}

/** Per source label: episodes played and the env's aggregate of their summaries (when the env has one). */
export function sourceStats(env: Env, bySource: Record<string, JsonValue[]>): Record<string, SourceStats> {
  const out: Record<string, SourceStats> = {};
  for (const [label, list] of Object.entries(bySource)) {
    out[label] = { episodes: list.length, ...(env.aggregate && list.length ? { envStats: env.aggregate(list) } : {}) };
  }
  return out;
}
