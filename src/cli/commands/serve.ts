import { existsSync } from 'node:fs';
import { EventBus } from '../../bus/event-bus';
import { leagueLeaderboardProvider } from '../../server/league-leaderboard';
import { startServer, type ArenaServer } from '../../server/start-server';
import { Store } from '../../store/store';
import { listenError, UsageError } from '../options';
import { stopOnSignals } from '../stop-signal';

export interface ServeArgs {
  db: string;
  port: number;
  host: string;
  allowOmniscient?: boolean;
}

/**
 * `arena serve [--db FILE] [--port N] [--host H] [--allow-omniscient]`: serves the web page,
 * its JSON API and the spectator sockets over a store (replays, leaderboards, plots). Matches
 * run by other processes are not live here (only this process's bus is); the demo (`npm start`)
 * runs its league in the same process. Runs until SIGINT/SIGTERM, then closes cleanly. A --db
 * that does not exist is a usage error (nothing is created).
 */
export async function serveCommand(args: ServeArgs, options: { onListening?: (server: ArenaServer) => void } = {}): Promise<number> {
  if (args.port > 65535) throw new UsageError(`--port: expected 0-65535, got ${args.port}`);
  if (args.db !== ':memory:' && !existsSync(args.db)) throw new UsageError(`--db: ${args.db} does not exist (run a league or tournament into it first, or give another --db)`);
  let store: Store;
  try {
    store = new Store(args.db);
  } catch (e) {
    throw new UsageError(`--db: cannot open ${args.db} (${(e as Error).message})`);
  }
  const bus = new EventBus();
  let server: ArenaServer;
  try {
    server = await startServer({ bus, store, port: args.port, host: args.host, allowOmniscient: !!args.allowOmniscient, leaderboard: leagueLeaderboardProvider(store) });
  } catch (e) {
    store.close();
    throw listenError(e, args.port);
  }
  process.stdout.write(`arena: serving ${args.db} at ${server.url}${args.allowOmniscient ? ' (omniscient views allowed)' : ''}\n`);
  options.onListening?.(server);
  const stop = stopOnSignals('closing the server');
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  stop.dispose();
  await server.close();
  bus.complete();
  store.close();
  return 0;
}
