import { existsSync } from 'node:fs';
import { EventBus } from '../../../src/bus/event-bus';
import { leagueLeaderboardProvider } from '../../server/league-leaderboard';
import { startServer, type ArenaServer } from '../../server/start-server';
import { Store, StoreError } from '../../../src/store/store';
import { listenError, UsageError } from '../options';
import { stopOnSignals } from '../stop-signal';
import type { Registry } from '../../../src/core/registry';
import { lobbyPlayNote, lobbyPlayOptions, type LobbyPlayArgs } from '../lobby-play-options';
import { LiveFeed } from '../../../src/scale/live-feed';
import { checkRedis, connectRedis, parseRedisUrl } from '../../../src/scale/redis-connection';

export interface ServeArgs extends LobbyPlayArgs {
  db: string;
  port: number;
  host: string;
  allowOmniscient?: boolean;
  /** Redis URL: live matches of every process publishing there (workers, schedulers) are shown too. */
  redis?: string;
}

/**
 * `arena serve [--db FILE] [--port N] [--host H] [--allow-omniscient] [--allow-play ...] [--redis URL]`:
 * serves the web page, its JSON API and the spectator sockets over a store (replays, leaderboards,
 * plots); with `--allow-play` visitors may start games with a human seat from the lobby (they run
 * on this process's bus, in memory: the store does not record them). Without --redis only this
 * process's bus is live (the demo, `npm start`, runs its league in the same process); with it, the
 * live events that `arena worker` and `league run --redis` processes publish to Redis are fed into
 * this server's bus (src/scale/live-feed.ts), so any number of servers show every live match with
 * the same per-view filtering and late-join snapshots. Redis unreachable at start is one line.
 * Runs until SIGINT/SIGTERM, then closes cleanly. A --db that does not exist is a usage error
 * (nothing is created), except with --allow-play: then the server is play-only — the lobby's
 * games, their live views and in-memory replays, with no stored matches, leagues or tournaments —
 * and says so (still creating nothing).
 */
export async function serveCommand(args: ServeArgs, options: { onListening?: (server: ArenaServer) => void; registry?: Registry } = {}): Promise<number> {
  if (args.port > 65535) throw new UsageError(`--port: expected 0-65535, got ${args.port}`);
  if (args.allowPlay && !options.registry) throw new Error('serveCommand: --allow-play needs a registry');
  const lobbyPlay = options.registry ? lobbyPlayOptions(options.registry, args) : undefined;
  const playOnly = args.db !== ':memory:' && !existsSync(args.db);
  if (playOnly && !lobbyPlay) throw new UsageError(`--db: ${args.db} does not exist (run a league or tournament into it first, give another --db, or add --allow-play for a play-only server)`);
  let store: Store | undefined;
  if (!playOnly) {
    try {
      store = new Store(args.db);
    } catch (e) {
      if (e instanceof StoreError) throw e; // one line naming the file and what to do
      throw new UsageError(`--db: cannot open ${args.db} (${(e as Error).message})`);
    }
  }
  const target = args.redis === undefined ? null : parseRedisUrl(args.redis);
  if (target) await checkRedis(target);
  const bus = new EventBus();
  let server: ArenaServer;
  try {
    server = await startServer({ bus, store, port: args.port, host: args.host, allowOmniscient: !!args.allowOmniscient, leaderboard: store ? leagueLeaderboardProvider(store) : undefined, lobbyPlay });
  } catch (e) {
    store?.close();
    throw listenError(e, args.port);
  }
  let feed: LiveFeed | null = null;
  if (target) {
    feed = new LiveFeed(connectRedis(target, { name: 'arena-serve', log: (line) => process.stderr.write(`${line}\n`) }), bus, { log: (line) => process.stderr.write(`${line}\n`) });
    await feed.start();
  }
  const what = store ? `serving ${args.db} at ${server.url}` : `serving a play-only page at ${server.url} (no database at ${args.db}: the lobby's games, live and replayed from memory until the server stops; no stored matches, leagues or tournaments)`;
  // listening for Ctrl-C before the ready line: a signal sent on seeing it must find the command stoppable
  const stop = stopOnSignals('closing the server');
  process.stdout.write(`arena: ${what}${args.allowOmniscient ? ' (omniscient views allowed)' : ''}${target ? `; live matches from ${target.shown}` : ''}\n${lobbyPlayNote(lobbyPlay)}`);
  options.onListening?.(server);
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  stop.dispose();
  await feed?.stop();
  await server.close();
  bus.complete();
  store?.close();
  return 0;
}
