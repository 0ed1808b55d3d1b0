import type { EventBus } from '../../src/bus/event-bus';
import type { Agent } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { deriveSeed } from '../../src/core/rng';
import type { Registry } from '../../src/core/registry';
import { parseFaultPolicy, type FaultPolicy } from '../../src/match/fault-policy';
import { pacedAgent } from '../../src/match/paced-agent';
import type { MatchOptions } from '../../src/match/runner';
import type { MatchRecord, Store } from '../../src/store/store';
import { RatingBook } from '../rating-book';
import { playRecordedMatch } from '../recorded-match';
import { TournamentConfigError, type TournamentConfig } from './config';
import { gameOutcome, tournamentSides, type GameOutcome } from './game-outcome';
import { plannedGames, tournamentOutcomes } from './report';
import { nextBatch, type GameSlot, type RoundRecord } from './schedule';

/** How to run (or resume) a tournament. */
export interface TournamentRunOptions {
  config: TournamentConfig;
  store: Store;
  registry: Registry;
  /** Live events go here (spectators); the store records each game's events itself. */
  bus?: EventBus;
  /** Stops cleanly after the current game (Ctrl-C). */
  signal?: AbortSignal;
  /** Called after every recorded game with its slot, outcome and the games done so far. */
  onGame?: (game: { record: MatchRecord; slot: GameSlot; outcome: GameOutcome; done: number; total: number }) => void;
  /** Called when a Swiss round has been paired and stored. */
  onRound?: (round: RoundRecord) => void;
  /** Play at most this many games in this call. */
  maxGames?: number;
}

/** What a run did. */
export interface TournamentRunResult {
  /** Games played by this call. */
  played: number;
  /** Games of the tournament stored in total. */
  completed: number;
  finished: boolean;
  stopped: boolean;
}

/** Env, params and fault policy of a prepared tournament. */
export interface PreparedTournament {
  env: Env;
  params: Params;
  faultPolicy: FaultPolicy;
}

/**
 * The one place where a tournament game's runMatch options are built (effect handlers and other
 * runner options are added here).
 */
export function tournamentMatchOptions(
  p: PreparedTournament,
  config: TournamentConfig,
  game: { seed: number; agents: readonly Agent[]; matchId: string },
  o: Pick<TournamentRunOptions, 'bus' | 'signal' | 'registry'>,
): MatchOptions & { matchId: string } {
  return { env: p.env, params: p.params, seed: game.seed, agents: game.agents, matchId: game.matchId, bus: o.bus, deadlineMs: config.deadlineMs, faultPolicy: p.faultPolicy, signal: o.signal, effects: o.registry.effects() };
}

/** Resolves the env, checks it has two sides and every agent can be created and rated; registers the tournament. */
async function prepare(o: TournamentRunOptions): Promise<PreparedTournament> {
  const { config, store, registry } = o;
  const env = await registry.resolveEnv(config.env);
  const params = env.resolveParams(config.params);
  let faultPolicy: FaultPolicy;
  try {
    faultPolicy = parseFaultPolicy(config.faults);
  } catch (e) {
    throw new TournamentConfigError(`tournament config: faults: ${(e as Error).message}`);
  }
  try {
    tournamentSides(env.seats(env.init(params, config.seed)));
  } catch (e) {
    throw new TournamentConfigError(`tournament config: env: ${env.meta.id}: ${(e as Error).message}`);
  }
  const roles = [...new Set(env.meta.roles.map((r) => r.name))];
  for (const p of config.players) {
    let factory;
    try {
      factory = (await registry.createAgent(p.agent, { env, params, seed: 0 })).factory;
    } catch (e) {
      throw new TournamentConfigError(`tournament config: player "${p.id}": ${(e as Error).message}`);
    }
    if (factory.rated === false) {
      throw new TournamentConfigError(`tournament config: player "${p.id}": agent "${factory.name}" is evaluation-only (omniscient) and cannot play rated games`);
    }
  }
  // Checked before anything is stored: a bad config leaves no trace in the database.
  // The pace may change between runs; everything else defines the tournament.
  const { paceMs: _pace, ...identity } = config;
  store.ensureTournament(config.name, config.format, identity as unknown as JsonValue);
  for (const p of config.players) {
    store.addPlayer(config.name, { id: p.id, kind: 'baseline', agent: p.agent, version: 0, roles, parent: null, checkpoint: null, createdAt: 0 });
  }
  return { env, params, faultPolicy };
}

/**
 * Runs a tournament to its end (or until stopped), recording every game — the match, its event
 * log and its Elo/OpenSkill updates — in one transaction, and every Swiss round's pairings before
 * its first game. Rerunning with the same config and database resumes: the schedule, Swiss
 * pairings, seeds and seats are functions of the config and the stored results (schedule.ts),
 * so a run killed at any point ends exactly as an uninterrupted one.
 */
export async function runTournament(o: TournamentRunOptions): Promise<TournamentRunResult> {
  const { config, store, registry } = o;
  const prepared = await prepare(o);
  const { env, params } = prepared;
  const agentOf = new Map(config.players.map((p) => [p.id, p.agent]));
  const rounds: RoundRecord[] = store.rounds(config.name);
  const matches = store.matches(config.name);
  const outcomes: GameOutcome[] = tournamentOutcomes(config, matches, rounds).outcomes;
  const book = new RatingBook({ eloK: config.ratings.eloK, eloInitial: config.ratings.eloInitial }, store.ratings(config.name));
  const total = plannedGames(config);
  let played = 0;
  let stopped = false;
  for (;;) {
    const batch = nextBatch(config, { outcomes, rounds });
    if (!batch) break;
    if (batch.round) {
      store.recordRound(config.name, batch.round);
      rounds.push(batch.round);
      o.onRound?.(batch.round);
    }
    for (const slot of batch.slots) {
      if (o.signal?.aborted || (o.maxGames !== undefined && played >= o.maxGames)) {
        stopped = true;
        break;
      }
      const seats = env.seats(env.init(params, slot.seed));
      const sides = tournamentSides(seats);
      const holder = slot.swapped ? [slot.b, slot.a] : [slot.a, slot.b];
      const bySeat: string[] = [];
      sides.forEach((side, i) => side.seats.forEach((seat) => (bySeat[seat] = holder[i])));
      const agents: Agent[] = [];
      for (let seat = 0; seat < seats.length; seat++) {
        const { agent } = await registry.createAgent(agentOf.get(bySeat[seat])!, { env, params, seed: deriveSeed(slot.seed, 'agent', seat) });
        agents.push(pacedAgent(agent, config.paceMs));
      }
      const matchId = `${config.name}:${slot.idx}`;
      const done = await playRecordedMatch({
        league: config.name,
        idx: slot.idx,
        match: tournamentMatchOptions(prepared, config, { seed: slot.seed, agents, matchId }, o),
        seats,
        players: bySeat,
        store,
        book,
      });
      if (!done) {
        stopped = true;
        break;
      }
      const { record } = done;
      const outcome = gameOutcome(record, slot.a, slot.b);
      outcomes.push(outcome);
      played++;
      o.onGame?.({ record, slot, outcome, done: outcomes.length, total });
    }
    if (stopped) break;
  }
  const finished = !stopped && nextBatch(config, { outcomes, rounds }) === null;
  return { played, completed: outcomes.length, finished, stopped };
}
