/**
 * A tournament as a schedule (league/engine/): its games are the slots of schedule.ts (round
 * robin, gauntlet, Swiss rounds, SPRT pairs) turned into plans, folded in index order into the
 * store, the Elo/OpenSkill book and the outcomes the next Swiss round or the SPRT's decision
 * reads. Slots are pure functions of the config and the stored rounds and outcomes, so plans are
 * never stored: a resumed tournament makes the same ones again.
 */
import type { EventBus } from '../../src/bus/event-bus';
import type { Env } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import type { Registry } from '../../src/core/registry';
import { parseFaultPolicy } from '../../src/match/fault-policy';
import type { MatchRecord, Store } from '../../src/store/store';
import { planFiles, type FileRef, type MatchPlan } from '../engine/match-plan';
import { ratedAgentFactory } from '../engine/rated-agent';
import { recordOutcome, type PlayOutcome } from '../engine/record-match';
import type { Schedule } from '../engine/schedule';
import { resolveModuleRef, withConfigPathsResolved } from '../module-paths';
import { RatingBook } from '../rating-book';
import { TournamentConfigError, type TournamentConfig } from './config';
import { gameOutcome, tournamentSides, type GameOutcome } from './game-outcome';
import { plannedGames, tournamentOutcomes } from './report';
import { nextBatch, sprtSlot, type GameSlot, type RoundRecord } from './schedule';

/** What opening a tournament needs. */
export interface TournamentOpenOptions {
  config: TournamentConfig;
  store: Store;
  registry: Registry;
  /** `rating.updated` is published here. */
  bus?: EventBus;
  /** Called when a Swiss round has been paired and stored. */
  onRound?: (round: RoundRecord) => void;
  /**
   * The folder module paths in the config (env, player agents) are relative to: the config
   * file's (`arena tournament run` passes it). Stored as written; plans carry them relative to
   * the working directory (module-paths.ts). Default: the working directory.
   */
  configDir?: string;
  /** Games handed out before the head is folded, at most (workers play them at once; default 1). */
  window?: number;
}

/** One recorded game: its record, slot, outcome for the encounter's first player, and the games so far. */
export interface TournamentGame {
  record: MatchRecord;
  slot: GameSlot;
  outcome: GameOutcome;
  done: number;
  total: number;
}

/**
 * Resolves the env, checks it has two sides and every agent can be created and rated, then
 * registers the tournament and its players (nothing is stored when a check fails).
 */
async function prepare(o: TournamentOpenOptions): Promise<{ env: Env; params: Params }> {
  const { config, store, registry } = o;
  const env = await registry.resolveEnv(resolveModuleRef(config.env, o.configDir));
  const params = env.resolveParams(config.params);
  try {
    parseFaultPolicy(config.faults);
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
    try {
      await ratedAgentFactory(registry, resolveModuleRef(p.agent, o.configDir), env, params, 'rated games');
    } catch (e) {
      throw new TournamentConfigError(`tournament config: player "${p.id}": ${(e as Error).message}`);
    }
  }
  // The pace may change between runs; everything else defines the tournament.
  const { paceMs: _pace, ...identity } = config;
  store.ensureTournament(config.name, config.format, identity as unknown as JsonValue);
  for (const p of config.players) {
    store.addPlayer(config.name, { id: p.id, kind: 'baseline', agent: p.agent, version: 0, roles, parent: null, checkpoint: null, createdAt: 0 });
  }
  return { env, params };
}

/** A tournament being played: its schedule so far (stored rounds and outcomes) and its ratings. */
export class TournamentSchedule implements Schedule<TournamentGame> {
  readonly window: number;
  readonly total: number;
  private readonly rounds: RoundRecord[];
  private readonly outcomes: GameOutcome[];
  private readonly book: RatingBook;
  /** The current batch of slots (the rest of a fixed schedule or Swiss round, an SPRT pair) and the next one's position in it. */
  private batch: GameSlot[] = [];
  private at = 0;
  /** Plans handed out and not folded yet, with their slots. */
  private readonly plans = new Map<number, { slot: GameSlot; plan: MatchPlan }>();
  /** The config with module paths as plans carry them. */
  private readonly planned: TournamentConfig;
  private readonly agentOf: Map<string, string>;
  private readonly files: FileRef[];

  private constructor(
    private readonly o: TournamentOpenOptions,
    private readonly env: Env,
    private readonly params: Params,
  ) {
    const { config, store } = o;
    this.window = Math.max(1, o.window ?? 1);
    this.total = plannedGames(config);
    this.rounds = store.rounds(config.name);
    this.outcomes = tournamentOutcomes(config, store.matches(config.name), this.rounds).outcomes;
    this.book = new RatingBook({ eloK: config.ratings.eloK, eloInitial: config.ratings.eloInitial }, store.ratings(config.name));
    this.planned = withConfigPathsResolved(o).config;
    this.agentOf = new Map(this.planned.players.map((p) => [p.id, p.agent]));
    this.files = planFiles(this.planned.env, this.planned.players.map((p) => p.agent), params);
  }

  /** Checks and registers the tournament (see {@link prepare}) and reads its rounds, outcomes and ratings from the store. */
  static async open(o: TournamentOpenOptions): Promise<TournamentSchedule> {
    const { env, params } = await prepare(o);
    return new TournamentSchedule(o, env, params);
  }

  get name(): string {
    return this.o.config.name;
  }

  get envId(): string {
    return this.env.meta.id;
  }

  get completed(): number {
    return this.outcomes.length;
  }

  async start(): Promise<boolean> {
    return true;
  }

  /**
   * The next games (at most the window): the rest of a fixed schedule or of the current Swiss
   * round, a new Swiss round (paired from the standings and stored before its first game), the
   * SPRT's next games while the test is undecided; empty when the tournament is over.
   */
  next(): MatchPlan[] {
    if (this.at >= this.batch.length) {
      const batch = nextBatch(this.o.config, { outcomes: this.outcomes, rounds: this.rounds });
      if (!batch) return [];
      if (batch.round) {
        this.o.store.recordRound(this.name, batch.round);
        this.rounds.push(batch.round);
        this.o.onRound?.(batch.round);
      }
      this.batch = batch.slots;
      this.at = 0;
    }
    const slots = this.batch.slice(this.at, this.at + this.window);
    // an SPRT's next slots are known ahead (slot k is a function of k): games past the decision are played but never folded
    if (this.o.config.format === 'sprt') {
      const last = Math.min(this.o.config.sprt!.maxGames, this.completed + this.window);
      for (let k = slots[slots.length - 1].idx + 1; k < last; k++) slots.push(sprtSlot(this.o.config, k));
    }
    return slots.map((slot) => this.plan(slot));
  }

  private plan(slot: GameSlot): MatchPlan {
    const made = this.plans.get(slot.idx);
    if (made) return made.plan;
    const plan = this.makePlan(slot);
    this.plans.set(slot.idx, { slot, plan });
    return plan;
  }

  private makePlan(slot: GameSlot): MatchPlan {
    const { config } = this.o;
    const seats = this.env.seats(this.env.init(this.params, slot.seed));
    const holder = slot.swapped ? [slot.b, slot.a] : [slot.a, slot.b];
    const bySeat: string[] = [];
    tournamentSides(seats).forEach((side, i) => side.seats.forEach((seat) => (bySeat[seat] = holder[i])));
    return {
      league: config.name,
      idx: slot.idx,
      matchId: `${config.name}:${slot.idx}`,
      env: this.planned.env,
      envId: this.envId,
      params: this.params,
      seed: slot.seed,
      seats: seats.map((s, seat) => ({ player: bySeat[seat], role: s.role, team: s.team, agent: this.agentOf.get(bySeat[seat])! })),
      deadlineMs: config.deadlineMs ?? null,
      faults: config.faults,
      paceMs: config.paceMs,
      files: this.files,
      schedule: 'tournament',
    };
  }

  /** Records the next game (played, or failed on every attempt) and scores it for its encounter. */
  fold(plan: MatchPlan, outcome: PlayOutcome): TournamentGame {
    if (plan.idx !== this.completed) throw new Error(`tournament ${this.name}: game ${plan.idx} recorded out of order (next is ${this.completed})`);
    const { slot } = this.plans.get(plan.idx)!;
    const { record } = recordOutcome(plan, outcome, { store: this.o.store, book: this.book, bus: this.o.bus });
    const scored = gameOutcome(record, slot.a, slot.b);
    this.outcomes.push(scored);
    this.plans.delete(plan.idx);
    if (this.batch[this.at]?.idx === plan.idx) this.at++;
    return { record, slot, outcome: scored, done: this.outcomes.length, total: this.total };
  }

  transaction<T>(fn: () => T): T {
    return this.o.store.transaction(fn);
  }

  /** Nothing is ever due between games. */
  dueAfterFold(): boolean {
    return false;
  }

  async afterFold(): Promise<boolean> {
    return true;
  }

  dispose(): void {}
}

