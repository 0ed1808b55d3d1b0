/**
 * Per-learner statistics of a batch of episodes: mean return per role and win rate per
 * opposition label. A learner seat wins when its return is above the best return of the
 * seats it plays against (seats not played by the same learner; on another team when the
 * episode has several teams), draws on equality (counted ½).
 */
import type { Agent } from '../core/agent';
import type { SeatInfo } from '../core/env';

/** Running sums for one learner. */
export interface LearnerTally {
  returnSum: Record<string, number>;
  returnCount: Record<string, number>;
  winSum: Record<string, number>;
  winCount: Record<string, number>;
}

/** Summary of one learner's tally. */
export interface LearnerSummary {
  meanReturn: Record<string, number>;
  winRate: Record<string, number>;
  /** Episodes counted per opposition label. */
  games: Record<string, number>;
}

export function emptyTally(): LearnerTally {
  return { returnSum: {}, returnCount: {}, winSum: {}, winCount: {} };
}

/** 1 / 0.5 / 0 for seat `s` against its opponents, or null when it has none. */
export function winScore(s: number, returns: readonly number[], seats: readonly SeatInfo[], sameSide: (i: number) => boolean): number | null {
  const multiTeam = new Set(seats.map((x) => x.team)).size > 1;
  let best = -Infinity;
  for (let i = 0; i < seats.length; i++) {
    if (i === s || sameSide(i)) continue;
    if (multiTeam && seats[i].team === seats[s].team) continue;
    if (returns[i] > best) best = returns[i];
  }
  if (best === -Infinity) return null;
  return returns[s] > best ? 1 : returns[s] === best ? 0.5 : 0;
}

/**
 * Adds one episode for the learner playing `mySeats` (its seats): returns per role, and one
 * win score per episode (the mean over its seats that have opponents).
 */
export function tallyEpisode(
  t: LearnerTally,
  mySeats: readonly number[],
  returns: readonly number[],
  seats: readonly SeatInfo[],
  label: string,
): void {
  const mine = new Set(mySeats);
  let wins = 0;
  let n = 0;
  for (const s of mySeats) {
    const role = seats[s].role;
    t.returnSum[role] = (t.returnSum[role] ?? 0) + returns[s];
    t.returnCount[role] = (t.returnCount[role] ?? 0) + 1;
    const w = winScore(s, returns, seats, (i) => mine.has(i));
    if (w !== null) {
      wins += w;
      n++;
    }
  }
  if (n > 0) {
    t.winSum[label] = (t.winSum[label] ?? 0) + wins / n;
    t.winCount[label] = (t.winCount[label] ?? 0) + 1;
  }
}

/** Means of a tally. */
export function summarizeTally(t: LearnerTally): LearnerSummary {
  const meanReturn: Record<string, number> = {};
  for (const r of Object.keys(t.returnSum)) meanReturn[r] = t.returnSum[r] / t.returnCount[r];
  const winRate: Record<string, number> = {};
  const games: Record<string, number> = {};
  for (const l of Object.keys(t.winSum)) {
    winRate[l] = t.winSum[l] / t.winCount[l];
    games[l] = t.winCount[l];
  }
  return { meanReturn, winRate, games };
}

/** "self" when learners fill every seat, else "self/<names of the other agents>". */
export function selfLabel(agents: readonly Agent[], learnerSeats: Map<number, unknown>): string {
  const others = new Set<string>();
  agents.forEach((a, i) => {
    if (!learnerSeats.has(i)) others.add(a.name);
  });
  return others.size ? `self/${[...others].sort().join('+')}` : 'self';
}
