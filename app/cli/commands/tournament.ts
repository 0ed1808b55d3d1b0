import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EventBus } from '../../../src/bus/event-bus';
import type { Registry } from '../../../src/core/registry';
import { leagueLeaderboardProvider } from '../../server/league-leaderboard';
import { startServer, type ArenaServer } from '../../server/start-server';
import { Store } from '../../../src/store/store';
import { parseTournamentConfig, type TournamentConfig } from '../../../league/tournament/config';
import { plannedGames, reportJson, tournamentReport } from '../../../league/tournament/report';
import { listTournaments, storedTournamentReport } from '../../../league/tournament/stored';
import { runTournament, type TournamentRunOptions, type TournamentRunResult } from '../../../league/tournament/tournament-run';
import { parseJsonOption, UsageError } from '../options';
import { createProgress } from '../progress';
import { stopOnSignals } from '../stop-signal';
import { workerPlayArgs, type SchedulerRedisArgs } from '../redis-options';
import { formatTournament } from '../tournament-format';
import { DEFAULT_DB } from '../defaults';
import { jsonText } from '../json-output';

function loadConfig(file: string): TournamentConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--config: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parseTournamentConfig(parseJsonOption('--config', text));
}

/** Where the page is served while a tournament runs (its games are live there). */
export interface LiveServeArgs {
  port?: number;
  host?: string;
}

/**
 * Runs a tournament on `store` with Ctrl-C handling (the first stops before the next game, a
 * second exits at once), on workers with `--redis`, and — with `args.port` — the web page and
 * spectator sockets in this process, so its games can be watched live. The page is started once
 * the tournament is checked, so a bad env or agent fails before any "watch live at" line. Used by
 * `arena tournament run` and `arena sprt`.
 */
export async function runTournamentCommand(
  registry: Registry,
  config: TournamentConfig,
  store: Store,
  args: LiveServeArgs & SchedulerRedisArgs & { quiet?: boolean; configDir?: string },
  hooks: Pick<TournamentRunOptions, 'onGame' | 'onRound'> = {},
): Promise<TournamentRunResult> {
  if (args.port !== undefined && args.port > 65535) throw new UsageError(`--port: expected 0-65535, got ${args.port}`);
  const workers = await workerPlayArgs(args);
  const bus = new EventBus();
  let server: ArenaServer | undefined;
  const serve = async () => {
    if (args.port === undefined) return;
    try {
      server = await startServer({ bus, store, port: args.port, host: args.host ?? '127.0.0.1', leaderboard: leagueLeaderboardProvider(store, { resamples: 200 }) });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`--port: ${args.port} is already in use; pick another with --port`);
      throw e;
    }
    process.stderr.write(`watch live at ${server.url}#/tournament?name=${encodeURIComponent(config.name)}\n`);
  };
  const stop = stopOnSignals('stopping after the current game');
  try {
    if (workers) process.stderr.write(`arena: tournament "${config.name}" schedules its games on the workers of ${workers.redis.shown} (start them with \`arena worker --redis ${args.redis}\`)\n`);
    return await runTournament({
      config,
      store,
      registry,
      bus,
      signal: stop.signal,
      configDir: args.configDir,
      onOpen: serve,
      log: (line) => process.stderr.write(`${line}\n`),
      ...(workers ? { workers } : {}),
      ...hooks,
    });
  } finally {
    stop.dispose();
    await server?.close();
  }
}

export interface TournamentRunArgs extends LiveServeArgs, SchedulerRedisArgs {
  config: string;
  db: string;
  quiet?: boolean;
  json?: boolean;
}

/** `arena tournament run --config FILE [--db FILE]`: runs or resumes a tournament, then prints its tables. */
export async function tournamentRunCommand(registry: Registry, args: TournamentRunArgs): Promise<number> {
  const config = loadConfig(args.config);
  const store = new Store(args.db);
  try {
    const done0 = store.matchCount(config.name);
    if (done0 > 0) process.stderr.write(`resuming tournament "${config.name}" at game ${done0}\n`);
    const progress = createProgress(`tournament ${config.name}`, plannedGames(config) - done0, { quiet: args.quiet, everyMs: 5000 });
    const r = await runTournamentCommand(registry, config, store, { ...args, configDir: dirname(resolve(args.config)) }, {
      onRound: (rd) => {
        if (!args.quiet) process.stderr.write(`round ${rd.round + 1}: ${rd.pairings.map(([a, b]) => `${a}-${b}`).join(', ')}${rd.bye ? `; bye ${rd.bye}` : ''}\n`);
      },
      onGame: (g) => {
        progress.tick(1, `${g.slot.a} vs ${g.slot.b}`);
      },
    });
    progress.stop();
    process.stderr.write(`tournament "${config.name}": ${r.completed} games (${r.played} this run)${r.finished ? ', finished' : r.stopped ? ', stopped (rerun to resume)' : ''}\n`);
    const report = tournamentReport(config, store.matches(config.name), store.rounds(config.name));
    process.stdout.write((args.json ? jsonText(reportJson(report), 2) : formatTournament(report)) + '\n');
  } finally {
    store.close();
  }
  return 0;
}

/** `arena tournament show [--tournament NAME]`: the tables of a stored tournament (default: the latest). */
export function tournamentShowCommand(args: { db: string; tournament?: string; json?: boolean }): number {
  const store = new Store(args.db, { readonly: true });
  try {
    const all = listTournaments(store);
    const name = args.tournament ?? all[all.length - 1]?.id;
    if (!name) throw new UsageError('this database holds no tournament yet; run `arena tournament run --config FILE` first');
    const report = storedTournamentReport(store, name);
    if (!report) throw new UsageError(`--tournament: no tournament "${name}" in this database (have: ${all.map((t) => t.id).join(', ') || 'none'})`);
    process.stdout.write((args.json ? jsonText(reportJson(report), 2) : formatTournament(report)) + '\n');
  } finally {
    store.close();
  }
  return 0;
}

/** `arena tournament list`: the tournaments in a database. */
export function tournamentListCommand(args: { db: string; json?: boolean }): number {
  const store = new Store(args.db, { readonly: true });
  try {
    const all = listTournaments(store);
    if (args.json) process.stdout.write(jsonText(all) + '\n');
    else for (const t of all) process.stdout.write(`${t.id}  ${t.format}  ${t.env ?? '?'}  ${t.games} games\n`);
  } finally {
    store.close();
  }
  return 0;
}
