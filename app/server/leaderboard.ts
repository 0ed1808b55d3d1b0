import type { BoardRow } from '../../league/leaderboard';
import { competitionRanks } from '../../league/ratings/rank-ranges';
import { defaultOnlineRatingSystem } from '../../league/ratings/rating-systems';
import type { Store } from '../../src/store/store';

/** One leaderboard row as the page shows it (league/leaderboard.ts). */
export type LeaderboardRow = BoardRow;

/** What the page asks the leaderboard for. */
export interface LeaderboardQuery {
  role?: string;
  /** Rating system (a name of the registry); the provider's default when absent. */
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
    const rows = store.ratings(league, query.system ?? defaultOnlineRatingSystem()).filter((r) => !query.role || r.role === query.role);
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
 * Sorts rows per role by rating (descending) and assigns competition ranks: rows whose ratings
 * are equal as shown (0.1 point) share a rank and are marked `tied`. Intervals never make a tie
 * (they are shown as such, with rank ranges where a bootstrap gives them).
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
    const shown = (x: number) => Number(x.toFixed(1));
    list.sort((a, b) => shown(b.rating) - shown(a.rating) || a.player.localeCompare(b.player));
    const ranks = competitionRanks(list.map((r) => r.rating));
    list.forEach((r, i) => {
      r.rank = ranks[i];
      const tied = ranks.filter((x) => x === ranks[i]).length > 1;
      if (tied) r.tied = true;
      else delete r.tied;
    });
    out.push(...list);
  }
  return out;
}
