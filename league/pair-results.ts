import type { MatchRecord } from '../src/store/store';
import { pairScore } from './ratings/rated-match';
import { sidesOf } from './sides';

/** The code of a match that no worker could play (recorded so the league goes on; rated by nobody). */
export const FAILED_MATCH_CODE = 'failed';

/** One participant of a pairwise result: a player on a side (team or role). */
export interface PairParticipant {
  side: string;
  player: string;
}

/**
 * Calls `fn` for every pairwise result of a stored match: each pair of sides (teams, or seats
 * in symmetric games), and within it each pair of DISTINCT players — a player filling several
 * seats of one team counts once. `score` is a's score (1 win, 0.5 tie, 0 loss).
 * Used by the Bradley–Terry leaderboard and by PFSP's head-to-head table. A match recorded as
 * `failed` (a scale-out job that failed every attempt: nobody played it) has no result.
 */
export function forEachPairResult(m: Pick<MatchRecord, 'seats' | 'returns'> & { code?: string }, fn: (a: PairParticipant, b: PairParticipant, score: 1 | 0.5 | 0) => void): void {
  if (m.code === FAILED_MATCH_CODE) return;
  const sides = sidesOf(m.seats, m.returns);
  for (let x = 0; x < sides.length; x++) {
    for (let y = x + 1; y < sides.length; y++) {
      const score = pairScore(sides[x].rank, sides[y].rank);
      const pa = new Set(sides[x].seats.map((s) => m.seats[s].player));
      const pb = new Set(sides[y].seats.map((s) => m.seats[s].player));
      for (const a of pa) for (const b of pb) fn({ side: sides[x].key, player: a }, { side: sides[y].key, player: b }, score);
    }
  }
}
