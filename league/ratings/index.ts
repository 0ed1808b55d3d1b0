/**
 * League ratings: online Elo and OpenSkill per rating key (env/role/player) with history,
 * and the batch Bradley–Terry leaderboard with bootstrap intervals, rank ranges and tied ranks.
 */
export { ELO_SCALE, eloExpected, eloUpdate } from './elo';
export { EloBook, pairingKey, type EloBookSnapshot, type EloChange, type EloOptions } from './elo-book';
export { OPENSKILL_MODELS, OpenSkillBook, type OpenSkillBookSnapshot, type OpenSkillOptions, type SkillChange, type SkillRating } from './openskill-book';
export { checkRatedMatch, pairScore, ranksFromScores, ratingKey, type RatedMatch, type RatedTeam } from './rated-match';
export { RatingHistory, type RatingHistoryEntry, type RatingHistorySnapshot } from './rating-history';
export { PairCounts, playerTotals, type PairResultRow, type PairTable } from './pair-counts';
export { btGraph, ELO_PER_LOGIT, fitBradleyTerry, slotCredits, solveStrengths, strengthsToRatings, type BtFit, type BtFitOptions, type BtGraph } from './bradley-terry';
export { bootstrapBradleyTerry, percentileSorted, type BtBootstrap, type BtBootstrapOptions } from './bt-bootstrap';
export { bradleyTerryLeaderboard, type BtLeaderboard, type BtLeaderboardRow } from './bt-leaderboard';
export { intervalsOverlap, tiedRanks, type IntervalRow, type RankInfo } from './tied-ranks';
export { competitionRanks, rankRanges, type RankRange } from './rank-ranges';
export { poisson, PoissonCells } from './poisson';
