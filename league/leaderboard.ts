import type { Store } from '../src/store/store';
import { bradleyTerryLeaderboard } from './ratings/bt-leaderboard';
import { PairCounts } from './ratings/pair-counts';
import { competitionRanks } from './ratings/rank-ranges';
import { forEachPairResult } from './pair-results';

/** One row of a league's leaderboard (per role). */
export interface LeaderboardRow {
  role: string;
  player: string;
  /** Bradley–Terry rating (Elo-like points, league mean 1500) with its bootstrap interval. */
  bt: number;
  lo: number;
  hi: number;
  /** Competition rank within the role by the rating as shown (0.1 point): equal ratings share it. */
  rank: number;
  /** True when the rank is shared (equal ratings). */
  tied: boolean;
  /**
   * The rank range within the role across the bootstrap resamples (95 %: the player's rank is
   * in [rankLo, rankHi] in 95 % of the refits), as LMSYS's arena shows rank ranges.
   */
  rankLo: number;
  rankHi: number;
  elo: number;
  /** OpenSkill ordinal μ − 3σ. */
  openskill: number;
  /** OpenSkill mean and deviation (NaN when not rated). */
  mu: number;
  sigma: number;
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
 * bootstrap intervals (seeded, default 1,000 resamples); per role, competition ranks (equal
 * ratings share a rank) and each player's bootstrap rank range; and the current Elo and
 * OpenSkill ratings from the store.
 */
export function leaderboard(store: Store, league: string, options: { resamples?: number } = {}): LeaderboardRow[] {
  const counts = leaguePairCounts(store, league);
  if (counts.matchCount === 0) return [];
  const table = counts.table();
  const roleOf = (id: string) => id.slice(0, id.indexOf(SEP));
  const bt = bradleyTerryLeaderboard(table, { resamples: options.resamples ?? 1000, seed: 1, groups: table.ids.map(roleOf) });
  const ratings = store.ratings(league);
  const online = (system: string, role: string, player: string) => ratings.find((r) => r.system === system && r.role === role && r.player === player);
  const skill = (role: string, player: string, field: 'mu' | 'sigma') => {
    const state = online('openskill', role, player)?.state;
    const v = state && typeof state === 'object' && !Array.isArray(state) ? state[field] : undefined;
    return typeof v === 'number' ? v : NaN;
  };
  const rows: LeaderboardRow[] = [];
  const byRole = new Map<string, typeof bt.rows>();
  for (const r of bt.rows) {
    const role = roleOf(r.id);
    byRole.set(role, [...(byRole.get(role) ?? []), r]);
  }
  for (const [role, list] of [...byRole].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const shown = (x: number) => Number(x.toFixed(1));
    const sorted = list.slice().sort((a, b) => shown(b.rating) - shown(a.rating) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const ranks = competitionRanks(sorted.map((r) => r.rating));
    sorted.forEach((r, i) => {
      const player = r.id.slice(role.length + 1);
      rows.push({
        role,
        player,
        bt: r.rating,
        lo: r.lo,
        hi: r.hi,
        rank: ranks[i],
        tied: ranks.filter((x) => x === ranks[i]).length > 1,
        rankLo: r.rankLo,
        rankHi: r.rankHi,
        elo: online('elo', role, player)?.value ?? NaN,
        openskill: online('openskill', role, player)?.value ?? NaN,
        mu: skill(role, player, 'mu'),
        sigma: skill(role, player, 'sigma'),
        games: r.games,
      });
    });
  }
  return rows;
}
