import { EventBus } from '../../bus/event-bus';
import { leagueLeaderboardProvider } from '../../server/league-leaderboard';
import { startServer, type ArenaServer } from '../../server/start-server';
import { Store } from '../../store/store';
import { listenError, UsageError } from '../options';
import { stopOnSignals } from '../stop-signal';
import type { Registry } from '../../core/registry';
import { lobbyPlayNote, lobbyPlayOptions, type LobbyPlayArgs } from '../lobby-play-options';

export interface ServeArgs extends LobbyPlayArgs {
  db: string;
  port: number;
  host: string;
  allowOmniscient?: boolean;
}

/**
 * `arena serve [--db FILE] [--port N] [--host H] [--allow-omniscient] [--allow-play ...]`: serves
 * the web page, its JSON API and the spectator sockets over a store (replays, leaderboards,
 * plots); with `--allow-play` visitors may start games with a human seat from the lobby (they
 * run on this process's bus, in memory: the store does not record them). Matches
 * run by other processes are not live here (only this process's bus is); the demo (`npm start`)
 * runs its league in the same process. Runs until SIGINT/SIGTERM, then closes cleanly.
 */
export async function serveCommand(args: ServeArgs, options: { onListening?: (server: ArenaServer) => void; registry?: Registry } = {}): Promise<number> {
  if (args.port > 65535) throw new UsageError(`--port: expected 0-65535, got ${args.port}`);
  if (args.allowPlay && !options.registry) throw new Error('serveCommand: --allow-play needs a registry');
  const lobbyPlay = options.registry ? lobbyPlayOptions(options.registry, args) : undefined;
  let store: Store;
  try {
    store = new Store(args.db);
  } catch (e) {
    throw new UsageError(`--db: cannot open ${args.db} (${(e as Error).message})`);
  }
  const bus = new EventBus();
  let server: ArenaServer;
  try {
    server = await startServer({ bus, store, port: args.port, host: args.host, allowOmniscient: !!args.allowOmniscient, leaderboard: leagueLeaderboardProvider(store), lobbyPlay });
  } catch (e) {
    store.close();
    throw listenError(e, args.port);
  }
  process.stdout.write(`arena: serving ${args.db} at ${server.url}${args.allowOmniscient ? ' (omniscient views allowed)' : ''}\n${lobbyPlayNote(lobbyPlay)}`);
  options.onListening?.(server);
  const stop = stopOnSignals('closing the server');
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  stop.dispose();
  await server.close();
  bus.complete();
  store.close();
  return 0;
}
