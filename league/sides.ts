import type { SeatInfo } from '../src/core/env';
import { ranksFromScores } from './ratings/rated-match';

/** A side of a match: seats that win or lose together, rated under one key (team or role). */
export interface Side {
  /** Rating key: the team (team games, asymmetric roles) or the role (symmetric games). */
  key: string;
  seats: number[];
  /** Mean return of the side's seats. */
  score: number;
  /** Finishing rank among the sides (0 = best; equal scores share a rank). */
  rank: number;
}

/**
 * Groups seats into sides and ranks them by mean return. When the seats span several teams
 * (Werewolf's werewolves and villagers, Countdown's challenger and solver) each team is a side;
 * when every seat is on one team (a symmetric game such as Deal-or-No-Deal or
 * rock-paper-scissors) each seat is its own side. Multi-seat and team games thus count as
 * pairwise results between teams.
 */
export function sidesOf(seats: readonly SeatInfo[], returns: readonly number[]): Side[] {
  const teams = [...new Set(seats.map((s) => s.team))];
  const groups =
    teams.length === 1
      ? seats.map((s, i) => ({ key: s.role, seats: [i] }))
      : teams.map((team) => ({ key: team, seats: seats.map((s, i) => (s.team === team ? i : -1)).filter((i) => i >= 0) }));
  const scores = groups.map((g) => g.seats.reduce((t, i) => t + (returns[i] ?? 0), 0) / g.seats.length);
  const ranks = ranksFromScores(scores);
  return groups.map((g, i) => ({ ...g, score: scores[i], rank: ranks[i] }));
}
