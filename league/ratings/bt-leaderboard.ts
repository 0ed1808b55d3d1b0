import { bootstrapBradleyTerry, type BtBootstrap, type BtBootstrapOptions } from './bt-bootstrap';
import { PairCounts, playerTotals, type PairResultRow, type PairTable } from './pair-counts';
import { tiedRanks, type RankInfo } from './tied-ranks';

/** One leaderboard row: Bradley–Terry rating (Elo-like points) with its bootstrap interval. */
export interface BtLeaderboardRow extends RankInfo {
  id: string;
  rating: number;
  lo: number;
  hi: number;
  games: number;
  /** Wins plus half the ties. */
  points: number;
  /** Rank range within the player's group across the bootstrap resamples (see `rankRanges`). */
  rankLo: number;
  rankHi: number;
}

/** The leaderboard and the bootstrap behind it. */
export interface BtLeaderboard {
  rows: BtLeaderboardRow[];
  bootstrap: BtBootstrap;
}

function toTable(source: PairCounts | PairTable | Iterable<PairResultRow>): PairTable {
  if (source instanceof PairCounts) return source.table();
  if ('ids' in source && 'wins' in source) return source;
  return PairCounts.from(source).table();
}

/**
 * The Bradley–Terry leaderboard of a match table: fit, bootstrap intervals (1,000 Poisson
 * resamples, 95 % percentile intervals by default, seeded) and tied ranks (see `tiedRanks`),
 * highest rating first. Accepts pairwise results, a {@link PairCounts} or a {@link PairTable}.
 */
export function bradleyTerryLeaderboard(source: PairCounts | PairTable | Iterable<PairResultRow>, options: BtBootstrapOptions = {}): BtLeaderboard {
  const table = toTable(source);
  const bootstrap = bootstrapBradleyTerry(table, options);
  const { games, points } = playerTotals(table);
  const rows = table.ids.map((id, k) => ({
    id,
    rating: bootstrap.fit.ratings[k],
    lo: bootstrap.lo[k],
    hi: bootstrap.hi[k],
    games: games[k],
    points: points[k],
    rankLo: bootstrap.ranks[k].lo,
    rankHi: bootstrap.ranks[k].hi,
  }));
  return { rows: tiedRanks(rows), bootstrap };
}
