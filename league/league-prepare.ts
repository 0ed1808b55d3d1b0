import type { Env, SeatInfo } from '../src/core/env';
import type { JsonValue } from '../src/core/json';
import type { Params } from '../src/core/params';
import { Rng, deriveSeed } from '../src/core/rng';
import type { Registry } from '../src/core/registry';
import type { PlayerRecord, Store } from '../src/store/store';
import { LeagueConfigError, type LeagueConfig, type LearnerSpec } from './config';
import type { EventBus } from '../src/bus/event-bus';
import { LeagueLearners } from './learners';
import { HeadToHead } from './matchmaking/head-to-head';
import { forEachPairResult } from './pair-results';
import { RatingBook } from './rating-book';
import { pickSeats } from './seat-picker';
import { ratedAgentFactory } from './engine/rated-agent';
import { resolveModuleRef, withResolvedModuleRefs } from './module-paths';

/** What opening a league needs (the run options of league-run.ts without the run's own controls). */
export interface LeagueOpenOptions {
  config: LeagueConfig;
  store: Store;
  registry: Registry;
  /** Live events go here (spectators, metrics); the store records each match's events itself. */
  bus?: EventBus;
  /** Folder for learners' checkpoints and snapshots (default: next to the database, `<db>.learners/<league>`). */
  workDir?: string;
  /** Training backend for learners (default: the best available). */
  backend?: string;
  /** Progress lines (training backend, snapshots, resume position). */
  log?: (line: string) => void;
  /**
   * The folder module paths in the config (env, player agents) are relative to: the config
   * file's (`arena league run` passes it). The league and its players are stored with the paths
   * as written; plans carry them relative to the working directory (module-paths.ts). Default:
   * the working directory.
   */
  configDir?: string;
}

/** A loaded league: env, params and its players (in the order they joined), agent factories checked. */
export interface PreparedLeague {
  env: Env;
  params: Params;
  players: PlayerRecord[];
}

/**
 * Registers the config's players (and the league itself) in the store and checks that every
 * agent spec can be created and rated; throws a LeagueConfigError naming the player otherwise.
 */
export async function prepareLeague(o: { config: LeagueConfig; store: Store; registry: Registry; configDir?: string }): Promise<PreparedLeague> {
  const { config, store, registry } = o;
  const env = await registry.resolveEnv(resolveModuleRef(config.env, o.configDir));
  const params = env.resolveParams(config.params);
  // Run-control fields (budget, pace) may change between runs; everything else defines the league.
  const { budget: _budget, paceMs: _pace, ...identity } = config;
  store.ensureLeague(config.name, identity as unknown as JsonValue);
  const allRoles = [...new Set(env.meta.roles.map((r) => r.name))];
  for (const p of config.players) {
    for (const r of p.roles ?? []) {
      if (!allRoles.includes(r)) throw new LeagueConfigError(`league config: player "${p.id}": role "${r}" is not a role of ${env.meta.id} (${allRoles.join(', ')})`);
    }
    let factory;
    try {
      factory = await ratedAgentFactory(registry, resolveModuleRef(p.agent, o.configDir), env, params, 'rated league matches');
    } catch (e) {
      throw new LeagueConfigError(`league config: player "${p.id}": ${(e as Error).message}`);
    }
    store.addPlayer(config.name, {
      id: p.id,
      kind: p.kind,
      agent: p.agent,
      version: 0,
      // the config's roles, else those the agent kind declares it can play, else every role
      roles: p.roles ?? (factory.roles?.length ? factory.roles.filter((r) => allRoles.includes(r)) : allRoles),
      parent: null,
      checkpoint: p.checkpoint ?? null,
      createdAt: 0,
    });
  }
  return { env, params, players: store.players(config.name) };
}

/** The league's state a pairing reads: its players so far, ratings and head-to-head results. */
export interface PairingState {
  config: LeagueConfig;
  prepared: PreparedLeague;
  book: RatingBook;
  h2h: HeadToHead;
  learnerTypes: ReadonlyMap<string, LearnerSpec['type']>;
}

/**
 * Match `idx` of a league: its seed and seats (`env.seats(env.init(params, seed))`) and the
 * players in them, paired from the league seed, `idx` and the state given (see pickSeats).
 */
export function pairMatch(s: PairingState, idx: number): { seed: number; seats: readonly SeatInfo[]; chosen: PlayerRecord[] } {
  const { env, params, players } = s.prepared;
  const seed = deriveSeed(s.config.seed, 'match', idx);
  const seats: readonly SeatInfo[] = env.seats(env.init(params, seed));
  const chosen = pickSeats({
    matchmaking: s.config.matchmaking,
    seats,
    players,
    book: s.book,
    h2h: s.h2h,
    rng: Rng.fromSeed(deriveSeed(s.config.seed, 'pairing', idx)),
    learnerTypes: s.learnerTypes,
  });
  return { seed, seats, chosen };
}

/** The league's online ratings and head-to-head results, rebuilt from the store (a resume continues from them). */
export function ratingState(config: LeagueConfig, store: Store): { book: RatingBook; h2h: HeadToHead } {
  const book = new RatingBook(config.ratings, store.ratings(config.name));
  const h2h = new HeadToHead();
  for (const m of store.matches(config.name)) forEachPairResult(m, (a, b, score) => h2h.record(a.player, b.player, score));
  return { book, h2h };
}

/**
 * Everything a league run starts from, for the classic and the planned runner alike: players
 * registered ({@link prepareLeague}), learners created (their players join the store, and the
 * players are re-read in the order they joined, as an uninterrupted run holds them: pairings
 * depend on it), the resume position logged, ratings and head-to-head results rebuilt.
 */
export async function openLeague(o: LeagueOpenOptions): Promise<{ prepared: PreparedLeague; learners: LeagueLearners; book: RatingBook; h2h: HeadToHead }> {
  const { config, store } = o;
  const prepared = await prepareLeague(o);
  const learners = await LeagueLearners.create({
    config: withResolvedModuleRefs(config, o.configDir),
    env: prepared.env,
    params: prepared.params,
    registry: o.registry,
    store,
    workDir: o.workDir ?? `${store.db.name}.learners/${config.name}`,
    bus: o.bus,
    backend: o.backend,
    log: o.log,
  });
  for (const p of learners.players()) store.addPlayer(config.name, p);
  prepared.players = store.players(config.name);
  const done = store.matchCount(config.name);
  if (done > 0) o.log?.(`resuming league "${config.name}" at match ${done}/${config.budget.matches}`);
  return { prepared, learners, ...ratingState(config, store) };
}
