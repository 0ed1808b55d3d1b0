import type { EventBus } from '../src/bus/event-bus';
import type { Agent } from '../src/core/agent';
import { deriveSeed } from '../src/core/rng';
import type { Registry } from '../src/core/registry';
import { EventLoopTurn } from '../src/core/event-loop';
import { heartbeat } from '../src/core/heartbeat';
import { parseFaultPolicy, type FaultPolicy } from '../src/match/fault-policy';
import { MatchFailureError } from '../src/match/match-failure';
import { playRecordedMatch } from './recorded-match';
import { pacedAgent } from '../src/match/paced-agent';
import type { MatchRecord, PlayerRecord, Store } from '../src/store/store';
import type { LeagueConfig, LearnerSpec } from './config';
import type { RatingBook } from './rating-book';
import { LeagueLearners } from './learners';
import { lockLeague } from './league-lock';
import { forEachPairResult } from './pair-results';
import type { HeadToHead } from './matchmaking/head-to-head';
import { openLeague, pairMatch, type PreparedLeague } from './league-prepare';
import { runPlannedLeague } from './planned/planned-run';
import { resolveModuleRef } from './module-paths';

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
  /**
   * The folder module paths in the config (env, player agents) are relative to: the config
   * file's (`arena league run` passes it). The league and its players are stored with the paths
   * as written. Default: the working directory.
   */
  configDir?: string;
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

/**
 * Runs a league until its match budget is spent, recording every match (with its events and
 * rating updates, atomically) in the store. Restarting with the same config and database
 * resumes where it stopped: match k's seed and pairing depend only on the league seed, k and
 * the ratings after match k-1, and a training round is recorded with its checkpoints or redone,
 * so a resumed league ends with exactly the ratings of an uninterrupted run. Yields to the event
 * loop between matches, so the signal stops it after the current match. A config with a pairing
 * `window` is played by {@link runPlannedLeague} (matches paired ahead, as workers play them).
 */
export async function runLeague(o: LeagueRunOptions): Promise<LeagueRunResult> {
  if (o.config.window !== undefined) return runPlannedLeague(o);
  const unlock = lockLeague(o.store.db.name, o.config.name);
  try {
    const run = await LeagueRun.open(o);
    try {
      return await run.play();
    } finally {
      run.dispose();
    }
  } finally {
    unlock();
  }
}

/** A league being played: its players, ratings, results so far and learners. */
class LeagueRun {
  private readonly faultPolicy: FaultPolicy;
  private readonly learnerTypes: Map<string, LearnerSpec['type']>;
  private completed: number;

  private constructor(
    private readonly o: LeagueRunOptions,
    private readonly prepared: PreparedLeague,
    private readonly learners: LeagueLearners,
    private readonly book: RatingBook,
    private readonly h2h: HeadToHead,
  ) {
    this.faultPolicy = parseFaultPolicy(o.config.faults);
    this.learnerTypes = new Map(o.config.learners.map((l) => [l.id, l.type]));
    this.completed = o.store.matchCount(o.config.name);
  }

  /** Registers players and learners and rebuilds ratings and head-to-head results from the store. */
  static async open(o: LeagueRunOptions): Promise<LeagueRun> {
    const { prepared, learners, book, h2h } = await openLeague(o);
    return new LeagueRun(o, prepared, learners, book, h2h);
  }

  /** Plays matches until the budget, `maxMatches` or the signal; a pending training round first. */
  async play(): Promise<LeagueRunResult> {
    const { o } = this;
    const budget = o.config.budget.matches;
    let played = 0;
    let stopped = !this.addSnapshots(await this.learners.catchUp(this.completed, this.h2h, o.signal));
    const turn = new EventLoopTurn();
    while (!stopped && this.completed < budget && (o.maxMatches === undefined || played < o.maxMatches)) {
      await turn.maybe(); // lets Ctrl-C and other events in between synchronous matches
      if (o.signal?.aborted) {
        stopped = true;
        break;
      }
      const record = await this.playMatch(this.completed);
      if (!record) {
        stopped = true;
        break;
      }
      this.completed++;
      played++;
      o.onMatch?.(record, this.completed, budget);
      stopped = !this.addSnapshots(await this.learners.afterMatch(this.completed, this.h2h, o.signal));
    }
    return { played, completed: this.completed, budget, stopped };
  }

  /** Adds the snapshot players a training round committed; false when the round was stopped. */
  private addSnapshots(snaps: PlayerRecord[] | null): boolean {
    if (!snaps) return false;
    for (const snap of snaps) {
      this.prepared.players.push(snap);
      this.o.log?.(`league ${this.o.config.name}: snapshot ${snap.id} joined (parent ${snap.parent})`);
    }
    return true;
  }

  /** The agents of match `idx`'s seats, for the players chosen by {@link pairMatch}. */
  private async seatAgents(seed: number, chosen: readonly PlayerRecord[]): Promise<Agent[]> {
    const { config, registry } = this.o;
    const { env, params } = this.prepared;
    const agents: Agent[] = [];
    for (let seat = 0; seat < chosen.length; seat++) {
      const player = chosen[seat];
      const agentSeed = deriveSeed(seed, 'agent', seat);
      const agent = this.learners.agentFor(player.id, agentSeed) ?? (await registry.createAgent(resolveModuleRef(player.agent, this.o.configDir), { env, params, seed: agentSeed })).agent;
      agents.push(pacedAgent(agent, config.paceMs));
    }
    return agents;
  }

  /** Plays match `idx` and records it with its events and rating updates; null when it was aborted. */
  private async playMatch(idx: number): Promise<MatchRecord | null> {
    const { o } = this;
    const { config, store } = o;
    const { env, params } = this.prepared;
    const { seed, seats, chosen } = pairMatch({ config, prepared: this.prepared, book: this.book, h2h: this.h2h, learnerTypes: this.learnerTypes }, idx);
    const agents = await this.seatAgents(seed, chosen);
    const matchId = `${config.name}:${idx}`;
    heartbeat()?.context({ league: config.name, players: chosen.map((p) => p.id) });
    let done;
    try {
      done = await playRecordedMatch({
        league: config.name,
        idx,
        match: {
          env,
          params,
          seed,
          agents,
          names: chosen.map((p) => p.id),
          matchId,
          bus: o.bus,
          deadlineMs: config.deadlineMs === 'none' ? Infinity : config.deadlineMs,
          faultPolicy: this.faultPolicy,
          signal: o.signal,
          effects: o.registry.effects(),
        },
        seats,
        players: chosen.map((p) => p.id),
        store,
        book: this.book,
      });
    } catch (e) {
      if (e instanceof MatchFailureError) e.message += ` (league ${config.name}, players ${chosen.map((p) => p.id).join(', ')}; nothing of this match was recorded)`;
      throw e;
    }
    if (!done) return null;
    forEachPairResult(done.record, (a, b, score) => this.h2h.record(a.player, b.player, score));
    return done.record;
  }

  dispose(): void {
    this.learners.dispose();
  }
}
