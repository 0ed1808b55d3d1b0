import { eloExpected, ELO_SCALE } from './elo';
import { checkRatedMatch, pairScore, type RatedMatch } from './rated-match';
import { RatingHistory, type RatingHistoryEntry, type RatingHistorySnapshot } from './rating-history';

/**
 * Elo settings; plain JSON so a league config can carry them. The K factor of a pairing of two
 * sides is `kByPairing[pairingKey(env, sideA, sideB)]`, else `kByEnv[env]`, else `k`.
 */
export interface EloOptions {
  /** Default K factor (32). */
  k?: number;
  /** K per env id. */
  kByEnv?: Record<string, number>;
  /** K per env and role pairing, keyed by {@link pairingKey}. */
  kByPairing?: Record<string, number>;
  /** Rating of a key never rated before (1500). */
  initial?: number;
  /** Elo scale (400). */
  scale?: number;
  /** Newest history entries kept per key (default: all; 0: none, e.g. when a store keeps them). */
  historyLimit?: number;
}

/** Serializable state of an {@link EloBook}: resume with `new EloBook(options, snapshot)`. */
export interface EloBookSnapshot {
  ratings: Record<string, number>;
  games: Record<string, number>;
  history: RatingHistorySnapshot;
}

/** What one rated match did to one key. */
export interface EloChange {
  key: string;
  before: number;
  after: number;
}

/**
 * The key of a role pairing for K lookups: `env:a|b` with the two side names sorted, so the
 * order of the teams does not matter. Example: `pairingKey('countdown-v1', 'solver', 'challenger')`
 * is `"countdown-v1:challenger|solver"`.
 */
export function pairingKey(env: string, sideA: string, sideB: string): string {
  return sideA <= sideB ? `${env}:${sideA}|${sideB}` : `${env}:${sideB}|${sideA}`;
}

/**
 * Online Elo ratings per rating key (see `ratingKey`: env/role/player) with a history per key.
 *
 * Team and multi-seat games count as pairwise results between teams:
 * - a team's rating is the mean of its seats' ratings (a key filling several seats counts per seat);
 * - every pair of teams (t, u) is one game scored from their ranks (1 / 0.5 / 0);
 * - team t's change is Σ_u K_tu / (T − 1) · (S_tu − E_tu) over the T − 1 other teams, so a
 *   two-team match is a plain Elo game with K and more teams do not inflate the step;
 * - every distinct key of team t receives t's full change (once, however many seats it fills);
 *   all changes are computed from the ratings before the match.
 * With unequal team sizes the sum of ratings is therefore not conserved; that is the usual
 * team-Elo convention (each member moves as if it had played the other team alone).
 */
export class EloBook {
  private readonly ratings = new Map<string, number>();
  private readonly games = new Map<string, number>();
  private readonly hist: RatingHistory;
  private readonly opts: Required<Omit<EloOptions, 'historyLimit'>>;

  constructor(options: EloOptions = {}, snapshot?: EloBookSnapshot) {
    this.opts = {
      k: options.k ?? 32,
      kByEnv: options.kByEnv ?? {},
      kByPairing: options.kByPairing ?? {},
      initial: options.initial ?? 1500,
      scale: options.scale ?? ELO_SCALE,
    };
    for (const [name, v] of [['k', this.opts.k], ['scale', this.opts.scale]] as const) {
      if (!(v > 0)) throw new Error(`elo: option "${name}" must be a positive number (got ${String(v)})`);
    }
    if (snapshot) {
      for (const [k, v] of Object.entries(snapshot.ratings)) this.ratings.set(k, v);
      for (const [k, v] of Object.entries(snapshot.games)) this.games.set(k, v);
    }
    this.hist = new RatingHistory(snapshot?.history, options.historyLimit ?? Infinity);
  }

  /** The rating of `key` (the initial rating when never rated). */
  rating(key: string): number {
    return this.ratings.get(key) ?? this.opts.initial;
  }

  /** Number of matches in which `key` was rated. */
  gamesOf(key: string): number {
    return this.games.get(key) ?? 0;
  }

  /** Every rated key with its rating, highest first. */
  table(): Array<{ key: string; rating: number; games: number }> {
    return [...this.ratings].map(([key, rating]) => ({ key, rating, games: this.gamesOf(key) })).sort((a, b) => b.rating - a.rating || (a.key < b.key ? -1 : 1));
  }

  /** The K factor used between two sides of `env` (see {@link EloOptions}). */
  kFor(env?: string, sideA?: string, sideB?: string): number {
    if (env !== undefined && sideA !== undefined && sideB !== undefined) {
      const k = this.opts.kByPairing[pairingKey(env, sideA, sideB)];
      if (k !== undefined) return k;
    }
    if (env !== undefined && this.opts.kByEnv[env] !== undefined) return this.opts.kByEnv[env];
    return this.opts.k;
  }

  /** The mean rating of a team's seats. */
  teamRating(keys: readonly string[]): number {
    let s = 0;
    for (const k of keys) s += this.rating(k);
    return s / keys.length;
  }

  /** Expected score of team A (its keys) against team B. */
  expected(keysA: readonly string[], keysB: readonly string[]): number {
    return eloExpected(this.teamRating(keysA), this.teamRating(keysB), this.opts.scale);
  }

  /**
   * Rates one finished match: updates every key, appends one history entry per key and
   * returns the changes (before/after per distinct key, in first-seen order).
   * Throws (naming the field) on a malformed match, before changing anything.
   */
  record(match: RatedMatch): EloChange[] {
    checkRatedMatch(match);
    const teams = match.teams;
    const T = teams.length;
    const r = teams.map((t) => this.teamRating(t.keys));
    const delta = new Array<number>(T).fill(0);
    for (let a = 0; a < T; a++) {
      for (let b = a + 1; b < T; b++) {
        const k = this.kFor(match.env, teams[a].side, teams[b].side) / (T - 1);
        const d = k * (pairScore(teams[a].rank, teams[b].rank) - eloExpected(r[a], r[b], this.opts.scale));
        delta[a] += d;
        delta[b] -= d;
      }
    }
    const change = new Map<string, number>();
    teams.forEach((t, i) => {
      for (const key of new Set(t.keys)) change.set(key, (change.get(key) ?? 0) + delta[i]);
    });
    const out: EloChange[] = [];
    for (const [key, d] of change) {
      const before = this.rating(key);
      const after = before + d;
      this.ratings.set(key, after);
      this.games.set(key, this.gamesOf(key) + 1);
      this.hist.add(key, { time: match.time, matchId: match.matchId, rating: after });
      out.push({ key, before, after });
    }
    return out;
  }

  /** The rating history of `key`, oldest first. */
  history(key: string): readonly RatingHistoryEntry[] {
    return this.hist.of(key);
  }

  /** A JSON-safe copy of ratings, game counts and history. */
  toJSON(): EloBookSnapshot {
    return { ratings: Object.fromEntries(this.ratings), games: Object.fromEntries(this.games), history: this.hist.toJSON() };
  }
}
