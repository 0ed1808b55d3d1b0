import type { RatingPoint, RatingRecord } from '../src/store/store';
import { EloBook } from './ratings/elo-book';
import { OpenSkillBook } from './ratings/openskill-book';
import type { RatedMatch } from './ratings/rated-match';
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
const key = (role: string, player: string) => `${role}${SEP}${player}`;
const split = (k: string) => {
  const i = k.indexOf(SEP);
  return { role: k.slice(0, i), player: k.slice(i + 1) };
};

/**
 * A league's online ratings — Elo and OpenSkill per (role or team, player) — rebuilt from the
 * store's rating rows on resume, so a resumed league continues from exactly the stored values.
 */
export class RatingBook {
  readonly elo: EloBook;
  readonly skill: OpenSkillBook;

  constructor(settings: RatingSettings, rows: readonly RatingRecord[]) {
    const eloRows = rows.filter((r) => r.system === 'elo');
    const skillRows = rows.filter((r) => r.system === 'openskill');
    this.elo = new EloBook(
      // the league's rating history lives in the store: none is kept here (memory stays flat)
      { k: settings.eloK, initial: settings.eloInitial, historyLimit: 0 },
      {
        ratings: Object.fromEntries(eloRows.map((r) => [key(r.role, r.player), r.value])),
        games: Object.fromEntries(eloRows.map((r) => [key(r.role, r.player), (r.state as { games: number }).games])),
        history: {},
      },
    );
    this.skill = new OpenSkillBook(
      { historyLimit: 0 },
      {
        ratings: Object.fromEntries(skillRows.map((r) => [key(r.role, r.player), r.state as { mu: number; sigma: number }])),
        games: Object.fromEntries(skillRows.map((r) => [key(r.role, r.player), (r.state as { games: number }).games])),
        history: {},
      },
    );
  }

  /** Elo rating of `player` in `role` (the initial rating when unrated). */
  eloOf(role: string, player: string): number {
    return this.elo.rating(key(role, player));
  }

  /** OpenSkill mean and deviation of `player` in `role`. */
  skillOf(role: string, player: string): { mu: number; sigma: number } {
    return this.skill.get(key(role, player));
  }

  /** Rates one finished match (its sides with the players in their seats) and returns the rows to store. */
  record(matchIdx: number, matchId: string, env: string, sides: readonly Side[], playersBySeat: readonly string[]): RatingUpdate {
    const match: RatedMatch = {
      matchId,
      time: matchIdx,
      env,
      teams: sides.map((s) => ({ side: s.key, rank: s.rank, keys: s.seats.map((seat) => key(s.key, playersBySeat[seat])) })),
    };
    const now = Date.now();
    const ratings: RatingRecord[] = [];
    const history: RatingPoint[] = [];
    for (const c of this.elo.record(match)) {
      const { role, player } = split(c.key);
      ratings.push({ system: 'elo', player, role, value: c.after, state: { games: this.elo.gamesOf(c.key) } });
      history.push({ system: 'elo', player, role, matchIdx, value: c.after, time: now });
    }
    for (const c of this.skill.record(match)) {
      const { role, player } = split(c.key);
      ratings.push({ system: 'openskill', player, role, value: c.ordinalAfter, state: { ...c.after, games: this.skill.gamesOf(c.key) } });
      history.push({ system: 'openskill', player, role, matchIdx, value: c.ordinalAfter, time: now });
    }
    return { ratings, history };
  }
}
