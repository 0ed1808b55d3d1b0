/**
 * The input shape shared by the online raters (Elo, OpenSkill): one finished match as teams
 * of rating keys with finishing ranks. The scheduler builds it from its sides (league/sides.ts)
 * and the match's returns; `ranksFromScores` turns per-team scores into ranks.
 */

/** One team (side) of a rated match. */
export interface RatedTeam {
  /**
   * Rating keys of the team's members, one per seat. A key may repeat (one snapshot filling
   * several seats); it is then updated once per match per team.
   */
  keys: readonly string[];
  /** Finishing rank: lower is better, equal ranks are a tie. */
  rank: number;
  /** Side name (team or role, e.g. "werewolves", "solver"); used to look up a K factor per role pairing. */
  side?: string;
}

/** One finished match, as the online raters see it. */
export interface RatedMatch {
  matchId: string;
  /** Caller-supplied time stamp (ms since epoch, or a match counter); stored in the history as given. */
  time: number;
  /** Env id; used to look up a K factor per env. */
  env?: string;
  /** Two or more teams. */
  teams: readonly RatedTeam[];
}

/**
 * Ranks from scores where higher is better: the best score gets rank 0, equal scores (within
 * `eps`) share a rank, and each rank counts the teams strictly ahead (competition ranking).
 * Example: `ranksFromScores([1, -1, 1])` is `[0, 2, 0]`.
 */
export function ranksFromScores(scores: readonly number[], eps = 1e-9): number[] {
  return scores.map((s) => scores.reduce((ahead, t) => ahead + (t > s + eps ? 1 : 0), 0));
}

/**
 * The score of team `a` against team `b` from their ranks: 1 when a finished ahead, 0.5 when
 * they tied, 0 when b finished ahead. Multi-team matches count as every pair of teams.
 */
export function pairScore(rankA: number, rankB: number): 1 | 0.5 | 0 {
  return rankA < rankB ? 1 : rankA === rankB ? 0.5 : 0;
}

/**
 * Checks a match's shape and throws an Error naming the bad field: at least two teams, each
 * with at least one key, finite ranks, a finite time.
 */
export function checkRatedMatch(match: RatedMatch): void {
  const where = `rated match "${match.matchId}"`;
  if (!Number.isFinite(match.time)) throw new Error(`${where}: time must be a finite number (got ${String(match.time)})`);
  if (match.teams.length < 2) throw new Error(`${where}: teams must hold at least 2 teams (got ${match.teams.length})`);
  match.teams.forEach((t, i) => {
    if (t.keys.length === 0) throw new Error(`${where}: teams[${i}].keys must not be empty`);
    if (!Number.isFinite(t.rank)) throw new Error(`${where}: teams[${i}].rank must be a finite number (got ${String(t.rank)})`);
  });
}

/**
 * The rating key of a player in a role (or side) of an env: `env/role/player`. Ratings are
 * kept per env and role, so a player that plays both challenger and solver has two ratings.
 */
export function ratingKey(env: string, role: string, player: string): string {
  return `${env}/${role}/${player}`;
}
