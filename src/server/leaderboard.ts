import type { Store } from '../store/store';

/**
 * One leaderboard row as the page shows it. `lo`/`hi` are the confidence interval of
 * `rating` (e.g. Bradley–Terry bootstrap percentiles); `rank` is shared by tied players
 * (overlapping intervals), so ranks may repeat (1, 2, 2, 4).
 */
export interface LeaderboardRow {
  player: string;
  /** The role (or team) the rating is for. */
  role: string;
  rating: number;
  lo?: number;
  hi?: number;
  rank: number;
  /** True when the rank is shared with another row of the same role. */
  tied?: boolean;
  games?: number;
  kind?: string;
}

/** What the page asks the leaderboard for. */
export interface LeaderboardQuery {
  role?: string;
  /** Rating system ("bt", "elo", "openskill"); the provider's default when absent. */
  system?: string;
}

/**
 * The league's leaderboard, injected into the server (the league code computes ratings with
 * intervals). May be synchronous or return a promise.
 */
export type LeaderboardProvider = (league: string, query: LeaderboardQuery) => LeaderboardRow[] | Promise<LeaderboardRow[]>;

/**
 * Fallback when no provider is injected: the store's current ratings (no intervals), ranked per
 * role, equal values sharing a rank.
 */
export function storeLeaderboard(store: Store): LeaderboardProvider {
  return (league, query) => {
    const rows = store.ratings(league, query.system ?? 'elo').filter((r) => !query.role || r.role === query.role);
    return rankRows(
      rows.map((r) => {
        const state = r.state && typeof r.state === 'object' && !Array.isArray(r.state) ? r.state : {};
        const games = typeof state.games === 'number' ? state.games : undefined;
        return { player: r.player, role: r.role, rating: r.value, rank: 0, ...(games !== undefined ? { games } : {}) };
      }),
    );
  };
}

/**
 * Sorts rows per role by rating (descending) and assigns ranks; a row ties with the row above
 * when their intervals overlap (or, without intervals, when the ratings are equal).
 */
export function rankRows(rows: LeaderboardRow[]): LeaderboardRow[] {
  const byRole = new Map<string, LeaderboardRow[]>();
  for (const r of rows) {
    const list = byRole.get(r.role) ?? [];
    list.push({ ...r });
    byRole.set(r.role, list);
  }
  const out: LeaderboardRow[] = [];
  for (const [, list] of [...byRole.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    list.sort((a, b) => b.rating - a.rating);
    list.forEach((r, i) => {
      const prev = list[i - 1];
      const tie =
        prev !== undefined &&
        (r.lo !== undefined && r.hi !== undefined && prev.lo !== undefined && prev.hi !== undefined
          ? r.hi >= prev.lo
          : r.rating === prev.rating);
      r.rank = tie ? prev.rank : i + 1;
      if (tie) prev.tied = r.tied = true;
    });
    out.push(...list);
  }
  return out;
}
