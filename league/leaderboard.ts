import type { Store } from '../src/store/store';
import { bradleyTerryLeaderboard } from './ratings/bt-leaderboard';
import { PairCounts } from './ratings/pair-counts';
import { tiedRanks } from './ratings/tied-ranks';
import { forEachPairResult } from './pair-results';

/** One row of a league's leaderboard (per role). */
export interface LeaderboardRow {
  role: string;
  player: string;
  /** Bradley–Terry rating (Elo-like points, league mean 1500) with its bootstrap interval. */
  bt: number;
  lo: number;
  hi: number;
  /** Rank within the role; players whose intervals overlap the group leader's share it. */
  rank: number;
  /** True when the rank is shared. */
  tied: boolean;
  elo: number;
  /** OpenSkill ordinal μ − 3σ. */
  openskill: number;
  games: number;
}

const SEP = '\u0000';

/** The pair-count table of a league's stored matches (see {@link forEachPairResult}). */
export function leaguePairCounts(store: Store, league: string): PairCounts {
  const counts = new PairCounts();
  for (const m of store.matches(league)) {
    forEachPairResult(m, (a, b, score) => counts.add(`${a.side}${SEP}${a.player}`, `${b.side}${SEP}${b.player}`, score));
  }
  return counts;
}

/**
 * The leaderboard of a league: one Bradley–Terry fit over all (role, player) keys with
 * bootstrap intervals (seeded, default 1,000 resamples), tied ranks per role, and the current
 * Elo and OpenSkill ratings from the store.
 */
export function leaderboard(store: Store, league: string, options: { resamples?: number } = {}): LeaderboardRow[] {
  const counts = leaguePairCounts(store, league);
  if (counts.matchCount === 0) return [];
  const bt = bradleyTerryLeaderboard(counts, { resamples: options.resamples ?? 1000, seed: 1 });
  const ratings = store.ratings(league);
  const online = (system: string, role: string, player: string) =>
    ratings.find((r) => r.system === system && r.role === role && r.player === player)?.value ?? NaN;
  const rows: LeaderboardRow[] = [];
  const byRole = new Map<string, typeof bt.rows>();
  for (const r of bt.rows) {
    const role = r.id.slice(0, r.id.indexOf(SEP));
    byRole.set(role, [...(byRole.get(role) ?? []), r]);
  }
  for (const [role, list] of [...byRole].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const ranked = tiedRanks(list.map((r) => ({ id: r.id, rating: r.rating, lo: r.lo, hi: r.hi, games: r.games })));
    const groupSize = new Map<number, number>();
    for (const r of ranked) groupSize.set(r.group, (groupSize.get(r.group) ?? 0) + 1);
    for (const r of ranked) {
      const player = r.id.slice(role.length + 1);
      rows.push({
        role,
        player,
        bt: r.rating,
        lo: r.lo,
        hi: r.hi,
        rank: r.rank,
        tied: (groupSize.get(r.group) ?? 0) > 1,
        elo: online('elo', role, player),
        openskill: online('openskill', role, player),
        games: r.games,
      });
    }
  }
  return rows;
}
