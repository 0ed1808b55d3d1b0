import type { JsonObject } from '../src/core/json';
import type { RatingPoint, RatingRecord } from '../src/store/store';
import type { EloBook } from './ratings/elo-book';
import type { EloSystem } from './ratings/elo-system';
import type { OpenSkillBook } from './ratings/openskill-book';
import type { OpenSkillSystem } from './ratings/openskill-system';
import type { RatedMatch } from './ratings/rated-match';
import type { RatingSystem } from './ratings/rating-system';
import { onlineRatingSystems, ratingSystem } from './ratings/rating-systems';
import type { Side } from './sides';

/** League rating settings (the `ratings` block of a league config). */
export interface RatingSettings {
  eloK: number;
  eloInitial: number;
}

/** The rows one match adds to the store. */
export interface RatingUpdate {
  ratings: RatingRecord[];
  history: RatingPoint[];
}

const SEP = '\u0000';
/** The rating key of a player in a role (or team): `role\u0000player`. */
export const ratingKeyOf = (role: string, player: string) => `${role}${SEP}${player}`;
const split = (k: string) => {
  const i = k.indexOf(SEP);
  return { role: k.slice(0, i), player: k.slice(i + 1) };
};

/** A finished match (its sides with the players in their seats) as the rating systems take it. */
export function ratedMatchOf(matchIdx: number, matchId: string, env: string, sides: readonly Side[], playersBySeat: readonly string[]): RatedMatch {
  return { matchId, time: matchIdx, env, teams: sides.map((s) => ({ side: s.key, rank: s.rank, keys: s.seats.map((seat) => ratingKeyOf(s.key, playersBySeat[seat])) })) };
}

/**
 * A league's (or tournament's) online ratings — every online system of the registry
 * (league/ratings/rating-systems.ts: Elo and OpenSkill) per (role or team, player) — rebuilt
 * from the store's rating rows on resume, so a resumed league continues from exactly the stored
 * values. Keeps no history in memory (the store does).
 */
export class RatingBook {
  private readonly systems: RatingSystem[];

  constructor(settings: RatingSettings, rows: readonly RatingRecord[]) {
    this.systems = onlineRatingSystems().map((name) =>
      ratingSystem(name).create(
        settings,
        rows.filter((r) => r.system === name).map((r) => ({ key: ratingKeyOf(r.role, r.player), value: r.value, state: (r.state ?? {}) as JsonObject })),
      ),
    );
  }

  /** The online system `name` of this book. */
  system(name: string): RatingSystem {
    const s = this.systems.find((x) => x.name === name);
    if (!s) throw new Error(`rating book: no online system "${name}"`);
    return s;
  }

  /** Online Elo (what Elo-closeness matchmaking reads). */
  get elo(): EloBook {
    return (this.system('elo') as EloSystem).book;
  }

  /** OpenSkill (what uncertainty matchmaking reads). */
  get skill(): OpenSkillBook {
    return (this.system('openskill') as OpenSkillSystem).book;
  }

  /** Elo rating of `player` in `role` (the initial rating when unrated). */
  eloOf(role: string, player: string): number {
    return this.elo.rating(ratingKeyOf(role, player));
  }

  /** OpenSkill mean and deviation of `player` in `role`. */
  skillOf(role: string, player: string): { mu: number; sigma: number } {
    return this.skill.get(ratingKeyOf(role, player));
  }

  /** Rates one finished match (its sides with the players in their seats) with every online system and returns the rows to store. */
  record(matchIdx: number, matchId: string, env: string, sides: readonly Side[], playersBySeat: readonly string[]): RatingUpdate {
    const match = ratedMatchOf(matchIdx, matchId, env, sides, playersBySeat);
    const now = Date.now();
    const ratings: RatingRecord[] = [];
    const history: RatingPoint[] = [];
    for (const system of this.systems) {
      for (const key of system.update(match)) {
        const { role, player } = split(key);
        const value = system.rate(key)!;
        ratings.push({ system: system.name, player, role, value, state: system.state(key) });
        history.push({ system: system.name, player, role, matchIdx, value, time: now });
      }
    }
    return { ratings, history };
  }
}
