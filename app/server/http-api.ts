import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { HttpError, internalError, publicMessage, readJson, sendJson as send } from './http-kit';
import { z } from 'zod';
import { leagueOverview } from '../../league/league-overview';
import { defaultOnlineRatingSystem, onlineRatingSystems, ratingSystemInfos, ratingSystemNames } from '../../league/ratings/rating-systems';
import type {
  HealthResponse,
  LeaderboardResponse,
  LeaguesResponse,
  MatchEventsResponse,
  MatchListResponse,
  MatchResponse,
  OverviewResponse,
  RatingsResponse,
  RatingSystemsResponse,
  TournamentResponse,
  TournamentsResponse,
  TrainingResponse,
} from './api-types';
import type { BusMetrics } from '../../src/bus/metrics';
import { StoreError, type Store } from '../../src/store/store';
import type { LeaderboardProvider } from './leaderboard';
import type { LiveMatches } from './live-matches';
import type { TournamentSource } from './tournament-source';
import { findMatch, storedSummary } from './match-source';
import { ViewSchema, describeZodError, viewerOf, type MatchSummary } from './protocol';
import type { EnvResolver } from './state-tracker';
import { authorizeView, viewOptions, type ViewPolicy } from './view-policy';
import { viewSnapshot } from './view-snapshot';
import { type LobbyPlay, type PlayOptionsResponse, type PlayStartResponse } from './play/lobby-play';

export interface ApiDeps {
  live: LiveMatches;
  store?: Store;
  leaderboard?: LeaderboardProvider;
  tournaments?: TournamentSource;
  policy: ViewPolicy;
  resolveEnv?: EnvResolver;
  /** Counters over the bus since the server started (reported by /api/health). */
  metrics?: BusMetrics;
  /** Lobby play (`GET` / `POST /api/play`); absent: those answer 404. */
  lobbyPlay?: LobbyPlay | null;
}

/** Largest `POST /api/play` body. */
const MAX_BODY_BYTES = 16 * 1024;

const RecentQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  env: z.string().max(128).optional(),
});
const LiveQuery = z.object({ env: z.string().max(128).optional() });
const EventsQuery = z.object({ view: ViewSchema.default('public') });
/** Rating systems of the leaderboard (every registered one) and of the stored rating history (the online ones): league/ratings/rating-systems.ts. */
const BoardQuery = z.object({ role: z.string().max(128).optional(), system: z.enum(ratingSystemNames()).optional() });
const HistoryQuery = z.object({ system: z.enum(onlineRatingSystems()).default(defaultOnlineRatingSystem()), limit: z.coerce.number().int().min(1).max(100_000).default(20_000) });
const TournamentQuery = z.object({ recent: z.coerce.number().int().min(0).max(500).default(20) });
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const PlayQuery = z.object({ env: z.string().max(128).optional(), params: z.string().max(MAX_BODY_BYTES).optional() });

function parse<T>(schema: z.ZodType<T>, query: URLSearchParams, what: string): T {
  const r = schema.safeParse(Object.fromEntries(query));
  if (!r.success) throw new HttpError(400, what, describeZodError(r.error));
  return r.data;
}

/**
 * The page's JSON API (GET only, but for `POST /api/play` where lobby play is on); every answer's type is in api-types.ts (the page reads the same types). Returns a handler that answers `/api/...` requests and
 * returns false for any other path. Matches come from memory (live, recently ended) and the
 * store; a match's events pass through the same view filter and view policy as the sockets.
 *
 * - `/api/health`
 * - `/api/matches/live?env=` · `/api/matches/recent?limit=&env=` · `/api/matches/:id` · `/api/matches/:id/events?view=`
 * - `/api/leagues` · `/api/leagues/:id/leaderboard?role=&system=` · `/api/leagues/:id/ratings?system=` · `/api/leagues/:id/training`
 *   · `/api/rating-systems` (the registered rating systems, how the page names and explains each)
 *   · `/api/leagues/:id/overview` (per learner: snapshots, training progress, Elo against the baselines, best recent games)
 * - `/api/tournaments` · `/api/tournaments/:id?recent=` (crosstable, standings, rounds, SPRT state, newest games)
 * - `/api/play?env=&params=` (what the lobby offers to play) · `POST /api/play` {env, seat, opponents, params}
 *   (starts a game with a human seat; answers its `#/play/<token>` link): see play/lobby-play.ts
 */
export function createApi(deps: ApiDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const { live, store } = deps;
  const routes: [RegExp, (m: RegExpExecArray, q: URLSearchParams) => unknown][] = [
    [/^\/api\/health$/, (): HealthResponse | Status => health(live, store, deps.metrics)],
    [
      /^\/api\/matches\/live$/,
      (_m, q): MatchListResponse => {
        const { env } = parse(LiveQuery, q, 'live');
        return { matches: live.live().filter((m) => !env || m.env === env).map((m) => live.summary(m)) };
      },
    ],
    [
      /^\/api\/matches\/recent$/,
      (_m, q): MatchListResponse => {
        const { limit, env } = parse(RecentQuery, q, 'recent');
        const seen = new Set<string>();
        const out: MatchSummary[] = [];
        const push = (s: MatchSummary) => {
          if (seen.has(s.id) || (env && s.env !== env)) return;
          seen.add(s.id);
          out.push(s);
        };
        for (const m of live.ended()) push(live.summary(m));
        // a match still live here is not recent yet, even when stored: its public view has not shown the end
        for (const m of live.live()) seen.add(m.id);
        if (store) for (const r of store.recentMatches(env ? limit * 4 : limit)) push(storedSummary(r, deps.resolveEnv));
        out.sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0));
        return { matches: out.slice(0, limit) };
      },
    ],
    [
      /^\/api\/matches\/([^/]+)$/,
      (m): MatchResponse => {
        const src = findMatch(checkId(m[1]), live, store, deps.resolveEnv);
        if (!src) throw new HttpError(404, 'match', `no match "${m[1]}"`);
        return { match: src.summary, views: viewOptions({ live: src.live, seats: src.seats }, deps.policy) };
      },
    ],
    [
      /^\/api\/matches\/([^/]+)\/events$/,
      (m, q): MatchEventsResponse => {
        const { view } = parse(EventsQuery, q, 'events');
        const src = findMatch(checkId(m[1]), live, store, deps.resolveEnv);
        if (!src) throw new HttpError(404, 'match', `no match "${m[1]}"`);
        const viewer = viewerOf(view);
        const decision = authorizeView(viewer, { live: src.live, seats: src.seats }, deps.policy);
        if (!decision.ok) throw new HttpError(decision.code === 'forbidden' ? 403 : 400, 'view', decision.message);
        const { ok: _ok, ...snapshot } = viewSnapshot(src, viewer, deps.policy);
        return snapshot;
      },
    ],
    [
      /^\/api\/leagues$/,
      (): LeaguesResponse => ({
        leagues: (store?.leagues() ?? []).map((l) => ({ id: l.id, env: store!.leagueEnv(l.id), createdAt: l.createdAt, matches: store!.matchCount(l.id) })),
      }),
    ],
    [/^\/api\/rating-systems$/, (): RatingSystemsResponse => ({ systems: ratingSystemInfos() })],
    [
      /^\/api\/leagues\/([^/]+)\/leaderboard$/,
      async (m, q): Promise<LeaderboardResponse> => {
        const league = knownLeague(m[1], store);
        const query = parse(BoardQuery, q, 'leaderboard');
        if (!deps.leaderboard) return { league, rows: [] };
        return { league, rows: await deps.leaderboard(league, query) };
      },
    ],
    [
      /^\/api\/leagues\/([^/]+)\/ratings$/,
      (m, q): RatingsResponse => {
        const league = knownLeague(m[1], store);
        const { system, limit } = parse(HistoryQuery, q, 'ratings');
        const points = store?.ratingHistory(league, system) ?? [];
        return { league, system, points: points.slice(-limit) };
      },
    ],
    [
      /^\/api\/play$/,
      (_m, q): PlayOptionsResponse => {
        const lobby = lobbyPlayOf(deps);
        const { env, params } = parse(PlayQuery, q, 'play');
        if (params !== undefined && env === undefined) throw new HttpError(400, 'params', 'give env= with params=');
        let raw: unknown;
        if (params !== undefined) {
          try {
            raw = JSON.parse(params);
          } catch {
            throw new HttpError(400, 'params', 'not valid JSON');
          }
        }
        return lobby.options(env, raw);
      },
    ],
    [/^\/api\/tournaments$/, (): TournamentsResponse => ({ tournaments: deps.tournaments?.list() ?? [] })],
    [
      /^\/api\/tournaments\/([^/]+)$/,
      (m, q): TournamentResponse => {
        const id = checkId(m[1]);
        const { recent } = parse(TournamentQuery, q, 'tournament');
        const t = deps.tournaments?.get(id, { recent });
        if (!t) throw new HttpError(404, 'tournament', `no tournament "${id}"`);
        return { tournament: t.report, recent: t.recent };
      },
    ],
    [/^\/api\/leagues\/([^/]+)\/training$/, (m): TrainingResponse => {
        const league = knownLeague(m[1], store);
        return { league, iterations: store?.trainingMetrics(league) ?? [] };
      },
    ],
    [
      /^\/api\/leagues\/([^/]+)\/overview$/,
      (m): OverviewResponse => {
        const id = checkId(m[1]);
        const overview = store ? leagueOverview(store, id) : null;
        if (!overview) throw new HttpError(404, 'league', `no league "${id}"`);
        return { overview };
      },
    ],
  ];

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.startsWith('/api/')) return false;
    if (url.pathname === '/api/play' && req.method === 'POST') {
      await startPlay(deps, req, res);
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, { error: url.pathname === '/api/play' ? 'play: use GET (options) or POST (start a game)' : 'only GET is supported; spectators cannot act' });
      return true;
    }
    for (const [re, handler] of routes) {
      const m = re.exec(url.pathname);
      if (!m) continue;
      try {
        const body = await handler(m, url.searchParams);
        send(res, body instanceof Status ? body.status : 200, body instanceof Status ? body.body : body);
      } catch (e) {
        if (e instanceof HttpError) send(res, e.status, { error: e.message });
        else if (e instanceof StoreError) send(res, 503, { error: e.message }); // the database, named, and what to do
        else send(res, 500, { error: internalError(`GET ${url.pathname}`, e) });
      }
      return true;
    }
    send(res, 404, { error: `no such endpoint: ${url.pathname}` });
    return true;
  };
}

function lobbyPlayOf(deps: ApiDeps): LobbyPlay {
  if (!deps.lobbyPlay) throw new HttpError(404, 'play', 'this server does not offer games to visitors (start it with --allow-play)');
  return deps.lobbyPlay;
}

/**
 * `POST /api/play`: a JSON body (content-type application/json, so another site's page cannot
 * post one without the browser asking this server first) of at most 16 KiB; answers 201 with
 * the seat's link, or an error naming the bad field.
 */
async function startPlay(deps: ApiDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const lobby = lobbyPlayOf(deps);
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new HttpError(415, 'content-type', `expected application/json, got ${JSON.stringify(type.slice(0, 60)) || 'none'}`);
    const body = await readJson(req, MAX_BODY_BYTES);
    const started: PlayStartResponse = lobby.start(body);
    send(res, 201, started);
  } catch (e) {
    if (e instanceof HttpError) send(res, e.status, { error: e.message });
    else send(res, 500, { error: internalError('POST /api/play', e) });
  }
}

/** A response with a status other than 200. */
class Status {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** `/api/health`: 200 with the database's state when it answers, 503 when it does not. */
function health(live: LiveMatches, store: Store | undefined, metrics: BusMetrics | undefined): HealthResponse | Status {
  const base = { live: live.live().length, ...(metrics ? { stream: { ...metrics, outcomes: { ...metrics.outcomes } } } : {}) };
  if (!store) return { ok: true, ...base, store: null };
  // the file's name, not where the server keeps it (spectators are strangers: docs/trust.md)
  const file = basename(store.db.name);
  try {
    return { ok: true, ...base, store: { ok: true, ...store.health(), file } };
  } catch (e) {
    return new Status(503, { ok: false, ...base, store: { ok: false, file, error: publicMessage(e) } });
  }
}

/** A league id that exists in the store (404 otherwise). */
function knownLeague(raw: string, store: Store | undefined): string {
  const id = checkId(raw);
  if (!store || !store.hasLeague(id)) throw new HttpError(404, 'league', `no league "${id}"`);
  return id;
}

function checkId(raw: string): string {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, 'id', 'not valid URL encoding');
  }
  if (!ID.test(id)) throw new HttpError(400, 'id', 'letters, digits and _ . : - only (1-128 characters)');
  return id;
}
