import type { Subscription } from 'rxjs';
import type { EventBus } from '../src/bus/event-bus';
import type { Agent } from '../src/core/agent';
import type { Env, SeatInfo } from '../src/core/env';
import type { MatchEvent } from '../src/core/events';
import type { JsonValue } from '../src/core/json';
import type { Params } from '../src/core/params';
import { Rng, deriveSeed } from '../src/core/rng';
import type { Registry } from '../src/core/registry';
import { parseFaultPolicy } from '../src/match/fault-policy';
import { runMatch } from '../src/match/runner';
import { pacedAgent } from '../src/match/paced-agent';
import type { MatchRecord, PlayerRecord, Store } from '../src/store/store';
import type { LeagueConfig } from './config';
import { RatingBook } from './rating-book';
import { pickSeats } from './seat-picker';
import { LeagueLearners } from './learners';
import { sidesOf } from './sides';
import { forEachPairResult } from './pair-results';
import { HeadToHead } from './matchmaking/head-to-head';

/** How to run (or resume) a league. */
export interface LeagueRunOptions {
  config: LeagueConfig;
  store: Store;
  registry: Registry;
  /** Live events go here (spectators, metrics); the store records each match's events itself. */
  bus?: EventBus;
  /** Stops cleanly after the current match (Ctrl-C). */
  signal?: AbortSignal;
  /** Called after every recorded match. */
  onMatch?: (m: MatchRecord, done: number, total: number) => void;
  /** Play at most this many matches in this call (the budget still bounds the league). */
  maxMatches?: number;
  /** Folder for learners' checkpoints and snapshots (default: next to the database, `<db>.learners/<league>`). */
  workDir?: string;
  /** Training backend for learners (default: the best available). */
  backend?: string;
  /** Progress lines (training backend, snapshots). */
  log?: (line: string) => void;
}

/** What a run did. */
export interface LeagueRunResult {
  /** Matches played by this call. */
  played: number;
  /** Completed matches of the league in total. */
  completed: number;
  budget: number;
  stopped: boolean;
}

/** Loaded league: env, params, players, agents' factories checked. */
interface Prepared {
  env: Env;
  params: Params;
  players: PlayerRecord[];
}

/** Registers the config's players and checks every agent spec can be created and rated. */
async function prepare(o: LeagueRunOptions): Promise<Prepared> {
  const { config, store, registry } = o;
  const env = await registry.resolveEnv(config.env);
  const params = env.resolveParams(config.params);
  // Run-control fields (budget, pace) may change between runs; everything else defines the league.
  const { budget: _budget, paceMs: _pace, ...identity } = config;
  store.ensureLeague(config.name, identity as unknown as JsonValue);
  const allRoles = [...new Set(env.meta.roles.map((r) => r.name))];
  for (const p of config.players) {
    for (const r of p.roles ?? []) {
      if (!allRoles.includes(r)) throw new Error(`league config: player "${p.id}": role "${r}" is not a role of ${env.meta.id} (${allRoles.join(', ')})`);
    }
    let factory;
    try {
      factory = (await registry.createAgent(p.agent, { env, params, seed: 0 })).factory;
    } catch (e) {
      throw new Error(`league config: player "${p.id}": ${(e as Error).message}`);
    }
    if (factory.rated === false) {
      throw new Error(`league config: player "${p.id}": agent "${factory.name}" is evaluation-only (omniscient) and cannot play rated league matches`);
    }
    store.addPlayer(config.name, {
      id: p.id,
      kind: p.kind,
      agent: p.agent,
      version: 0,
      roles: p.roles ?? allRoles,
      parent: null,
      checkpoint: p.checkpoint ?? null,
      createdAt: 0,
    });
  }
  return { env, params, players: store.players(config.name) };
}

/**
 * Runs a league until its match budget is spent, recording every match (with its events and
 * rating updates, atomically) in the store. Restarting with the same config and database
 * resumes where it stopped: match k's seed and pairing depend only on the league seed, k and
 * the ratings after match k-1, so a league of scripted and frozen players ends with exactly the
 * ratings of an uninterrupted run.
 */
export async function runLeague(o: LeagueRunOptions): Promise<LeagueRunResult> {
  const { config, store, registry } = o;
  const { env, params, players } = await prepare(o);
  const learners = await LeagueLearners.create({
    config,
    env,
    params,
    registry,
    store,
    workDir: o.workDir ?? `${store.db.name}.learners/${config.name}`,
    bus: o.bus,
    backend: o.backend,
    log: o.log,
  });
  const learnerTypes = new Map(config.learners.map((l) => [l.id, l.type]));
  for (const p of learners.players()) {
    store.addPlayer(config.name, p);
    if (!players.some((x) => x.id === p.id)) players.push(p);
  }
  const book = new RatingBook(config.ratings, store.ratings(config.name));
  const h2h = new HeadToHead();
  for (const m of store.matches(config.name)) forEachPairResult(m, (a, b, score) => h2h.record(a.player, b.player, score));
  const faultPolicy = parseFaultPolicy(config.faults);
  const budget = config.budget.matches;
  let completed = store.matchCount(config.name);
  let played = 0;
  let stopped = false;
  try {
    while (completed < budget && (o.maxMatches === undefined || played < o.maxMatches)) {
      if (o.signal?.aborted) {
        stopped = true;
        break;
      }
      const idx = completed;
      const seed = deriveSeed(config.seed, 'match', idx);
      const seats: readonly SeatInfo[] = env.seats(env.init(params, seed));
      const chosen = pickSeats({
        matchmaking: config.matchmaking,
        seats,
        players,
        book,
        h2h,
        rng: Rng.fromSeed(deriveSeed(config.seed, 'pairing', idx)),
        learnerTypes,
      });
      const agents: Agent[] = [];
      for (let seat = 0; seat < seats.length; seat++) {
        const player = chosen[seat];
        const agentSeed = deriveSeed(seed, 'agent', seat);
        const agent = learners.agentFor(player.id, agentSeed) ?? (await registry.createAgent(player.agent, { env, params, seed: agentSeed })).agent;
        agents.push(pacedAgent(agent, config.paceMs));
      }
      const matchId = `${config.name}:${idx}`;
      const events: MatchEvent[] = [];
      let sub: Subscription | undefined;
      if (o.bus) sub = o.bus.match(matchId).subscribe((e) => events.push(e));
      const startedAt = Date.now();
      const result = await runMatch({ env, params, seed, agents, matchId, bus: o.bus, deadlineMs: config.deadlineMs, faultPolicy, signal: o.signal });
      sub?.unsubscribe();
      if (result.code === 'aborted') {
        stopped = true;
        break;
      }
      const seatRecords = seats.map((s, i) => ({ player: chosen[i].id, role: s.role, team: s.team }));
      const update = book.record(idx, matchId, env.meta.id, sidesOf(seats, result.returns), chosen.map((p) => p.id));
      const record: MatchRecord = {
        league: config.name,
        idx,
        id: matchId,
        env: env.meta.id,
        params: params as JsonValue,
        seed,
        seats: seatRecords,
        returns: result.returns,
        outcome: result.outcome,
        code: result.code,
        length: result.length,
        faults: result.faults,
        summary: result.summary,
        startedAt,
        endedAt: Date.now(),
        ...(result.reports ? { reports: result.reports } : {}),
      };
      store.recordMatch(record, events, update.ratings, update.history);
      forEachPairResult(record, (a, b, score) => h2h.record(a.player, b.player, score));
      completed++;
      played++;
      if (o.bus?.active) {
        o.bus.publish({
          type: 'rating.updated',
          matchId: config.name,
          seq: idx,
          time: Date.now(),
          visibility: 'public',
          data: { match: matchId, ratings: update.ratings.map((r) => ({ system: r.system, player: r.player, role: r.role, value: r.value })) },
        });
      }
      o.onMatch?.(record, completed, budget);
      for (const snap of await learners.afterMatch(idx + 1, h2h)) {
        players.push(snap);
        o.log?.(`league ${config.name}: snapshot ${snap.id} joined (parent ${snap.parent})`);
      }
    }
  } finally {
    learners.dispose();
  }
  return { played, completed, budget, stopped };
}
