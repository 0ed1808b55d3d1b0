/**
 * Ranks for leaderboards: competition ranks on the shown scores (equal scores, equal ranks) and
 * rank ranges from a bootstrap (as LMSYS's Chatbot Arena shows them): where a player's rank
 * falls across the resampled fits. A range says how sure the order is without the coarse
 * "tied with the leader" groups that interval overlap gives (overlapping 95 % intervals are
 * common between players whose order the bootstrap is nearly always sure of).
 */

/**
 * Competition ranks ("1224") of `scores`, highest first, where two scores that print the same
 * at `decimals` decimals are equal and share a rank. Returns the rank of each input position.
 */
export function competitionRanks(scores: readonly number[], decimals = 1): number[] {
  const shown = scores.map((s) => Number(s.toFixed(decimals)));
  return shown.map((s) => 1 + shown.filter((o) => o > s).length);
}

/** A rank range: the player's rank is in [lo, hi] in `level` of the resamples. */
export interface RankRange {
  lo: number;
  hi: number;
}

/**
 * Rank ranges from bootstrap samples. `samples` is player-major (`samples[k * B + b]` = player
 * k's rating in resample b, higher is better); `groups[k]` names the group a player is ranked
 * in (a role: players are ranked against their own group only). In each resample a player's
 * rank is 1 + the number of its group's players rated strictly higher; its range is the
 * (1 − level)/2 and (1 + level)/2 quantiles of those ranks (the inverse empirical CDF: the
 * smallest rank r with at least that fraction of resamples at or below r).
 */
export function rankRanges(samples: ArrayLike<number>, B: number, groups: readonly (string | number)[], level = 0.95): RankRange[] {
  const n = groups.length;
  if (samples.length !== n * B) throw new Error(`rank ranges: ${samples.length} samples for ${n} players × ${B} resamples`);
  const members = new Map<string | number, number[]>();
  groups.forEach((g, k) => members.set(g, [...(members.get(g) ?? []), k]));
  const qLo = (1 - level) / 2;
  const qHi = (1 + level) / 2;
  const out: RankRange[] = new Array<RankRange>(n);
  for (const ks of members.values()) {
    // counts[i][r - 1]: resamples in which the group's i-th player has rank r
    const counts = ks.map(() => new Int32Array(ks.length));
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < ks.length; i++) {
        const v = samples[ks[i] * B + b];
        let above = 0;
        for (let j = 0; j < ks.length; j++) if (samples[ks[j] * B + b] > v) above++;
        counts[i][above]++;
      }
    }
    ks.forEach((k, i) => {
      const quantile = (q: number) => {
        let cum = 0;
        for (let r = 0; r < ks.length; r++) {
          cum += counts[i][r];
          if (cum >= q * B - 1e-9) return r + 1;
        }
        return ks.length;
      };
      out[k] = B === 0 ? { lo: 1, hi: ks.length } : { lo: quantile(qLo), hi: quantile(qHi) };
    });
  }
  return out;
}
