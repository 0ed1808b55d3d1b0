import { ordinal, predictWin, rate, rating, type Options, type Rating } from 'openskill';
import { bradleyTerryFull, bradleyTerryPart, plackettLuce, thurstoneMostellerFull, thurstoneMostellerPart } from 'openskill/models';
import { checkRatedMatch, type RatedMatch } from './rated-match';
import { RatingHistory, type RatingHistoryEntry, type RatingHistorySnapshot } from './rating-history';

/** The OpenSkill (Weng–Lin) models the `openskill` package offers. */
export const OPENSKILL_MODELS = {
  'plackett-luce': plackettLuce,
  'bradley-terry-full': bradleyTerryFull,
  'bradley-terry-part': bradleyTerryPart,
  'thurstone-mosteller-full': thurstoneMostellerFull,
  'thurstone-mosteller-part': thurstoneMostellerPart,
} as const;

/** OpenSkill settings (plain JSON). Unset values take the package's defaults. */
export interface OpenSkillOptions {
  /** Model (default "plackett-luce", the package's default). */
  model?: keyof typeof OPENSKILL_MODELS;
  /** Initial mean (25) and deviation (25/3) of a new key. */
  mu?: number;
  sigma?: number;
  /** Performance deviation β (σ/2 by default). */
  beta?: number;
  /** Dynamics τ added to σ before each match (the package's default, 25/300). */
  tau?: number;
  /** Deviations subtracted in the ordinal μ − z·σ (3). */
  z?: number;
  /** Newest history entries kept per key (default: all; 0: none, e.g. when a store keeps them). */
  historyLimit?: number;
}

/** One key's OpenSkill rating. */
export interface SkillRating {
  mu: number;
  sigma: number;
}

/** Serializable state of an {@link OpenSkillBook}. */
export interface OpenSkillBookSnapshot {
  ratings: Record<string, SkillRating>;
  games: Record<string, number>;
  history: RatingHistorySnapshot;
}

/** What one rated match did to one key (ordinals are μ − z·σ). */
export interface SkillChange {
  key: string;
  before: SkillRating;
  after: SkillRating;
  ordinalBefore: number;
  ordinalAfter: number;
}

/**
 * OpenSkill ratings per rating key (env/role/player), for team and many-seat games such as
 * Werewolf (werewolves vs villagers), with a history per key of the ordinal μ − 3σ.
 *
 * Each seat enters the package's `rate` as one team member, so team sizes are kept (five
 * villagers are a team of five). A key filling several seats gets the mean of its seats'
 * updated μ and σ; those are equal within one team, since members of one team start equal
 * and receive the same update.
 */
export class OpenSkillBook {
  private readonly ratings = new Map<string, SkillRating>();
  private readonly games = new Map<string, number>();
  private readonly hist: RatingHistory;
  private readonly pkg: Options;
  private readonly z: number;

  constructor(options: OpenSkillOptions = {}, snapshot?: OpenSkillBookSnapshot) {
    const model = options.model ?? 'plackett-luce';
    if (typeof model !== 'string' || !Object.hasOwn(OPENSKILL_MODELS, model)) {
      throw new Error(`openskill: option "model" must be one of ${Object.keys(OPENSKILL_MODELS).map((m) => `"${m}"`).join(', ')} (got "${String(model)}")`);
    }
    this.pkg = { model: OPENSKILL_MODELS[model] };
    if (options.mu !== undefined) this.pkg.mu = options.mu;
    if (options.sigma !== undefined) this.pkg.sigma = options.sigma;
    if (options.beta !== undefined) this.pkg.beta = options.beta;
    if (options.tau !== undefined) this.pkg.tau = options.tau;
    this.z = options.z ?? 3;
    if (snapshot) {
      for (const [k, v] of Object.entries(snapshot.ratings)) this.ratings.set(k, { mu: v.mu, sigma: v.sigma });
      for (const [k, v] of Object.entries(snapshot.games)) this.games.set(k, v);
    }
    this.hist = new RatingHistory(snapshot?.history, options.historyLimit ?? Infinity);
  }

  /** The rating of `key` (the initial μ, σ when never rated). */
  get(key: string): SkillRating {
    const r = this.ratings.get(key);
    if (r) return { mu: r.mu, sigma: r.sigma };
    const fresh = rating(undefined, this.pkg);
    return { mu: fresh.mu, sigma: fresh.sigma };
  }

  /** The conservative estimate μ − z·σ of `key` (z = 3 by default). */
  ordinal(key: string): number {
    return ordinal(this.get(key), { z: this.z });
  }

  /** Number of matches in which `key` was rated. */
  gamesOf(key: string): number {
    return this.games.get(key) ?? 0;
  }

  /** Every rated key, highest ordinal first. */
  table(): Array<{ key: string; mu: number; sigma: number; ordinal: number; games: number }> {
    return [...this.ratings.keys()]
      .map((key) => ({ key, ...this.get(key), ordinal: this.ordinal(key), games: this.gamesOf(key) }))
      .sort((a, b) => b.ordinal - a.ordinal || (a.key < b.key ? -1 : 1));
  }

  /** Win probability of each team (lists of keys, one per seat); they sum to 1. */
  predictWin(teams: ReadonlyArray<readonly string[]>): number[] {
    return predictWin(teams.map((t) => t.map((k) => this.get(k) as Rating)), this.pkg);
  }

  /**
   * Rates one finished match (ranks: lower is better, equal = tie), appends one history entry
   * per distinct key and returns the changes. Throws (naming the field) on a malformed match.
   */
  record(match: RatedMatch): SkillChange[] {
    checkRatedMatch(match);
    const input = match.teams.map((t) => t.keys.map((k) => this.get(k) as Rating));
    const output = rate(input, { ...this.pkg, rank: match.teams.map((t) => t.rank) });
    const sums = new Map<string, { mu: number; sigma: number; n: number }>();
    match.teams.forEach((t, i) =>
      t.keys.forEach((key, j) => {
        const s = sums.get(key) ?? { mu: 0, sigma: 0, n: 0 };
        s.mu += output[i][j].mu;
        s.sigma += output[i][j].sigma;
        s.n++;
        sums.set(key, s);
      }),
    );
    const out: SkillChange[] = [];
    for (const [key, s] of sums) {
      const before = this.get(key);
      const after = { mu: s.mu / s.n, sigma: s.sigma / s.n };
      this.ratings.set(key, after);
      this.games.set(key, this.gamesOf(key) + 1);
      const ord = ordinal(after, { z: this.z });
      const entry: RatingHistoryEntry = { time: match.time, matchId: match.matchId, rating: ord, mu: after.mu, sigma: after.sigma };
      this.hist.add(key, entry);
      out.push({ key, before, after, ordinalBefore: ordinal(before, { z: this.z }), ordinalAfter: ord });
    }
    return out;
  }

  /** The history of `key` (rating = ordinal, plus μ and σ), oldest first. */
  history(key: string): readonly RatingHistoryEntry[] {
    return this.hist.of(key);
  }

  /** A JSON-safe copy of ratings, game counts and history. */
  toJSON(): OpenSkillBookSnapshot {
    const ratings: Record<string, SkillRating> = {};
    for (const [k, v] of this.ratings) ratings[k] = { mu: v.mu, sigma: v.sigma };
    return { ratings, games: Object.fromEntries(this.games), history: this.hist.toJSON() };
  }
}
