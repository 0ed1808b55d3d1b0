import type { Store } from '../src/store/store';
import { FAILED_MATCH_CODE } from './pair-results';
import { ratedMatchOf } from './rating-book';
import { BradleyTerrySystem } from './ratings/bt-system';
import { competitionRanks } from './ratings/rank-ranges';
import type { KeyRating } from './ratings/rating-system';
import { ratingSystem } from './ratings/rating-systems';
import { sidesOf } from './sides';

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

/** The Bradley–Terry system updated with every stored match of a league (failed matches have no result). */
function leagueFit(store: Store, league: string, resamples: number): { fit: BradleyTerrySystem; matches: number } {
  const fit = new BradleyTerrySystem({ eloK: 32, eloInitial: 1500, resamples });
  let matches = 0;
  for (const m of store.matches(league)) {
    if (m.code === FAILED_MATCH_CODE) continue;
    fit.update(ratedMatchOf(m.idx, m.id, m.env, sidesOf(m.seats, m.returns), m.seats.map((s) => s.player)));
    matches++;
  }
  return { fit, matches };
}

/**
 * The leaderboard of a league: one Bradley–Terry fit over all (role, player) keys with
 * bootstrap intervals (seeded, default 1,000 resamples); per role, competition ranks (equal
 * ratings share a rank) and each player's bootstrap rank range; and the current Elo and
 * OpenSkill ratings from the store.
 */
export function leaderboard(store: Store, league: string, options: { resamples?: number } = {}): LeaderboardRow[] {
  const { fit, matches } = leagueFit(store, league, options.resamples ?? 1000);
  if (matches === 0) return [];
  const roleOf = (id: string) => id.slice(0, id.indexOf(SEP));
  const ratings = store.ratings(league);
  const online = (system: string, role: string, player: string) => ratings.find((r) => r.system === system && r.role === role && r.player === player);
  const skill = (role: string, player: string, field: 'mu' | 'sigma') => {
    const state = online('openskill', role, player)?.state;
    const v = state && typeof state === 'object' && !Array.isArray(state) ? state[field] : undefined;
    return typeof v === 'number' ? v : NaN;
  };
  const rows: LeaderboardRow[] = [];
  const byRole = new Map<string, KeyRating[]>();
  for (const r of fit.ratings()) {
    const role = roleOf(r.key);
    byRole.set(role, [...(byRole.get(role) ?? []), r]);
  }
  for (const [role, list] of [...byRole].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const shown = (x: number) => Number(x.toFixed(1));
    const sorted = list.slice().sort((a, b) => shown(b.rating) - shown(a.rating) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const ranks = competitionRanks(sorted.map((r) => r.rating));
    sorted.forEach((r, i) => {
      const player = r.key.slice(role.length + 1);
      rows.push({
        role,
        player,
        bt: r.rating,
        lo: r.lo!,
        hi: r.hi!,
        rank: ranks[i],
        tied: ranks.filter((x) => x === ranks[i]).length > 1,
        rankLo: r.rankLo!,
        rankHi: r.rankHi!,
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

/**
 * One row of one rating system's board, as the page shows it. `lo`/`hi` are the 95 % interval
 * of `rating` where the system has one; `rank` is a competition rank on the rating as shown, so
 * only equal ratings share one (1, 2, 2, 4); `rankLo`/`rankHi` is the rank range from a
 * bootstrap, where the system has one.
 */
export interface BoardRow {
  player: string;
  /** The role (or team) the rating is for. */
  role: string;
  rating: number;
  lo?: number;
  hi?: number;
  /** Competition rank within the role (batch systems rank their own rows; else 0 until ranked). */
  rank: number;
  /** True when the rank is shared with another row of the same role (equal ratings). */
  tied?: boolean;
  /** 95 % rank range within the role across the bootstrap resamples. */
  rankLo?: number;
  rankHi?: number;
  /** A second value of the system, where it has one (its `info.ordinal` names it: OpenSkill's μ − 3σ). */
  ordinal?: number;
  games?: number;
  /** The player's kind (baseline, snapshot, learner), where known. */
  kind?: string;
}

/** z of a two-sided 95 % normal interval. */
const Z95 = 1.959964;

/**
 * The rows of {@link leaderboard} as one rating system of the registry shows them: Bradley–Terry
 * with its intervals, ranks and rank ranges (`ranked`); online Elo (no interval); OpenSkill's μ
 * with μ ± 1.96σ and the ordinal. Online rows are unranked (rank 0): the caller ranks them.
 * Throws for a name the registry does not know.
 */
export function systemBoard(rows: readonly LeaderboardRow[], system: string): { ranked: boolean; rows: BoardRow[] } {
  const name = ratingSystem(system).info.name;
  if (name === 'bt') {
    return { ranked: true, rows: rows.map((r) => ({ player: r.player, role: r.role, rating: r.bt, lo: r.lo, hi: r.hi, rank: r.rank, ...(r.tied ? { tied: true } : {}), rankLo: r.rankLo, rankHi: r.rankHi, games: r.games })) };
  }
  if (name === 'openskill') {
    return {
      ranked: false,
      rows: rows.filter((r) => Number.isFinite(r.mu) && Number.isFinite(r.sigma)).map((r) => ({ player: r.player, role: r.role, rating: r.mu, lo: r.mu - Z95 * r.sigma, hi: r.mu + Z95 * r.sigma, ordinal: r.openskill, rank: 0, games: r.games })),
    };
  }
  return { ranked: false, rows: rows.filter((r) => Number.isFinite(r.elo)).map((r) => ({ player: r.player, role: r.role, rating: r.elo, rank: 0, games: r.games })) };
}
