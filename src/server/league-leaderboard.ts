import { leaderboard, type LeaderboardRow as LeagueRow } from '../../league/leaderboard';
import type { Store } from '../store/store';
import { rankRows, type LeaderboardProvider, type LeaderboardRow } from './leaderboard';

/**
 * The league's leaderboard as the page's provider: Bradley–Terry ratings with bootstrap
 * intervals and tied ranks (system "bt", the default), or the online Elo / OpenSkill values
 * (no intervals; ranked by value). The fit is cached per league until its match count changes.
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
    const rows = hit.rows.filter((r) => !query.role || r.role === query.role);
    const kinds = new Map(store.players(league).map((p) => [p.id, p.kind]));
    const kind = (player: string) => (kinds.has(player) ? { kind: kinds.get(player)! } : {});
    const system = query.system ?? 'bt';
    if (system === 'bt') {
      return rows.map((r): LeaderboardRow => ({ player: r.player, role: r.role, rating: r.bt, lo: r.lo, hi: r.hi, rank: r.rank, tied: r.tied, games: r.games, ...kind(r.player) }));
    }
    const value = (r: LeagueRow) => (system === 'openskill' ? r.openskill : r.elo);
    return rankRows(rows.filter((r) => Number.isFinite(value(r))).map((r) => ({ player: r.player, role: r.role, rating: value(r), rank: 0, games: r.games, ...kind(r.player) })));
  };
}
