import type { SeatInfo } from '../src/core/env';

/** A side of a match: seats that win or lose together, rated under one key (team or role). */
export interface Side {
  /** Rating key: the team (team games, asymmetric roles) or the role (symmetric games). */
  key: string;
  seats: number[];
  /** Mean return of the side's seats. */
  score: number;
}

/** One pairwise result between two sides: score 1 = side a won, 0.5 tie, 0 = b won. */
export interface PairResult {
  a: number;
  b: number;
  score: 1 | 0.5 | 0;
}

/**
 * Groups seats into sides. When the seats span several teams (Werewolf's werewolves and
 * villagers, Countdown's challenger and solver) each team is a side; when every seat is on one
 * team (a symmetric game such as Deal-or-No-Deal or rock-paper-scissors) each seat is its own side.
 */
export function sidesOf(seats: readonly SeatInfo[], returns: readonly number[]): Side[] {
  const teams = [...new Set(seats.map((s) => s.team))];
  if (teams.length === 1) {
    return seats.map((s, i) => ({ key: s.role, seats: [i], score: returns[i] ?? 0 }));
  }
  return teams.map((team) => {
    const members = seats.map((s, i) => (s.team === team ? i : -1)).filter((i) => i >= 0);
    const score = members.reduce((t, i) => t + (returns[i] ?? 0), 0) / members.length;
    return { key: team, seats: members, score };
  });
}

/**
 * Every pair of sides, compared by mean return (higher wins; equal within 1e-9 is a tie).
 * Multi-seat and team games thus count as pairwise results between teams.
 */
export function pairwiseResults(sides: readonly Side[]): PairResult[] {
  const out: PairResult[] = [];
  for (let a = 0; a < sides.length; a++) {
    for (let b = a + 1; b < sides.length; b++) {
      const d = sides[a].score - sides[b].score;
      out.push({ a, b, score: Math.abs(d) <= 1e-9 ? 0.5 : d > 0 ? 1 : 0 });
    }
  }
  return out;
}
