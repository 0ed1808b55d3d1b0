/**
 * Rating systems behind one interface: online Elo, OpenSkill and the batch Bradley–Terry fit
 * implement {@link RatingSystem}, and rating-systems.ts registers them by name. The league's
 * RatingBook, its leaderboards, the server and the page know systems only through the registry.
 */
import type { JsonObject } from '../../src/core/json';
import type { RatedMatch } from './rated-match';

/** How the CLI, the server and the page describe a system (the API sends this; the page names nothing else). */
export interface RatingSystemInfo {
  /** Registry name: the `system` of stored rating rows and of `?system=` in the API. */
  name: string;
  /** Display name ("Bradley–Terry"). */
  title: string;
  /** Header of the rating column. */
  column: string;
  /** What the numbers mean, in a sentence or three. */
  note: string;
  /** The online system whose stored history the rating chart plots for this one, its legend and its axis. */
  history: { system: string; name: string; axis: string };
  /** The header of a second column for {@link KeyRating.ordinal} (OpenSkill's μ − 3σ), when the system has one. */
  ordinal?: string;
  /** Whether rows carry bootstrap rank ranges. */
  rankRanges?: boolean;
}

/** One key's rating as a leaderboard shows it. */
export interface KeyRating {
  key: string;
  /** The value of the rating column. */
  rating: number;
  /** Its 95 % interval, where the system has one. */
  lo?: number;
  hi?: number;
  /** A second value (OpenSkill's conservative μ − 3σ, what its stored rows and matchmaking use). */
  ordinal?: number;
  /** 95 % rank range within the key's group across bootstrap resamples (Bradley–Terry). */
  rankLo?: number;
  rankHi?: number;
  games: number;
}

/** A key's stored rating: the value (history, matchmaking) and the system's state of the key. */
export interface SavedRating {
  key: string;
  value: number;
  state: JsonObject;
}

/** Settings the systems read (a league or tournament config's `ratings`). */
export interface RatingSystemSettings {
  eloK: number;
  eloInitial: number;
  /** Bootstrap resamples of a batch fit's intervals (Bradley–Terry; default 1,000). */
  resamples?: number;
}

/**
 * A rating system: update (rate one finished match), rate (a key's value), intervals (95 %,
 * where the system has them) and serialization (a key's state; the kind's `create` restores).
 */
export interface RatingSystem {
  readonly name: string;
  /** Rates one finished match (a batch system adds its results to its data); returns the keys whose rating changed. */
  update(match: RatedMatch): string[];
  /** A key's value as stored and used by matchmaking (Elo points, OpenSkill's ordinal, Bradley–Terry points); undefined when unrated. */
  rate(key: string): number | undefined;
  /** A key's 95 % interval of its shown rating; null when the system has none (online Elo) or the key is unrated. */
  interval(key: string): [number, number] | null;
  /** Every rated key as a leaderboard shows it. */
  ratings(): KeyRating[];
  /** A key's state for storing (restored by the kind's `create`). */
  state(key: string): JsonObject;
}

/** A registered kind of rating system. */
export interface RatingSystemKind {
  readonly info: RatingSystemInfo;
  /**
   * Online systems are updated after every match and stored (rating rows and history, used by
   * matchmaking); a batch system is fit from all stored results when a leaderboard asks.
   */
  readonly online: boolean;
  /** A system with `saved` keys restored (what an online system stored). */
  create(settings: RatingSystemSettings, saved?: readonly SavedRating[]): RatingSystem;
}
