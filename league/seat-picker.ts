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
import { leagueExploiterOpponent, mainAgentOpponent, mainExploiterOpponent, type LeagueView } from './matchmaking/alphastar-league';
import type { RatingBook } from './rating-book';
import { learnerOf } from './lineage';

/** What the league knows when it fills the seats of one match. */
export interface PickSeatsInput {
  matchmaking: LeagueConfig['matchmaking'];
  seats: readonly SeatInfo[];
  players: readonly PlayerRecord[];
  book: RatingBook;
  h2h: HeadToHead;
  rng: Rng;
  /** Player that must take part; default: a learner half of the time (when there are learners), else uniform. */
  focal?: string;
  /** AlphaStar type of each learner (main, main-exploiter, league-exploiter). */
  learnerTypes?: ReadonlyMap<string, 'main' | 'main-exploiter' | 'league-exploiter'>;
}

type LearnerType = 'main' | 'main-exploiter' | 'league-exploiter';

/**
 * AlphaStar's opponent rule for a learner focal (exploiters always; main learners when the
 * league uses PFSP), restricted to the eligible players; undefined when the rule has nobody
 * eligible to choose from (the league's own mode then picks).
 */
function alphaStarPick(
  focal: PlayerRecord,
  type: LearnerType,
  eligible: readonly PlayerRecord[],
  types: ReadonlyMap<string, LearnerType>,
  all: ReadonlyMap<string, PlayerRecord>,
  h2h: HeadToHead,
  rng: Rng,
): PlayerRecord | undefined {
  const view: LeagueView<PlayerRecord> = {
    mains: eligible.filter((p) => types.get(p.id) === 'main'),
    mainExploiters: eligible.filter((p) => types.get(p.id) === 'main-exploiter'),
    historical: eligible.filter((p) => p.kind !== 'learner'),
    parentOf: (id) => learnerOf(id, all),
    winProbability: (a, b) => h2h.winProbability(a, b),
  };
  try {
    if (type === 'main-exploiter') return mainExploiterOpponent(focal, view, rng).opponent;
    if (type === 'league-exploiter') return leagueExploiterOpponent(focal, view, rng).opponent;
    return view.mains.some((m) => m.id === focal.id) ? mainAgentOpponent(focal, view, rng).opponent : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fills the seats of one match. A focal player is drawn uniformly (or given), placed on a seat
 * (team) it can play, and every other seat (team) is filled with an eligible player chosen by
 * the league's matchmaking mode relative to the focal player:
 * - `elo`: Elo-closeness on the ratings in the seat's side (team, or role in symmetric games);
 * - `pfsp`: AlphaStar's prioritized fictitious self-play on head-to-head results (f_hard or f_var);
 * - `uncertainty`: prefers opponents whose pairing with the focal is least certain (OpenSkill μ ± 3σ);
 * - `random`: uniform.
 * A learner focal picks its opponent by AlphaStar's rules instead: main exploiters target the
 * main learners (or their snapshots), league exploiters the whole frozen league, and main
 * learners (in PFSP leagues) follow the main-agent rule.
 * Teams are filled by one player each (Werewolf: one player plays all villagers); symmetric
 * games (one team) seat distinct players when there are enough of them.
 */
export function pickSeats(input: PickSeatsInput): PlayerRecord[] {
  const { seats, players, book, h2h, rng, matchmaking } = input;
  const oneTeam = new Set(seats.map((s) => s.team)).size === 1;
  const sideOf = (seat: number) => (oneTeam ? seats[seat].role : seats[seat].team);
  const types = input.learnerTypes ?? new Map<string, LearnerType>();
  const learners = players.filter((p) => p.kind === 'learner');
  const focal = input.focal ?? (learners.length && rng.next() < 0.5 ? learners[rng.int(learners.length)] : players[rng.int(players.length)]).id;
  const byId = new Map(players.map((p) => [p.id, p]));
  const focalSide = (ctx: SeatPickContext): string => {
    const s = ctx.filled.findIndex((id) => id === ctx.focal);
    return s >= 0 ? sideOf(s) : sideOf(ctx.seats[0]);
  };
  const pick = (eligible: readonly PlayerRecord[], ctx: SeatPickContext): PlayerRecord => {
    if (!ctx.focal) return eligible[rng.int(eligible.length)];
    const focalType = types.get(ctx.focal);
    if (focalType && (focalType !== 'main' || matchmaking.mode === 'pfsp')) {
      const chosen = alphaStarPick(byId.get(ctx.focal)!, focalType, eligible, types, byId, h2h, rng);
      if (chosen) return chosen;
    }
    if (matchmaking.mode === 'random') return eligible[rng.int(eligible.length)];
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
