/**
 * A league as a schedule (league/engine/): matches paired by matchmaking, played from plans,
 * folded into ratings, head-to-head results and the store in index order, with the learners'
 * training rounds between folds.
 *
 * Pairing window W (config `window`, default 1, docs/scale-out.md): match k is paired from the
 * league's state after its first max(0, k - W + 1) matches are recorded (and the training round
 * those made due), so matches k - W + 1 ... k can be played at the same time; W = 1 is the
 * classic serial league. Plans made ahead of their match (W > 1) are stored when made and deleted
 * in their match's transaction; on resume only the plan whose pairing point is "now" can be
 * missing, and it is made from exactly the state an uninterrupted run had. Results are recorded
 * strictly in index order (online ratings depend on it), each exactly once (the store's primary
 * key and `completed` guard it).
 */
import type { JsonValue } from '../src/core/json';
import type { MatchRecord, PlayerRecord } from '../src/store/store';
import type { LeagueConfig, LearnerSpec } from './config';
import { fileRef, isFile, planFiles, type FileRef, type MatchPlan, type PlannedSeat } from './engine/match-plan';
import { recordOutcome, type PlayOutcome } from './engine/record-match';
import type { Schedule } from './engine/schedule';
import type { LeagueLearners } from './learners';
import { openLeague, pairMatch, type LeagueOpenOptions, type PreparedLeague } from './league-prepare';
import type { HeadToHead } from './matchmaking/head-to-head';
import { withConfigPathsResolved } from './module-paths';
import { forEachPairResult } from './pair-results';
import type { RatingBook } from './rating-book';

/** A league being played: its players, ratings, results so far, learners and plans. */
export class LeagueSchedule implements Schedule<MatchRecord> {
  /** The pairing window W (also the most matches that can be in flight). */
  readonly window: number;
  /** Matches recorded so far (= the index of the next match to record). */
  completed: number;
  private readonly plans = new Map<number, MatchPlan>();
  private readonly files: FileRef[];
  private readonly learnerTypes: Map<string, LearnerSpec['type']>;
  /** The config with module paths as plans carry them (relative to the working directory, see module-paths.ts). */
  private readonly planned: LeagueConfig;

  private constructor(
    private readonly o: LeagueOpenOptions,
    private readonly prepared: PreparedLeague,
    private readonly learners: LeagueLearners,
    private readonly book: RatingBook,
    private readonly h2h: HeadToHead,
  ) {
    this.window = o.config.window ?? 1;
    this.completed = o.store.matchCount(o.config.name);
    this.learnerTypes = new Map(o.config.learners.map((l) => [l.id, l.type]));
    this.planned = withConfigPathsResolved(o).config;
    this.files = planFiles(this.planned.env, this.planned.players.map((p) => p.agent), prepared.params);
    for (const { idx, plan } of o.store.plans(o.config.name, this.completed)) this.plans.set(idx, plan as unknown as MatchPlan);
  }

  /** Registers players and learners and rebuilds ratings, head-to-head results and stored plans from the store. */
  static async open(o: LeagueOpenOptions): Promise<LeagueSchedule> {
    const { prepared, learners, book, h2h } = await openLeague(o);
    return new LeagueSchedule(o, prepared, learners, book, h2h);
  }

  get name(): string {
    return this.o.config.name;
  }

  /** The league's match budget (the config's `budget.matches`). */
  get budget(): number {
    return this.o.config.budget.matches;
  }

  get total(): number {
    return this.budget;
  }

  /** The env id of the league's matches. */
  get envId(): string {
    return this.prepared.env.meta.id;
  }

  /** Runs training rounds made due but not recorded (a kill during one); false when the signal stopped one. */
  async start(signal?: AbortSignal): Promise<boolean> {
    return this.addSnapshots(await this.learners.catchUp(this.completed, this.h2h, signal));
  }

  /**
   * The plans of the next W matches below the budget (from index `completed`), making those
   * whose pairing point is now. Plans are made past the budget too (a later run with a larger
   * budget needs them as an uninterrupted run made them) and stored when W > 1.
   */
  next(): MatchPlan[] {
    if (this.completed >= this.budget) return [];
    const fresh: MatchPlan[] = [];
    for (let idx = this.completed; idx < this.completed + this.window; idx++) {
      if (this.plans.has(idx)) continue;
      const point = Math.max(0, idx - this.window + 1);
      if (point !== this.completed) throw new Error(`league ${this.name}: the plan of match ${idx} is missing from the store (it was due after match ${point - 1}); the database was changed outside the league`);
      const plan = this.makePlan(idx);
      this.plans.set(idx, plan);
      fresh.push(plan);
    }
    // a plan paired now needs no storing (a rerun pairs it again from this very state); one paired ahead does
    if (fresh.length && this.window > 1) this.o.store.savePlans(this.name, fresh.map((p) => ({ idx: p.idx, plan: p as unknown as JsonValue })));
    const out: MatchPlan[] = [];
    for (let idx = this.completed; idx < Math.min(this.completed + this.window, this.budget); idx++) out.push(this.plans.get(idx)!);
    return out;
  }

  private makePlan(idx: number): MatchPlan {
    const { config } = this.o;
    const { seed, seats, chosen } = pairMatch({ config, prepared: this.prepared, book: this.book, h2h: this.h2h, learnerTypes: this.learnerTypes }, idx);
    return {
      league: config.name,
      idx,
      matchId: `${config.name}:${idx}`,
      env: this.planned.env,
      envId: this.envId,
      params: this.prepared.params,
      seed,
      seats: chosen.map((p, i) => this.plannedSeat(p, seats[i].role, seats[i].team)),
      deadlineMs: config.deadlineMs ?? null,
      faults: config.faults,
      paceMs: config.paceMs,
      files: this.files,
    };
  }

  private plannedSeat(p: PlayerRecord, role: string, team: string): PlannedSeat {
    // config players play their agent with module paths as plans carry them; snapshots as stored
    const agent = this.planned.players.find((x) => x.id === p.id)?.agent ?? p.agent;
    const seat: PlannedSeat = { player: p.id, role, team, agent };
    const policy = this.learners.policyFile(p.id);
    if (policy) return { ...seat, policy: fileRef(policy) };
    if (p.checkpoint && isFile(p.checkpoint)) return { ...seat, checkpoint: fileRef(p.checkpoint) };
    return seat;
  }

  /**
   * Records the next match (`plan.idx` must be `completed`): played, with its events, rating rows
   * and the plan's deletion in one transaction, then the head-to-head table; or failed on every
   * attempt (code "failed", no result, no rating change), and the league goes on.
   */
  fold(plan: MatchPlan, outcome: PlayOutcome): MatchRecord {
    if (plan.idx !== this.completed) throw new Error(`league ${plan.league}: match ${plan.idx} recorded out of order (next is ${this.completed})`);
    const { record } = recordOutcome(plan, outcome, { store: this.o.store, book: this.book, bus: this.o.bus });
    forEachPairResult(record, (a, b, score) => this.h2h.record(a.player, b.player, score));
    this.plans.delete(plan.idx);
    this.completed++;
    return record;
  }

  transaction<T>(fn: () => T): T {
    return this.o.store.transaction(fn);
  }

  /** A training round is due after the last recorded match. */
  dueAfterFold(): boolean {
    return this.learners.dueAt(this.completed);
  }

  /** After a recorded match: the training round it made due (if any); false when the signal stopped it. */
  async afterFold(signal?: AbortSignal): Promise<boolean> {
    return this.addSnapshots(await this.learners.afterMatch(this.completed, this.h2h, signal));
  }

  /** Adds the snapshot players a training round committed; false when the round was stopped. */
  private addSnapshots(snaps: PlayerRecord[] | null): boolean {
    if (!snaps) return false;
    for (const snap of snaps) {
      this.prepared.players.push(snap);
      this.o.log?.(`league ${this.name}: snapshot ${snap.id} joined (parent ${snap.parent})`);
    }
    return true;
  }

  /** Releases the learners' resources (tfjs models). */
  dispose(): void {
    this.learners.dispose();
  }
}
