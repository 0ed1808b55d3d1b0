/**
 * Segments: several independent tries inside one seat's episode (countdown-v1's K solver
 * attempts at one puzzle) learned from as separate trajectories, each with its own return,
 * so that group-relative baselines compare the K attempts with each other (the group of the
 * issue) and one attempt's moves are not credited with another attempt's score.
 *
 * The env contract has no way to declare such tries yet, so a segmenter is registered here per
 * env id; it reads only public outputs: the seat's observation (which try a decision belongs
 * to) and the episode summary (each try's score).
 */
import type { JsonValue } from '../core/json';

/** How to cut one env's seat trajectories into tries. */
export interface Segmenter {
  /** The try a decision belongs to (from the deciding seat's observation), or null for "do not cut". */
  key(obs: unknown, role: string): number | null;
  /** Each try's return from the episode summary, or null when it cannot tell. */
  returns(summary: JsonValue, role: string): number[] | null;
}

/** countdown-v1: the solver's attempts (observation `attemptsDone`; summary `attempts[i].score`). */
const countdown: Segmenter = {
  key(obs, role) {
    if (role !== 'solver' || obs === null || typeof obs !== 'object') return null;
    const k = (obs as { attemptsDone?: unknown }).attemptsDone;
    return typeof k === 'number' ? k : null;
  },
  returns(summary, role) {
    if (role !== 'solver' || summary === null || typeof summary !== 'object' || Array.isArray(summary)) return null;
    const attempts = (summary as { attempts?: unknown }).attempts;
    if (!Array.isArray(attempts)) return null;
    const out = attempts.map((a) => (a && typeof a === 'object' ? (a as { score?: unknown }).score : undefined));
    return out.every((x) => typeof x === 'number') ? (out as number[]) : null;
  },
};

const SEGMENTERS: Record<string, Segmenter> = { 'countdown-v1': countdown };

/** The segmenter for an env id, if any. */
export function segmenterFor(envId: string): Segmenter | undefined {
  return SEGMENTERS[envId];
}

/** Minimal view of a trajectory for cutting (see sample-buffer.ts). */
interface CuttableTrajectory {
  indices: number[];
  keys?: (number | null)[];
  role: string;
  ret: number;
}

/**
 * Cuts every trajectory of `trajs` that has segment keys into one trajectory per run of equal
 * keys, when the summary gives exactly one return per run (scaled by `rewardScale`); other
 * trajectories are kept whole. Returns the new list.
 */
export function cutSegments<T extends CuttableTrajectory>(trajs: readonly T[], seg: Segmenter, summary: JsonValue, rewardScale: number): T[] {
  const out: T[] = [];
  for (const t of trajs) {
    const keys = t.keys;
    if (!keys || keys.length !== t.indices.length || keys.some((k) => k === null)) {
      out.push(t);
      continue;
    }
    const runs: number[][] = [];
    keys.forEach((k, i) => {
      if (i === 0 || k !== keys[i - 1]) runs.push([]);
      runs[runs.length - 1].push(t.indices[i]);
    });
    const rets = seg.returns(summary, t.role);
    if (!rets || rets.length !== runs.length) {
      out.push(t);
      continue;
    }
    runs.forEach((indices, i) => out.push({ ...t, indices, keys: undefined, ret: rets[i] * rewardScale }));
  }
  return out;
}
