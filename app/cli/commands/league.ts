import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EventBus } from '../../../src/bus/event-bus';
import type { Registry } from '../../../src/core/registry';
import { Store } from '../../../src/store/store';
import { parseLeagueConfig, type LeagueConfig } from '../../../league/config';
import { leaderboard, type LeaderboardRow } from '../../../league/leaderboard';
import { runLeague } from '../../../league/league-run';
import { leagueUsage } from '../../../league/agent-usage';
import { formatUsage, snapshotOf, usageJson } from '../../../src/match/usage';
import type { AgentReport } from '../../../src/core/agent';
import { oneLine, parseJsonOption, UsageError, writeOutput } from '../options';
import { createProgress } from '../progress';
import { stopOnSignals } from '../stop-signal';
import { nameSeatSpec, needsPlayServer, startPlayServer } from '../play-server';
import type { ArenaServer } from '../../server/start-server';
import { workerPlayArgs, type SchedulerRedisArgs } from '../redis-options';
import { jsonText } from '../json-output';

function loadConfig(file: string): LeagueConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--config: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--config: ${file} is not valid JSON (${oneLine((e as Error).message, 160)})`);
  }
  return parseLeagueConfig(raw);
}

/** The league named by --league, or the only/most recent one in the database. */
function pickLeague(store: Store, name?: string): string {
  const leagues = store.leagues();
  if (name) {
    if (!leagues.some((l) => l.id === name)) throw new UsageError(`--league: no league "${name}" in this database (have: ${leagues.map((l) => l.id).join(', ') || 'none'})`);
    return name;
  }
  if (!leagues.length) throw new UsageError('this database holds no league yet; run `arena league run --config FILE` first');
  return leagues[leagues.length - 1].id;
}

export interface LeagueRunArgs extends SchedulerRedisArgs {
  config: string;
  db: string;
  quiet?: boolean;
  backend?: string;
  /** Server for remote and human players (started only when the config has some). */
  port?: number;
  host?: string;
  tokens?: string;
}

/**
 * `arena league run --config FILE [--db FILE] [--redis URL]`: runs or resumes a league; Ctrl-C
 * stops cleanly after the current match. With --redis this process is the league's scheduler and
 * `arena worker` processes play its matches (the same outcome as a run without --redis).
 */
export async function leagueRunCommand(registry: Registry, args: LeagueRunArgs): Promise<number> {
  const config = loadConfig(args.config);
  if (args.redis !== undefined && config.window === undefined) {
    throw new UsageError(`--redis: league config ${args.config} has no "window"; matches k ... k+W-1 are played at once by the workers, so add "window": W (e.g. twice the workers' total concurrency; 1 plays one match at a time)`);
  }
  const workers = await workerPlayArgs(args);
  // Remote and human players get one named seat slot each (their player id), whose token opens every match they play.
  config.players = config.players.map((p) => ({ ...p, agent: nameSeatSpec(p.agent, p.id) }));
  const created = args.db !== ':memory:' && !existsSync(args.db);
  const store = new Store(args.db);
  const bus = new EventBus();
  let server: ArenaServer | null = null;
  let failed = true;
  if (needsPlayServer(config.players.map((p) => p.agent))) {
    try {
      server = await startPlayServer(registry, bus, { port: args.port ?? 0, host: args.host ?? '127.0.0.1', tokens: args.tokens }, store);
    } catch (e) {
      store.close();
      throw e;
    }
    process.stderr.write(`arena: remote and human players connect to ${server.url}\n`);
  }
  const stop = stopOnSignals('stopping after the current match');
  const done0 = store.matchCount(config.name);
  const progress = createProgress(`league ${config.name}`, config.budget.matches - done0, { quiet: args.quiet, everyMs: 5000 });
  try {
    const options = {
      config,
      store,
      registry,
      bus,
      signal: stop.signal,
      backend: args.backend,
      configDir: dirname(resolve(args.config)),
      log: (line: string) => process.stderr.write(`${line}\n`),
      onMatch: (m: { outcome: string }) => progress.tick(1, `${m.outcome}`),
    };
    if (workers) process.stderr.write(`arena: league "${config.name}" schedules its matches on the workers of ${workers.redis.shown} (start them with \`arena worker --redis ${args.redis}\`)\n`);
    const r = await runLeague({ ...options, ...(workers ? { workers } : {}) });
    progress.stop();
    process.stderr.write(`league "${config.name}": ${r.completed}/${r.budget} matches (${r.played} this run)${r.stopped ? ', stopped' : ''}\n`);
    failed = false;
  } finally {
    stop.dispose();
    await server?.close();
    const empty = failed && created && store.matchCount(config.name) === 0;
    store.close();
    // a run that failed before recording anything leaves no empty database behind
    if (empty) for (const f of [args.db, `${args.db}-wal`, `${args.db}-shm`]) rmSync(f, { force: true });
  }
  return 0;
}

function formatTable(rows: LeaderboardRow[]): string {
  const out: string[] = [];
  for (const role of [...new Set(rows.map((r) => r.role))]) {
    out.push(`role ${role}`);
    out.push('  rank  player                      BT [95% CI]              Elo     OpenSkill  games');
    for (const r of rows.filter((x) => x.role === role)) {
      const ci = `${r.bt.toFixed(0)} [${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}]`;
      out.push(
        `  ${(r.tied ? '=' : ' ') + String(r.rank).padEnd(4)} ${r.player.padEnd(27)} ${ci.padEnd(24)} ${r.elo.toFixed(0).padStart(5)} ${r.openskill.toFixed(2).padStart(10)}  ${r.games}`,
      );
    }
  }
  return out.join('\n');
}

/** `arena league table`: ratings with intervals; tied ranks (overlapping intervals) are marked "=". */
export function leagueTableCommand(args: { db: string; league?: string; json?: boolean; resamples?: number }): number {
  const store = new Store(args.db, { readonly: true });
  try {
    const league = pickLeague(store, args.league);
    const rows = leaderboard(store, league, { resamples: args.resamples });
    const usage = leagueUsage(store, league);
    const usageText = usage.size ? `\nusage (reported by agents)\n${formatUsage(usage).map((l) => `  ${l}`).join('\n')}` : '';
    process.stdout.write((args.json ? jsonText({ league, rows, ...(usage.size ? { usage: usageJson(usage) } : {}) }, 2) : `league ${league}\n${formatTable(rows)}${usageText}`) + '\n');
  } finally {
    store.close();
  }
  return 0;
}

/** `arena league matches`: the newest matches with players, returns and outcome codes. */
export function leagueMatchesCommand(args: { db: string; league?: string; limit: number; json?: boolean }): number {
  const store = new Store(args.db, { readonly: true });
  try {
    const league = pickLeague(store, args.league);
    const matches = store.matches(league, { limit: args.limit, newestFirst: true });
    for (const m of matches) {
      if (args.json) process.stdout.write(jsonText(m) + '\n');
      else {
        const snap = (i: number) => snapshotOf(m.reports?.[i] as AgentReport | null | undefined);
        const who = m.seats.map((s, i) => `${s.player}(${s.role})${snap(i) ? ` [${snap(i)}]` : ''}`).join(' vs ');
        process.stdout.write(`#${m.idx} ${who}: ${m.outcome} [${m.code}] returns ${jsonText(m.returns)}${m.faults.length ? ` faults ${m.faults.length}` : ''}\n`);
      }
    }
  } finally {
    store.close();
  }
  return 0;
}

/** `arena league export`: every match and its events as JSONL ({"match": ...} then {"event": ...} lines). */
export function leagueExportCommand(args: { db: string; league?: string; out?: string }): number {
  const store = new Store(args.db, { readonly: true });
  try {
    const league = pickLeague(store, args.league);
    const lines: string[] = [];
    for (const m of store.matches(league)) {
      lines.push(JSON.stringify({ match: m }));
      for (const e of store.events(m.id)) lines.push(JSON.stringify({ event: e }));
    }
    const text = lines.join('\n') + (lines.length ? '\n' : '');
    writeOutput(args.out, text);
  } finally {
    store.close();
  }
  return 0;
}
