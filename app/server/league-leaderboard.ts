import { leaderboard, systemBoard, type LeaderboardRow as LeagueRow } from '../../league/leaderboard';
import { defaultRatingSystem } from '../../league/ratings/rating-systems';
import type { Store } from '../../src/store/store';
import { rankRows, type LeaderboardProvider, type LeaderboardRow } from './leaderboard';

/**
 * The league's leaderboard as the page's provider, for any rating system of the registry
 * (league/ratings/rating-systems.ts; its first, Bradley–Terry, by default): the system's rows
 * (league/leaderboard.ts `systemBoard`), ranked per role with competition ranks (equal ratings
 * share one) unless the system ranks them itself. The fit is cached per league until its match
 * count changes.
 */
export function leagueLeaderboardProvider(store: Store, options: { resamples?: number } = {}): LeaderboardProvider {
  const cache = new Map<string, { matches: number; rows: LeagueRow[] }>();
  return (league, query) => {
    const matches = store.matchCount(league);
    let hit = cache.get(league);
    if (!hit || hit.matches !== matches) {
      hit = { matches, rows: leaderboard(store, league, { resamples: options.resamples }) };
      cache.set(league, hit);
    }
    const kinds = new Map(store.players(league).map((p) => [p.id, p.kind]));
    const board = systemBoard(
      hit.rows.filter((r) => !query.role || r.role === query.role),
      query.system ?? defaultRatingSystem(),
    );
    const rows = board.rows.map((r): LeaderboardRow => ({ ...r, ...(kinds.has(r.player) ? { kind: kinds.get(r.player)! } : {}) }));
    return board.ranked ? rows : rankRows(rows);
  };
}
