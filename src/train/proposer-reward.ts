/**
 * The reward of a proposer (Countdown's challenger) over one training batch, after R-Zero
 * (Huang et al. 2025, §3.2): the env's return of a valid proposal is the uncertainty reward
 * 1 − |2p − 1| (p: the solver's success on it); two terms are added against collapse.
 *
 * - Validity filtering: a proposal whose episode ended with an outcome listed as invalid
 *   (Countdown: `unsolvable`) keeps the env's return (−1 there) and is filtered out of
 *   everything below: it is neither penalized again nor counted as a duplicate of valid ones.
 * - Repetition penalty: valid proposals are clustered by similarity (single linkage: two
 *   proposals whose similarity is at least `similarity` are in one cluster, and clusters are
 *   the connected components, i.e. agglomerative clustering cut at distance 1 − similarity).
 *   A proposal in a cluster of size |C| among B valid proposals loses `weight` · |C| / B, and
 *   the reward is floored at 0: r = max(0, r_env − weight · |C| / B). A proposal alone in its
 *   cluster loses weight / B too, as in R-Zero; what matters is the difference between
 *   repeated and unique proposals.
 *
 * Similarity stands in for R-Zero's BLEU between question texts: the Jaccard similarity of the
 * two proposals' action multisets (|A ∩ B| / |A ∪ B| counting repeats), which ignores the
 * order of the actions. Countdown's challenger adds numbers and sets a target, so its
 * proposal's multiset is the puzzle; {3, 5, 7, 9 → 24} and {9, 7, 5, 3 → 24} are identical
 * (1), {3, 5, 7, 9 → 24} and {3, 5, 7, 9 → 25} share 4 of 6 distinct items (4/6 ≈ 0.67).
 */
import type { SampleBuffer } from './sample-buffer';

/** Settings of the proposer reward (a learner's `reward` in the training config). */
export interface ProposerRewardOptions {
  /** λ of the repetition penalty (0: off). */
  repetition: number;
  /** Proposals at least this similar are near-duplicates (in [0, 1]). */
  similarity: number;
  /** Outcome labels of invalid proposals (filtered out; their env return stays). */
  invalidOutcomes: readonly string[];
}

/** One proposal of the batch: its actions, the env's return, the episode's outcome. */
export interface ProposalRecord {
  actions: readonly number[];
  ret: number;
  outcome: string;
}

/** What the shaping did to a batch. */
export interface ProposerRewardResult {
  /** The shaped return of each proposal, in input order. */
  returns: number[];
  /** Cluster size of each proposal (0 for invalid ones). */
  clusterSizes: number[];
  /** Valid proposals (B). */
  valid: number;
  /** Valid proposals that have at least one near-duplicate in the batch. */
  repeated: number;
  /** Mean penalty over valid proposals (before the floor at 0). */
  meanPenalty: number;
}

/** Jaccard similarity of two multisets of action indices (1 for two empty ones). */
export function multisetJaccard(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const count = new Map<number, number>();
  for (const x of a) count.set(x, (count.get(x) ?? 0) + 1);
  let inter = 0;
  for (const x of b) {
    const c = count.get(x) ?? 0;
    if (c > 0) {
      inter++;
      count.set(x, c - 1);
    }
  }
  return inter / (a.length + b.length - inter);
}

/** Connected components of the "similar" graph over `n` items: a component id per item. */
export function similarityClusters(n: number, similar: (i: number, j: number) => boolean): number[] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (find(i) !== find(j) && similar(i, j)) parent[find(j)] = find(i);
  return parent.map((_, i) => find(i));
}

/** Shapes a batch's proposer returns (see the module note); pure. */
export function shapeProposerReturns(batch: readonly ProposalRecord[], o: ProposerRewardOptions): ProposerRewardResult {
  if (!(o.repetition >= 0)) throw new Error(`proposer reward: repetition must be >= 0 (got ${String(o.repetition)})`);
  if (!(o.similarity >= 0 && o.similarity <= 1)) throw new Error(`proposer reward: similarity must be in [0, 1] (got ${String(o.similarity)})`);
  const invalid = new Set(o.invalidOutcomes);
  const validIdx = batch.flatMap((p, i) => (invalid.has(p.outcome) ? [] : [i]));
  const B = validIdx.length;
  const ids = similarityClusters(B, (i, j) => multisetJaccard(batch[validIdx[i]].actions, batch[validIdx[j]].actions) >= o.similarity);
  const size = new Map<number, number>();
  for (const c of ids) size.set(c, (size.get(c) ?? 0) + 1);
  const returns = batch.map((p) => p.ret);
  const clusterSizes = batch.map(() => 0);
  let penaltySum = 0;
  let repeated = 0;
  validIdx.forEach((i, v) => {
    const c = size.get(ids[v])!;
    clusterSizes[i] = c;
    if (c > 1) repeated++;
    const penalty = (o.repetition * c) / B;
    penaltySum += penalty;
    if (o.repetition > 0) returns[i] = Math.max(0, batch[i].ret - penalty);
  });
  return { returns, clusterSizes, valid: B, repeated, meanPenalty: B ? penaltySum / B : 0 };
}

/**
 * Shapes the returns of every (non-empty) trajectory in a learner's buffer in place: each is
 * one proposal, its actions read from the buffer, its outcome from `episodeOutcomes` (by the
 * trajectory's episode index). Returns what the shaping did.
 */
export function shapeBufferReturns(buf: SampleBuffer, episodeOutcomes: readonly string[], o: ProposerRewardOptions): ProposerRewardResult {
  const trajs = buf.trajectories.filter((t) => t.indices.length > 0);
  const r = shapeProposerReturns(
    trajs.map((t) => ({ actions: t.indices.map((i) => buf.actions[i]), ret: t.ret, outcome: episodeOutcomes[t.episode] ?? '' })),
    o,
  );
  trajs.forEach((t, i) => (t.ret = r.returns[i]));
  return r;
}
