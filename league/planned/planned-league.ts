/**
 * A league whose matches are paired ahead of play (config `window`, docs/scale-out.md).
 *
 * Match k is paired from the league's state after its first max(0, k - W + 1) matches are
 * recorded (and the training round those made due), so matches k - W + 1 ... k can be played at
 * the same time. Plans are stored when made and deleted when their match is recorded, in that
 * match's transaction; on resume only the plan whose pairing point is "now" can be missing, and
 * it is made from exactly the state an uninterrupted run had. Results are recorded strictly in
 * index order (online ratings depend on it), each exactly once (the store's primary key and
 * `completed` guard it). With W = 1 the pairings are those of the classic serial league.
 */
import type { MatchEvent } from '../../src/core/events';
import type { JsonValue } from '../../src/core/json';
import type { MatchRecord, PlayerRecord } from '../../src/store/store';
import type { LearnerSpec } from '../config';
import { LeagueLearners } from '../learners';
import type { LeagueRunOptions } from '../league-run';
import { openLeague, pairMatch, type PreparedLeague } from '../league-prepare';
import type { HeadToHead } from '../matchmaking/head-to-head';
import { FAILED_MATCH_CODE, forEachPairResult } from '../pair-results';
import type { RatingBook } from '../rating-book';
import { recordPlayedMatch, type PlayedMatch } from '../recorded-match';
import { fileRef, isFile, leagueFiles, type FileRef, type MatchPlan, type PlannedSeat } from './match-plan';

/** A league played from plans: pairing, recording in order, training rounds. Transport-agnostic (this process or workers play the plans). */
export class PlannedLeague {
  /** The pairing window W (also the most matches that can be in flight). */
  readonly window: number;
  /** Matches recorded so far (= the index of the next match to record). */
  completed: number;
  private readonly plans = new Map<number, MatchPlan>();
  private readonly files: FileRef[];
  private readonly learnerTypes: Map<string, LearnerSpec['type']>;

  private constructor(
    private readonly o: LeagueRunOptions,
    private readonly prepared: PreparedLeague,
    private readonly learners: LeagueLearners,
    private readonly book: RatingBook,
    private readonly h2h: HeadToHead,
  ) {
    this.window = o.config.window ?? 1;
    this.completed = o.store.matchCount(o.config.name);
    this.learnerTypes = new Map(o.config.learners.map((l) => [l.id, l.type]));
    this.files = leagueFiles(o.config.env, o.config.players.map((p) => p.agent), prepared.params);
    for (const { idx, plan } of o.store.plans(o.config.name, this.completed)) this.plans.set(idx, plan as unknown as MatchPlan);
  }

  /** Registers players and learners and rebuilds ratings, head-to-head results and stored plans from the store. */
  static async open(o: LeagueRunOptions): Promise<PlannedLeague> {
    const { prepared, learners, book, h2h } = await openLeague(o);
    return new PlannedLeague(o, prepared, learners, book, h2h);
  }

  /** The league's match budget (the config's `budget.matches`). */
  get budget(): number {
    return this.o.config.budget.matches;
  }

  /** The env id of the league's matches. */
  get envId(): string {
    return this.prepared.env.meta.id;
  }

  /** Runs training rounds made due but not recorded (a kill during one); false when the signal stopped one. */
  async catchUp(signal?: AbortSignal): Promise<boolean> {
    return this.addSnapshots(await this.learners.catchUp(this.completed, this.h2h, signal));
  }

  /**
   * The plans of the next W matches (indices completed ... completed + W - 1), making and storing
   * those whose pairing point is now. Plans are made past the budget too (a later run with a
   * larger budget needs them as an uninterrupted run made them); callers play those below it.
   */
  nextPlans(): MatchPlan[] {
    const fresh: MatchPlan[] = [];
    for (let idx = this.completed; idx < this.completed + this.window; idx++) {
      if (this.plans.has(idx)) continue;
      const point = Math.max(0, idx - this.window + 1);
      if (point !== this.completed) throw new Error(`league ${this.o.config.name}: the plan of match ${idx} is missing from the store (it was due after match ${point - 1}); the database was changed outside the league`);
      const plan = this.makePlan(idx);
      this.plans.set(idx, plan);
      fresh.push(plan);
    }
    if (fresh.length) this.o.store.savePlans(this.o.config.name, fresh.map((p) => ({ idx: p.idx, plan: p as unknown as JsonValue })));
    const out: MatchPlan[] = [];
    for (let idx = this.completed; idx < this.completed + this.window; idx++) out.push(this.plans.get(idx)!);
    return out;
  }

  private makePlan(idx: number): MatchPlan {
    const { config } = this.o;
    const { seed, seats, chosen } = pairMatch({ config, prepared: this.prepared, book: this.book, h2h: this.h2h, learnerTypes: this.learnerTypes }, idx);
    return {
      league: config.name,
      idx,
      matchId: `${config.name}:${idx}`,
      env: config.env,
      envId: this.prepared.env.meta.id,
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
    const seat: PlannedSeat = { player: p.id, role, team, agent: p.agent };
    const policy = this.learners.policyFile(p.id);
    if (policy) return { ...seat, policy: fileRef(policy) };
    if (p.checkpoint && isFile(p.checkpoint)) return { ...seat, checkpoint: fileRef(p.checkpoint) };
    return seat;
  }

  /**
   * Records the next match (`plan.idx` must be `completed`) with what it produced and its
   * events: match, events, rating rows and the plan's deletion in one transaction; then the
   * head-to-head table and `rating.updated`.
   */
  fold(plan: MatchPlan, played: PlayedMatch, events: readonly MatchEvent[]): MatchRecord {
    this.checkNext(plan);
    const { store, bus } = this.o;
    const { record } = recordPlayedMatch(
      {
        league: plan.league,
        idx: plan.idx,
        matchId: plan.matchId,
        env: plan.envId,
        params: plan.params,
        seed: plan.seed,
        seats: plan.seats,
        players: plan.seats.map((s) => s.player),
        store,
        book: this.book,
        bus,
        write: store.recordPlannedMatch.bind(store),
      },
      played,
      events,
    );
    forEachPairResult(record, (a, b, score) => this.h2h.record(a.player, b.player, score));
    this.advance(plan);
    return record;
  }

  /**
   * Records the next match as failed (no worker could play it: `reason`): code "failed", no
   * events, no result and no rating change; the league goes on.
   */
  foldFailure(plan: MatchPlan, reason: string): MatchRecord {
    this.checkNext(plan);
    const now = Date.now();
    const record: MatchRecord = {
      league: plan.league,
      idx: plan.idx,
      id: plan.matchId,
      env: plan.envId,
      params: plan.params as JsonValue,
      seed: plan.seed,
      seats: plan.seats.map((s) => ({ player: s.player, role: s.role, team: s.team })),
      returns: plan.seats.map(() => 0),
      outcome: FAILED_MATCH_CODE,
      code: FAILED_MATCH_CODE,
      length: 0,
      faults: [],
      summary: { error: reason },
      startedAt: now,
      endedAt: now,
    };
    this.o.store.recordPlannedMatch(record, [], [], []);
    this.advance(plan);
    return record;
  }

  private checkNext(plan: MatchPlan): void {
    if (plan.idx !== this.completed) throw new Error(`league ${plan.league}: match ${plan.idx} recorded out of order (next is ${this.completed})`);
  }

  private advance(plan: MatchPlan): void {
    this.plans.delete(plan.idx);
    this.completed++;
  }

  /** After a recorded match: the training round it made due (if any); false when the signal stopped it. */
  async afterFold(signal?: AbortSignal): Promise<boolean> {
    return this.addSnapshots(await this.learners.afterMatch(this.completed, this.h2h, signal));
  }

  private addSnapshots(snaps: PlayerRecord[] | null): boolean {
    if (!snaps) return false;
    for (const snap of snaps) {
      this.prepared.players.push(snap);
      this.o.log?.(`league ${this.o.config.name}: snapshot ${snap.id} joined (parent ${snap.parent})`);
    }
    return true;
  }

  /** Releases the learners' resources (tfjs models). */
  dispose(): void {
    this.learners.dispose();
  }
}
