import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventBus } from '../../../src/bus/event-bus';
import type { Registry } from '../../../src/core/registry';
import { Store } from '../../../src/store/store';
import { startServer } from '../../server/start-server';
import { leagueLeaderboardProvider } from '../../server/league-leaderboard';
import { parseLeagueConfig, type LeagueConfig } from '../../../league/config';
import { runLeague } from '../../../league/league-run';
import { stopOnSignals } from '../stop-signal';
import { listenError } from '../options';
import { lobbyPlayNote, lobbyPlayOptions, type LobbyPlayArgs } from '../lobby-play-options';

/** The demo's league configs, in examples/leagues/ (one per env). */
export const DEMO_LEAGUES = ['countdown', 'deal-or-no-deal', 'werewolf'] as const;

/**
 * How many times `--pace` each demo env takes per decision, so that one game lasts long enough
 * to watch (about 10 s at the default 300 ms). Measured with the demo's baselines (30 games
 * each): Countdown games take 5 decisions (median; 5-13), Deal-or-No-Deal 3 (2-10), Werewolf
 * 40 (21-110). test/cli/demo-pace.test.ts replays that measurement.
 */
export const DEMO_PACE_FACTOR: Readonly<Record<(typeof DEMO_LEAGUES)[number], number>> = { countdown: 6, 'deal-or-no-deal': 10, werewolf: 1 };

export interface DemoArgs extends LobbyPlayArgs {
  port: number;
  db: string;
  pace: number;
  learners: boolean;
  host: string;
}

/** The demo league configs: played slowly enough to watch (`pace` × the env's {@link DEMO_PACE_FACTOR}), and without end. */
export function demoConfigs(root: string, args: Pick<DemoArgs, 'pace' | 'learners'>): LeagueConfig[] {
  return DEMO_LEAGUES.map((name) => {
    const raw = JSON.parse(readFileSync(join(root, 'examples', 'leagues', `${name}.json`), 'utf8')) as Record<string, unknown>;
    return parseLeagueConfig({
      ...raw,
      name: `demo-${name}`,
      paceMs: args.pace * DEMO_PACE_FACTOR[name],
      budget: { matches: 1_000_000_000 },
      ...(args.learners ? {} : { learners: [] }),
    });
  });
}

/**
 * `arena demo` (what `npm start` runs): the Countdown, Deal-or-No-Deal and Werewolf demo
 * leagues with baselines and learners on the embedded SQLite store, and the spectator server.
 * Prints the URL at once; games keep coming until Ctrl-C (rerun to resume the same leagues).
 * With `--allow-play` visitors may also play from the lobby (capped; see lobby-play-options.ts).
 */
export async function demoCommand(registry: Registry, root: string, args: DemoArgs): Promise<number> {
  const lobbyPlay = lobbyPlayOptions(registry, args);
  const store = new Store(args.db);
  const bus = new EventBus();
  let server;
  try {
    server = await startServer({ bus, store, port: args.port, host: args.host, leaderboard: leagueLeaderboardProvider(store, { resamples: 200 }), lobbyPlay });
  } catch (e) {
    store.close();
    throw listenError(e, args.port);
  }
  // listening for Ctrl-C before the ready line: a signal sent on seeing it must find the command stoppable
  const stop = stopOnSignals('stopping after the current matches');
  process.stdout.write(`selfplay-arena demo: watch live at ${server.url}\n`);
  process.stdout.write(`  leagues ${DEMO_LEAGUES.map((l) => `demo-${l}`).join(', ')} on ${args.db}; Ctrl-C to stop (rerun to resume)\n${lobbyPlayNote(lobbyPlay)}`);
  let matches = 0;
  const timer = setInterval(() => process.stderr.write(`demo: ${matches} matches played\n`), 30_000);
  try {
    await Promise.all(
      demoConfigs(root, args).map((config) =>
        runLeague({ config, store, registry, bus, signal: stop.signal, log: (l) => process.stderr.write(`${l}\n`), onMatch: () => matches++ }).catch((e: Error) => {
          process.stderr.write(`demo league ${config.name} stopped: ${e.message}\n`);
        }),
      ),
    );
  } finally {
    clearInterval(timer);
    stop.dispose();
    await server.close();
    store.close();
  }
  return 0;
}
