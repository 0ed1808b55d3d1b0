import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import type { EventBus } from '../../src/bus/event-bus';
import { trackReleasedMetrics } from './released-metrics';
import type { Store } from '../../src/store/store';
import { createApi } from './http-api';
import { internalError } from './http-kit';
import { storeLeaderboard, type LeaderboardProvider } from './leaderboard';
import { LiveMatches } from './live-matches';
import { DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limiter';
import { SpectatorHub } from './spectator-hub';
import { storeTournaments, type TournamentSource } from './tournament-source';
import type { EnvResolver } from './state-tracker';
import { chartJsFile, createEnvPages, createStatic, defaultEnvsRoot, defaultWebRoot, highlightBundle, packageFile } from './static-files';
import { defaultRegistry } from '../catalog';
import { PlayHub } from './play/play-hub';
import { PLAY_NAMESPACE } from './play/play-protocol';
import { LobbyPlay, type LobbyPlayOptions } from './play/lobby-play';

/** How to start the spectator server. */
export interface ServerOptions {
  /** Port to listen on (default 8080; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1; "0.0.0.0" to serve the network). */
  host?: string;
  /** The bus the match runner publishes on; live matches are whatever it carries. */
  bus: EventBus;
  /** The SQLite store: replays, recent matches, leagues, rating history, training metrics. */
  store?: Store;
  /** The league's leaderboard with intervals; default: the store's current ratings (no intervals). */
  leaderboard?: LeaderboardProvider;
  /** Tournaments for the page (default: those of `store`). */
  tournaments?: TournamentSource;
  /** Allow omniscient and per-seat views of LIVE matches (default false). */
  allowOmniscient?: boolean;
  /** Allow omniscient and per-seat views of FINISHED matches (default true). */
  revealFinished?: boolean;
  /** Per-connection message rate limit (defaults: burst 40, 20/s, drop after 2,000 refusals in 10 s). */
  rateLimit?: Partial<RateLimit>;
  /** Rooms one connection may be in (default 16). */
  maxRoomsPerSocket?: number;
  /** Ended matches kept in memory for replays without a store (default 200). */
  keepEnded?: number;
  /**
   * Env lookup by id, so spectators also get `env.observe(state, view)` after each step
   * (default: the built-in registry). Matches of envs it does not know are shown as events only.
   */
  resolveEnv?: EnvResolver;
  /** Folder of the web page (default: the repository's web/). */
  webRoot?: string;
  /**
   * Serve remote and human seats on the `/play` namespace (app/server/play). `reconnectMs`: how
   * long a decision waits for a disconnected seat (default 10 s).
   */
  play?: boolean | { reconnectMs?: number };
  /**
   * Let visitors start games with a human seat from the lobby (`GET`/`POST /api/play`,
   * play/lobby-play.ts: a cap on games at once, an idle deadline). Implies `play`. Default: off.
   */
  lobbyPlay?: LobbyPlayOptions;
}

/** A running server. */
export interface ArenaServer {
  /** Base URL, e.g. http://127.0.0.1:8080/ */
  url: string;
  port: number;
  /** The socket.io server (for metrics; do not emit into match rooms yourself). */
  io: Server;
  /** The in-memory projection of live and recently ended matches. */
  live: LiveMatches;
  /** The `/play` hub when `play` (or `lobbyPlay`) was asked for, else null. */
  play: PlayHub | null;
  /** Lobby play when `lobbyPlay` was given, else null. */
  lobbyPlay: LobbyPlay | null;
  /** Stops accepting, disconnects every client and detaches from the bus (the store is left open). */
  close(): Promise<void>;
}

/**
 * Starts HTTP + socket.io on one port: the web page (web/), its JSON API (/api/...), and the
 * spectator sockets (see protocol.ts). It subscribes to `bus` at once, so matches started after
 * this call are complete in memory; start it before the league. Resolves once listening.
 *
 * ```ts
 * const server = await startServer({ bus, store, leaderboard: (league, q) => rows, port: 8080 });
 * console.log(`watch at ${server.url}`);
 * await server.close();
 * ```
 */
export async function startServer(options: ServerOptions): Promise<ArenaServer> {
  const policy = { allowOmniscient: options.allowOmniscient ?? false, revealFinished: options.revealFinished ?? true };
  const resolveEnv: EnvResolver =
    options.resolveEnv ??
    ((id) => {
      try {
        return defaultRegistry.env(id);
      } catch {
        return undefined;
      }
    });
  const live = new LiveMatches(options.bus, { keepEnded: options.keepEnded, resolveEnv });
  const leaderboard = options.leaderboard ?? (options.store ? storeLeaderboard(options.store) : undefined);
  const tournaments = options.tournaments ?? (options.store ? storeTournaments(options.store) : undefined);
  const stream = trackReleasedMetrics(live);
  const serveStatic = createStatic(options.webRoot ?? defaultWebRoot(), {
    '/vendor/chart.umd.min.js': chartJsFile(),
    '/vendor/highlight.js': highlightBundle(),
    '/vendor/highlight.css': packageFile('highlight.js', 'styles/github.min.css'),
    '/vendor/diff.min.js': packageFile('diff', 'dist/diff.min.js'),
  });
  const serveEnvPages = createEnvPages(defaultEnvsRoot());

  const http: HttpServer = createServer((req, res) => {
    api(req, res)
      .then((handled) => {
        if (handled || serveStatic(req, res) || serveEnvPages(req, res)) return;
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('not found\n');
      })
      .catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`${internalError(`${req.method} ${req.url?.slice(0, 200)}`, e)}\n`);
      });
  });
  const io = new Server(http, {
    serveClient: true,
    maxHttpBufferSize: 64 * 1024,
    connectTimeout: 10_000,
  });
  const hub = new SpectatorHub({
    io,
    live,
    store: options.store,
    policy,
    rateLimit: { ...DEFAULT_RATE_LIMIT, ...options.rateLimit },
    maxRoomsPerSocket: options.maxRoomsPerSocket ?? 16,
    resolveEnv,
  });

  const playOption = options.play || (options.lobbyPlay ? true : false);
  const play = playOption
    ? new PlayHub({ nsp: io.of(PLAY_NAMESPACE), live, rateLimit: { ...DEFAULT_RATE_LIMIT, ...options.rateLimit }, reconnectMs: typeof playOption === 'object' ? playOption.reconnectMs : undefined })
    : null;
  const lobbyPlay = play && options.lobbyPlay ? new LobbyPlay(play, options.bus, options.lobbyPlay) : null;
  const api = createApi({ live, store: options.store, leaderboard, tournaments, policy, resolveEnv, metrics: stream.metrics, lobbyPlay });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 8080, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    io,
    live,
    play,
    lobbyPlay,
    close: async () => {
      await lobbyPlay?.stop();
      await play?.drain();
      hub.stop();
      play?.stop();
      live.stop();
      stream.stop();
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
      });
      http.closeAllConnections?.();
    },
  };
}
