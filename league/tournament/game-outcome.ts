import type { SeatInfo } from '../../src/core/env';
import type { MatchRecord } from '../../src/store/store';
import { pairScore } from '../ratings/rated-match';
import { sidesOf } from '../sides';

/**
 * The two sides of a tournament game, in seat order: the env's teams when the seats span two
 * teams (Werewolf's werewolves and villagers, Countdown's challenger and solver), else its seats
 * (a symmetric game such as Deal-or-No-Deal). `label` names the side in crosstables ("seat 0",
 * "werewolves"); `seats` are the seat indices a player fills. Same grouping and order as
 * {@link sidesOf}. Throws when the env does not have exactly two sides.
 */
export function tournamentSides(seats: readonly SeatInfo[]): { label: string; seats: number[] }[] {
  const oneTeam = new Set(seats.map((s) => s.team)).size === 1;
  const sides = sidesOf(seats, seats.map(() => 0)).map((s) => ({ label: oneTeam ? `seat ${s.seats[0]}` : s.key, seats: s.seats }));
  if (sides.length !== 2) {
    const what = oneTeam ? `${seats.length} seat${seats.length === 1 ? '' : 's'} on one team` : `${sides.length} teams`;
    throw new Error(`tournaments pair two players, one per side; this env has ${what}`);
  }
  return sides;
}

/** One finished game from the view of its encounter's first player `a`. */
export interface GameOutcome {
  /** a's score: 1 win, 0.5 draw, 0 loss (sides ranked by mean return). */
  score: 1 | 0.5 | 0;
  /** The side a played and the side b played (labels from {@link tournamentSides}). */
  sideA: string;
  sideB: string;
  /** The match code (ok, forfeit). */
  code: string;
}

/** Scores a stored game for player `a` against `b` (each fills one side). */
export function gameOutcome(m: Pick<MatchRecord, 'seats' | 'returns' | 'code' | 'id'>, a: string, b: string): GameOutcome {
  const labels = tournamentSides(m.seats);
  const ranked = sidesOf(m.seats, m.returns);
  const sideOf = (player: string) => {
    const i = labels.findIndex((s) => s.seats.every((seat) => m.seats[seat].player === player));
    if (i < 0) throw new Error(`tournament game ${m.id}: player "${player}" does not hold a side`);
    return i;
  };
  const ia = sideOf(a);
  const ib = sideOf(b);
  return { score: pairScore(ranked[ia].rank, ranked[ib].rank), sideA: labels[ia].label, sideB: labels[ib].label, code: m.code };
}
