/**
 * The JSON answers of the page's HTTP API (http-api.ts), as types both sides share: the server's
 * routes are declared to return them, and the page (web/js, `// @ts-check` against
 * web/tsconfig.json) reads them through the same types, so changing one without the other breaks
 * `npm test`'s type check.
 */
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import type { LeagueOverview } from '../../league/league-overview';
import type { RatingSystemInfo } from '../../league/ratings/rating-system';
import type { Jsonified, TournamentReport } from '../../league/tournament/report';
import type { TournamentListing } from '../../league/tournament/stored';
import type { RatingPoint } from '../../src/store/store';
import type { LeaderboardRow } from './leaderboard';
import type { MatchSummary, SnapshotMessage, ViewOption } from './protocol';
import type { TournamentGame } from './tournament-source';

/** `/api/health` */
export interface HealthResponse {
  ok: boolean;
  live: number;
  /** The database's state (file, schema version, read-only, counts), or null without one. */
  store: null | { ok: boolean; [key: string]: unknown };
  /** Counts of the event stream this server watches (matches, events, outcomes). */
  stream?: unknown;
}
/** `/api/matches/live`, `/api/matches/recent` */
export interface MatchListResponse {
  matches: MatchSummary[];
}
/** `/api/matches/:id`: the summary and the views this server allows now. */
export interface MatchResponse {
  match: MatchSummary;
  views: ViewOption[];
}
/** `/api/matches/:id/events?view=`: the socket's join reply without `ok`. */
export type MatchEventsResponse = Omit<SnapshotMessage, 'ok'>;
/** One league of `/api/leagues`. */
export interface LeagueListing {
  id: string;
  env: string | null;
  createdAt: number;
  matches: number;
}
/** `/api/leagues` */
export interface LeaguesResponse {
  leagues: LeagueListing[];
}
/** `/api/leagues/:id/leaderboard?role=&system=` */
export interface LeaderboardResponse {
  league: string;
  rows: LeaderboardRow[];
}
/** `/api/rating-systems`: every registered rating system (league/ratings/rating-systems.ts), the leaderboard's default first. */
export interface RatingSystemsResponse {
  systems: RatingSystemInfo[];
}
/** `/api/leagues/:id/ratings?system=`: the rating history. */
export interface RatingsResponse {
  league: string;
  system: string;
  points: RatingPoint[];
}
/** One stored training iteration (`metrics` as the trainer wrote them: src/train/metrics-log.ts `IterationMetrics`). */
export interface TrainingRecord {
  iteration: number;
  /** The learner (or role) the iteration belongs to. */
  role: string;
  metrics: JsonValue;
  time: number;
}
/** `/api/leagues/:id/training` */
export interface TrainingResponse {
  league: string;
  iterations: TrainingRecord[];
}
/** `/api/leagues/:id/overview` */
export interface OverviewResponse {
  overview: LeagueOverview;
}
/** `/api/tournaments` */
export interface TournamentsResponse {
  tournaments: TournamentListing[];
}
/** `/api/tournaments/:id?recent=` */
export interface TournamentResponse {
  tournament: Jsonified<TournamentReport>;
  recent: TournamentGame[];
}
/** Any error answer. */
export interface ErrorResponse {
  error: string;
}

/** One seat of an env's setup as the lobby offers it. */
export interface PlaySeatOption {
  seat: number;
  /** The seat's role, or null when roles are hidden (dealt per match). */
  role: string | null;
  team: string | null;
  /** Opponent agents that may sit here. */
  agents: string[];
  /** The lobby's default opponent for this seat. */
  default: string;
}

/** An env the lobby offers. */
export interface PlayEnvOption {
  env: string;
  description: string;
  /** The public part of the params the setup was computed for (defaults filled). */
  params: Params;
  seats: PlaySeatOption[];
}

/** `GET /api/play[?env=&params=]`. */
export interface PlayOptionsResponse {
  maxMatches: number;
  running: number;
  idleMs: number;
  envs: PlayEnvOption[];
}

/** `POST /api/play`'s body. */
export interface PlayStartRequest {
  env: string;
  /** The human's seat (default 0). */
  seat?: number;
  /** Agent names for the other seats, in seat order (default: each seat's default). */
  opponents?: string[];
  /** Env params (default: the env's defaults). */
  params?: Params;
}

/** `POST /api/play`'s answer: open `url` (relative to the page) to play. */
export interface PlayStartResponse {
  matchId: string;
  env: string;
  seat: number;
  agents: string[];
  /** The seat's secret (it opens the seat; whoever holds it plays). */
  token: string;
  /** `#/play/<token>`. */
  url: string;
}
