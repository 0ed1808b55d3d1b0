/**
 * The JSON answers of the page's HTTP API (http-api.ts), as types both sides share: the server's
 * routes are declared to return them, and the page (web/js, `// @ts-check` against
 * web/tsconfig.json) reads them through the same types, so changing one without the other breaks
 * `npm test`'s type check.
 */
import type { JsonValue } from '../core/json';
import type { LeagueOverview } from '../../league/league-overview';
import type { Jsonified, TournamentReport } from '../../league/tournament/report';
import type { TournamentListing } from '../../league/tournament/stored';
import type { RatingPoint } from '../store/store';
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
