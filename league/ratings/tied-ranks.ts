/** A rated player with a confidence interval (any scale, higher is better). */
export interface IntervalRow {
  id: string;
  rating: number;
  lo: number;
  hi: number;
}

/** Rank information added by {@link tiedRanks}. */
export interface RankInfo {
  /** Shared rank of the player's group: 1 + the number of players in groups above (1, 1, 3, ...). */
  rank: number;
  /** 1-based index of the player's group. */
  group: number;
  /** Best rank the intervals allow: 1 + the number of players whose lo is above this player's hi. */
  bestRank: number;
  /** Worst rank the intervals allow: n − the number of players whose hi is below this player's lo. */
  worstRank: number;
}

/** Whether two closed intervals share a point. */
export function intervalsOverlap(a: { lo: number; hi: number }, b: { lo: number; hi: number }): boolean {
  return a.lo <= b.hi && b.lo <= a.hi;
}

/**
 * Tied ranks from confidence intervals. Overlap is not transitive, so groups are anchored at
 * a leader:
 * 1. sort by rating, highest first (equal ratings by id, ascending);
 * 2. the first player opens group 1 and leads it; each next player joins the current group
 *    when its interval overlaps the leader's interval (closed intervals: lo ≤ leader.hi and
 *    hi ≥ leader.lo), otherwise it opens the next group and leads that;
 * 3. every member of a group gets the group's rank, 1 + the number of players in the groups
 *    above (competition ranking).
 * So a player is shown tied with the top of its group, never with a player it is clearly below
 * (a chain A ~ B ~ C with A and C apart gives groups {A, B}, {C}).
 * Returns the rows in rank order with {@link RankInfo} added.
 */
export function tiedRanks<T extends IntervalRow>(rows: readonly T[]): Array<T & RankInfo> {
  const sorted = rows.slice().sort((a, b) => b.rating - a.rating || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = sorted.length;
  const out: Array<T & RankInfo> = [];
  let leader: T | undefined;
  let group = 0;
  let rank = 0;
  sorted.forEach((row, index) => {
    if (!leader || !intervalsOverlap(row, leader)) {
      leader = row;
      group++;
      rank = index + 1;
    }
    let above = 0;
    let below = 0;
    for (const other of sorted) {
      if (other === row) continue;
      if (other.lo > row.hi) above++;
      if (other.hi < row.lo) below++;
    }
    out.push({ ...row, rank, group, bestRank: 1 + above, worstRank: n - below });
  });
  return out;
}
