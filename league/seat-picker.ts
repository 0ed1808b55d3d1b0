import type { SeatInfo } from '../src/core/env';
import type { Rng } from '../src/core/rng';
import type { PlayerRecord } from '../src/store/store';
import type { LeagueConfig } from './config';
import { closenessProbabilities } from './matchmaking/elo-closeness';
import type { HeadToHead } from './matchmaking/head-to-head';
import { pfspProbabilities } from './matchmaking/pfsp';
import { drawIndex } from './matchmaking/pick';
import { fillSeats, type SeatPickContext } from './matchmaking/seat-filling';
import { uncertaintyProbabilities } from './matchmaking/uncertainty';
import type { RatingBook } from './rating-book';

/** What the league knows when it fills the seats of one match. */
export interface PickSeatsInput {
  matchmaking: LeagueConfig['matchmaking'];
  seats: readonly SeatInfo[];
  players: readonly PlayerRecord[];
  book: RatingBook;
  h2h: HeadToHead;
  rng: Rng;
  /** Player that must take part (a learner being evaluated); default: drawn uniformly. */
  focal?: string;
}

/**
 * Fills the seats of one match. A focal player is drawn uniformly (or given), placed on a seat
 * (team) it can play, and every other seat (team) is filled with an eligible player chosen by
 * the league's matchmaking mode relative to the focal player:
 * - `elo`: Elo-closeness on the ratings in the seat's side (team, or role in symmetric games);
 * - `pfsp`: AlphaStar's prioritized fictitious self-play on head-to-head results (f_hard or f_var);
 * - `uncertainty`: prefers opponents whose pairing with the focal is least certain (OpenSkill μ ± 3σ);
 * - `random`: uniform.
 * Teams are filled by one player each (Werewolf: one player plays all villagers); symmetric
 * games (one team) seat distinct players when there are enough of them.
 */
export function pickSeats(input: PickSeatsInput): PlayerRecord[] {
  const { seats, players, book, h2h, rng, matchmaking } = input;
  const oneTeam = new Set(seats.map((s) => s.team)).size === 1;
  const sideOf = (seat: number) => (oneTeam ? seats[seat].role : seats[seat].team);
  const focal = input.focal ?? players[rng.int(players.length)].id;
  const byId = new Map(players.map((p) => [p.id, p]));
  const focalSide = (ctx: SeatPickContext): string => {
    const s = ctx.filled.findIndex((id) => id === ctx.focal);
    return s >= 0 ? sideOf(s) : sideOf(ctx.seats[0]);
  };
  const pick = (eligible: readonly PlayerRecord[], ctx: SeatPickContext): PlayerRecord => {
    if (!ctx.focal || matchmaking.mode === 'random') return eligible[rng.int(eligible.length)];
    const side = sideOf(ctx.seats[0]);
    const fSide = focalSide(ctx);
    let probs: number[];
    if (matchmaking.mode === 'elo') {
      probs = closenessProbabilities(book.eloOf(fSide, ctx.focal), eligible.map((p) => book.eloOf(side, p.id)));
    } else if (matchmaking.mode === 'pfsp') {
      probs = pfspProbabilities(eligible.map((p) => h2h.winProbability(ctx.focal!, p.id)), { weighting: matchmaking.pfsp, p: matchmaking.p });
    } else {
      const interval = (role: string, id: string) => {
        const { mu, sigma } = book.skillOf(role, id);
        return { id, lo: mu - 3 * sigma, hi: mu + 3 * sigma };
      };
      probs = uncertaintyProbabilities(interval(fSide, ctx.focal), eligible.map((p) => interval(side, p.id)));
    }
    return eligible[drawIndex(probs, rng)];
  };
  const ids = fillSeats(seats, players, rng, {
    by: oneTeam ? 'seat' : 'team',
    distinct: oneTeam ? (players.length >= seats.length ? 'seats' : 'none') : 'teams',
    focal: { id: focal },
    pick,
  });
  return ids.map((id) => byId.get(id)!);
}
