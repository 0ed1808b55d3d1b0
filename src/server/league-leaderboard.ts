import { leaderboard, type LeaderboardRow as LeagueRow } from '../../league/leaderboard';
import type { Store } from '../store/store';
import { rankRows, type LeaderboardProvider, type LeaderboardRow } from './leaderboard';

/** z of a two-sided 95 % normal interval. */
const Z95 = 1.959964;

/**
 * The league's leaderboard as the page's provider: Bradley–Terry ratings with bootstrap
 * intervals and rank ranges (system "bt", the default); the online Elo values (no interval); or
 * OpenSkill's skill μ with its 95 % interval μ ± 1.96σ and the ordinal μ − 3σ. Ranks are
 * competition ranks (equal ratings share one). The fit is cached per league until its match
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
    const rows = hit.rows.filter((r) => !query.role || r.role === query.role);
    const kinds = new Map(store.players(league).map((p) => [p.id, p.kind]));
    const kind = (player: string) => (kinds.has(player) ? { kind: kinds.get(player)! } : {});
    const system = query.system ?? 'bt';
    if (system === 'bt') {
      return rows.map((r): LeaderboardRow => ({ player: r.player, role: r.role, rating: r.bt, lo: r.lo, hi: r.hi, rank: r.rank, ...(r.tied ? { tied: true } : {}), rankLo: r.rankLo, rankHi: r.rankHi, games: r.games, ...kind(r.player) }));
    }
    if (system === 'openskill') {
      return rankRows(
        rows
          .filter((r) => Number.isFinite(r.mu) && Number.isFinite(r.sigma))
          .map((r) => ({ player: r.player, role: r.role, rating: r.mu, lo: r.mu - Z95 * r.sigma, hi: r.mu + Z95 * r.sigma, ordinal: r.openskill, rank: 0, games: r.games, ...kind(r.player) })),
      );
    }
    return rankRows(rows.filter((r) => Number.isFinite(r.elo)).map((r) => ({ player: r.player, role: r.role, rating: r.elo, rank: 0, games: r.games, ...kind(r.player) })));
  };
}
