import type Database from 'better-sqlite3';
import type { MatchEvent } from '../core/events';
import type { JsonValue } from '../core/json';
import type { FaultRecord } from '../core/events';
import { looksLikePath } from '../core/registry';
import { openDatabase } from './open-database';
import { translateErrorsOf } from './store-errors';
import { packEventLog, unpackEventLog, type PackedEventLog } from './event-log';

export { StoreError } from './store-errors';
export { EventLogError } from './event-log';
import { QUICK_CHECK_MAX_BYTES } from './open-database';
export { QUICK_CHECK_MAX_BYTES };

/** A player of a league as stored. */
export interface PlayerRecord {
  id: string;
  kind: 'baseline' | 'snapshot' | 'learner';
  agent: string;
  version: number;
  roles: string[];
  parent: string | null;
  checkpoint: string | null;
  createdAt: number;
}

/** One seat of a stored match. */
export interface SeatRecord {
  player: string;
  role: string;
  team: string;
}

/** A completed match as stored. */
export interface MatchRecord {
  league: string;
  idx: number;
  id: string;
  env: string;
  params: JsonValue;
  seed: number;
  seats: SeatRecord[];
  returns: number[];
  outcome: string;
  code: string;
  length: number;
  faults: FaultRecord[];
  summary: JsonValue;
  startedAt: number;
  endedAt: number;
  /** Each seat's agent report (model snapshot, tokens, latency, cost), when any agent reports. */
  reports?: (JsonValue | null)[];
}

/** A rating row: current value plus system-specific state. */
export interface RatingRecord {
  system: string;
  player: string;
  role: string;
  value: number;
  state: JsonValue;
}

/** One point of a rating's history. */
export interface RatingPoint {
  system: string;
  player: string;
  role: string;
  matchIdx: number;
  value: number;
  time: number;
}

/** A stored league config does not match the one given. */
export class StoreConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConflictError';
  }
}

/** Options of {@link Store}. */
export interface StoreOptions {
  /** Open for reading only (tables, exports, serving); the file must exist. */
  readonly?: boolean;
  /** Files up to this many bytes (with their write-ahead log) are read whole when opened; default {@link QUICK_CHECK_MAX_BYTES}. */
  quickCheckMaxBytes?: number;
}

const parse = <T>(text: string | null): T => (text === null ? (null as T) : (JSON.parse(text) as T));

/**
 * The arena's SQLite store (better-sqlite3, WAL mode): leagues, tournaments (and their Swiss rounds), players, matches with their
 * event logs, ratings and their history, training metrics. A match, its events and the rating
 * updates it causes are written in one transaction, so a killed process never leaves a match
 * half-counted.
 */
export class Store {
  readonly db: Database.Database;

  /**
   * Opens (creating and migrating when needed) the database at `path`, and checks it: its header
   * and schema always, every page when the file is at most {@link QUICK_CHECK_MAX_BYTES}. A file
   * that is not an arena database, a damaged, unreadable or read-only one throws a
   * {@link StoreError} saying which file and what to do; so does every method of the store when
   * SQLite reports such a problem later (see store-errors.ts).
   */
  constructor(path: string, options: StoreOptions = {}) {
    this.db = openDatabase(path, !!options.readonly, options.quickCheckMaxBytes ?? QUICK_CHECK_MAX_BYTES);
  }

  /** Prepared statements of the write path, made once per store (preparing costs more than running a small insert). */
  private readonly statements = new Map<string, Database.Statement>();

  private statement(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  /**
   * Runs `fn` in ONE SQLite transaction and returns what it returned: every write of the store
   * made inside (matches, events, ratings, plans, rounds) is committed together, or — when `fn`
   * throws — none of them is (the error reaches the caller). Nested calls are savepoints of it.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * `fn` atomically: in a transaction of its own, or — inside {@link transaction} — as part of the
   * caller's (no savepoint: an error in it reaches the caller's transaction, which rolls back).
   */
  private atomically(fn: () => void): void {
    if (this.db.inTransaction) fn();
    else this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }

  /**
   * The database's state for health checks: its file, schema version, whether it is open
   * read-only, and how many leagues and matches it holds. Throws when the database cannot
   * answer (closed, damaged, locked past the busy timeout).
   */
  health(): { file: string; schemaVersion: number; readonly: boolean; leagues: number; matches: number } {
    const count = (table: string) => (this.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      file: this.db.name,
      schemaVersion: this.db.pragma('user_version', { simple: true }) as number,
      readonly: this.db.readonly,
      leagues: count('leagues'),
      matches: count('matches'),
    };
  }

  /** Whether the league exists in this database. */
  hasLeague(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM leagues WHERE id = ?').get(id) !== undefined;
  }

  /** Creates the league, or checks that the stored config is the same (a resume). */
  ensureLeague(id: string, config: JsonValue): { created: boolean } {
    const text = JSON.stringify(config);
    if (this.db.prepare('SELECT 1 FROM tournaments WHERE id = ?').get(id)) {
      throw new StoreConflictError(`"${id}" is a tournament in this database; give the league another name`);
    }
    const row = this.db.prepare('SELECT config FROM leagues WHERE id = ?').get(id) as { config: string } | undefined;
    if (!row) {
      this.db.prepare('INSERT INTO leagues (id, config, created_at) VALUES (?, ?, ?)').run(id, text, Date.now());
      return { created: true };
    }
    if (row.config !== text) {
      throw new StoreConflictError(`league "${id}" already exists in this database with a different config; use another --db or league name`);
    }
    return { created: false };
  }

  leagues(): { id: string; config: JsonValue; createdAt: number }[] {
    const rows = this.db.prepare('SELECT id, config, created_at FROM leagues ORDER BY created_at').all() as { id: string; config: string; created_at: number }[];
    return rows.map((r) => ({ id: r.id, config: parse<JsonValue>(r.config), createdAt: r.created_at }));
  }

  /**
   * Creates the tournament, or checks that the stored config is the same (a resume). Its games,
   * players and ratings are stored under its id like a league's, so the id may not be a league's.
   */
  ensureTournament(id: string, format: string, config: JsonValue): { created: boolean } {
    const text = JSON.stringify(config);
    if (this.db.prepare('SELECT 1 FROM leagues WHERE id = ?').get(id)) {
      throw new StoreConflictError(`"${id}" is a league in this database; give the tournament another name`);
    }
    const row = this.db.prepare('SELECT config FROM tournaments WHERE id = ?').get(id) as { config: string } | undefined;
    if (!row) {
      this.db.prepare('INSERT INTO tournaments (id, format, config, created_at) VALUES (?, ?, ?, ?)').run(id, format, text, Date.now());
      return { created: true };
    }
    if (row.config !== text) {
      throw new StoreConflictError(`tournament "${id}" already exists in this database with a different config; use another --db or tournament name`);
    }
    return { created: false };
  }

  /** Tournaments in creation order. */
  tournaments(): { id: string; format: string; config: JsonValue; createdAt: number }[] {
    const rows = this.db.prepare('SELECT id, format, config, created_at FROM tournaments ORDER BY created_at, id').all() as { id: string; format: string; config: string; created_at: number }[];
    return rows.map((r) => ({ id: r.id, format: r.format, config: parse<JsonValue>(r.config), createdAt: r.created_at }));
  }

  /** Stores a Swiss round's pairings before its first game; a second insert of the round fails. */
  recordRound(tournament: string, round: { round: number; pairings: [string, string][]; bye: string | null }): void {
    this.db.prepare('INSERT INTO tournament_rounds (tournament, round, pairings, bye) VALUES (?, ?, ?, ?)').run(tournament, round.round, JSON.stringify(round.pairings), round.bye);
  }

  /** A tournament's stored rounds in order. */
  rounds(tournament: string): { round: number; pairings: [string, string][]; bye: string | null }[] {
    const rows = this.db.prepare('SELECT round, pairings, bye FROM tournament_rounds WHERE tournament = ? ORDER BY round').all(tournament) as { round: number; pairings: string; bye: string | null }[];
    return rows.map((r) => ({ round: r.round, pairings: parse<[string, string][]>(r.pairings), bye: r.bye }));
  }

  /** Inserts a player, leaving an existing one untouched (players are immutable once added). */
  addPlayer(league: string, p: PlayerRecord): void {
    this.db
      .prepare(
        `INSERT OR IGNORE INTO players (league, id, kind, agent, version, roles, parent, checkpoint, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(league, p.id, p.kind, p.agent, p.version, JSON.stringify(p.roles), p.parent, p.checkpoint, p.createdAt);
  }

  /** The players of a league in the order they joined (the league's pairing order, the same after a resume). */
  players(league: string): PlayerRecord[] {
    const rows = this.db.prepare('SELECT * FROM players WHERE league = ? ORDER BY rowid').all(league) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: r.id as string,
      kind: r.kind as PlayerRecord['kind'],
      agent: r.agent as string,
      version: r.version as number,
      roles: parse<string[]>(r.roles as string),
      parent: (r.parent as string | null) ?? null,
      checkpoint: (r.checkpoint as string | null) ?? null,
      createdAt: r.created_at as number,
    }));
  }

  /**
   * The env id a league plays, for menus and titles: the env of its first match, else its
   * config's `env` when that is an id rather than a module path ("./kuhn-poker.js"); null when
   * neither is known.
   */
  leagueEnv(league: string): string | null {
    const row = this.db.prepare('SELECT env FROM matches WHERE league = ? ORDER BY idx LIMIT 1').get(league) as { env: string } | undefined;
    if (row) return row.env;
    const config = this.leagues().find((l) => l.id === league)?.config;
    const env = config && typeof config === 'object' && !Array.isArray(config) ? config.env : undefined;
    return typeof env === 'string' && !looksLikePath(env) ? env : null;
  }

  /** Number of completed matches of a league (= index of the next one). */
  matchCount(league: string): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM matches WHERE league = ?').get(league) as { n: number }).n;
  }

  /**
   * Records a completed match with its events, the new ratings and their history points,
   * atomically. The event log is one row: `events` packed here (they must be the match's —
   * `matchId` is the record's id — in increasing `seq`, or nothing is written: an EventLogError),
   * or a log packed where the match was played (src/store/event-log.ts). A second insert of the
   * same (league, idx) or match id fails, so nothing is counted twice.
   */
  recordMatch(m: MatchRecord, events: readonly MatchEvent[] | PackedEventLog, ratings: readonly RatingRecord[], history: readonly RatingPoint[]): void {
    const log = 'deflated' in events ? events : packEventLog(m.id, events);
    const insertMatch = this.statement(
      `INSERT INTO matches (league, idx, id, env, params, seed, seats, returns, outcome, code, length, faults, summary, started_at, ended_at, reports)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertLog = this.statement('INSERT INTO event_logs (match_id, count, log) VALUES (?, ?, ?)');
    const upsertRating = this.statement(
      `INSERT INTO ratings (league, system, player, role, value, state) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (league, system, player, role) DO UPDATE SET value = excluded.value, state = excluded.state`,
    );
    const insertHistory = this.statement(
      'INSERT INTO rating_history (league, system, player, role, match_idx, value, time) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.atomically(() => {
      insertMatch.run(
        m.league, m.idx, m.id, m.env, JSON.stringify(m.params), m.seed, JSON.stringify(m.seats), JSON.stringify(m.returns),
        m.outcome, m.code, m.length, JSON.stringify(m.faults), JSON.stringify(m.summary ?? null), m.startedAt, m.endedAt,
        m.reports ? JSON.stringify(m.reports) : null,
      );
      if (log.count) insertLog.run(m.id, log.count, log.deflated);
      for (const r of ratings) upsertRating.run(m.league, r.system, r.player, r.role, r.value, JSON.stringify(r.state));
      for (const h of history) insertHistory.run(m.league, h.system, h.player, h.role, h.matchIdx, h.value, h.time);
    });
  }

  /**
   * Stores matches paired ahead of play (a league with a pairing window): `plan` is the plan's
   * JSON. A plan already stored for (league, idx) is kept (plans are immutable once made).
   */
  savePlans(league: string, plans: readonly { idx: number; plan: JsonValue }[]): void {
    const insert = this.statement('INSERT OR IGNORE INTO match_plans (league, idx, plan) VALUES (?, ?, ?)');
    this.atomically(() => {
      for (const p of plans) insert.run(league, p.idx, JSON.stringify(p.plan));
    });
  }

  /** The stored plans of a league's matches from `fromIdx` on, in index order. */
  plans(league: string, fromIdx = 0): { idx: number; plan: JsonValue }[] {
    const rows = this.db.prepare('SELECT idx, plan FROM match_plans WHERE league = ? AND idx >= ? ORDER BY idx').all(league, fromIdx) as { idx: number; plan: string }[];
    return rows.map((r) => ({ idx: r.idx, plan: parse<JsonValue>(r.plan) }));
  }

  /**
   * {@link recordMatch} for a planned match: the match, its events and rating rows are written
   * and its plan deleted in ONE transaction.
   */
  recordPlannedMatch(m: MatchRecord, events: readonly MatchEvent[] | PackedEventLog, ratings: readonly RatingRecord[], history: readonly RatingPoint[]): void {
    const drop = this.statement('DELETE FROM match_plans WHERE league = ? AND idx = ?');
    this.atomically(() => {
      this.recordMatch(m, events, ratings, history);
      drop.run(m.league, m.idx);
    });
  }

  private toMatch(r: Record<string, unknown>): MatchRecord {
    return {
      league: r.league as string,
      idx: r.idx as number,
      id: r.id as string,
      env: r.env as string,
      params: parse(r.params as string),
      seed: r.seed as number,
      seats: parse(r.seats as string),
      returns: parse(r.returns as string),
      outcome: r.outcome as string,
      code: r.code as string,
      length: r.length as number,
      faults: parse(r.faults as string),
      summary: parse(r.summary as string | null),
      startedAt: r.started_at as number,
      endedAt: r.ended_at as number,
      ...(r.reports ? { reports: parse<(JsonValue | null)[]>(r.reports as string) } : {}),
    };
  }

  /** Matches of a league in schedule order (optionally a window, or the newest first). */
  matches(league: string, options: { limit?: number; offset?: number; newestFirst?: boolean } = {}): MatchRecord[] {
    const order = options.newestFirst ? 'DESC' : 'ASC';
    const rows = this.db
      .prepare(`SELECT * FROM matches WHERE league = ? ORDER BY idx ${order} LIMIT ? OFFSET ?`)
      .all(league, options.limit ?? -1, options.offset ?? 0) as Record<string, unknown>[];
    return rows.map((r) => this.toMatch(r));
  }

  /** Most recent matches across all leagues. */
  recentMatches(limit: number): MatchRecord[] {
    const rows = this.db.prepare('SELECT * FROM matches ORDER BY ended_at DESC, idx DESC LIMIT ?').all(limit) as Record<string, unknown>[];
    return rows.map((r) => this.toMatch(r));
  }

  match(id: string): MatchRecord | null {
    const r = this.db.prepare('SELECT * FROM matches WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    return r ? this.toMatch(r) : null;
  }

  /**
   * A match's event log in sequence order: its one row, or — for a match recorded before schema
   * version 5 — its rows of the old per-event table; empty for a match without events or unknown.
   * A stored log that is damaged or not the match's throws an EventLogError naming the match.
   */
  events(matchId: string): MatchEvent[] {
    const log = this.statement('SELECT log FROM event_logs WHERE match_id = ?').get(matchId) as { log: Buffer } | undefined;
    if (log) return unpackEventLog(matchId, log.log);
    const rows = this.statement('SELECT event FROM events WHERE match_id = ? ORDER BY seq').all(matchId) as { event: string }[];
    return rows.map((r) => JSON.parse(r.event) as MatchEvent);
  }

  ratings(league: string, system?: string): RatingRecord[] {
    const rows = (
      system
        ? this.db.prepare('SELECT * FROM ratings WHERE league = ? AND system = ? ORDER BY value DESC').all(league, system)
        : this.db.prepare('SELECT * FROM ratings WHERE league = ? ORDER BY system, value DESC').all(league)
    ) as Record<string, unknown>[];
    return rows.map((r) => ({
      system: r.system as string,
      player: r.player as string,
      role: r.role as string,
      value: r.value as number,
      state: parse(r.state as string),
    }));
  }

  ratingHistory(league: string, system: string): RatingPoint[] {
    const rows = this.db
      .prepare('SELECT * FROM rating_history WHERE league = ? AND system = ? ORDER BY match_idx, player, role')
      .all(league, system) as Record<string, unknown>[];
    return rows.map((r) => ({
      system: r.system as string,
      player: r.player as string,
      role: r.role as string,
      matchIdx: r.match_idx as number,
      value: r.value as number,
      time: r.time as number,
    }));
  }

  /** Records (or replaces, on resume) one training iteration's metrics for a role. */
  recordTraining(league: string, iteration: number, role: string, metrics: JsonValue): void {
    this.recordTrainingRound(league, [{ iteration, role, metrics }], []);
  }

  /**
   * Records one training round of a league atomically: each trained learner's iteration
   * metrics and the snapshot players the round added. Either all of it is stored or none, so
   * a killed league knows exactly which rounds it completed (see {@link trainedIterations}).
   */
  recordTrainingRound(league: string, rows: readonly { iteration: number; role: string; metrics: JsonValue }[], players: readonly PlayerRecord[]): void {
    const insert = this.db.prepare('INSERT OR REPLACE INTO training_metrics (league, iteration, role, metrics, time) VALUES (?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      const now = Date.now();
      for (const r of rows) insert.run(league, r.iteration, r.role, JSON.stringify(r.metrics), now);
      for (const p of players) this.addPlayer(league, p);
    })();
  }

  /** The last recorded training iteration of each learner (by its id, the `role` column) of a league. */
  trainedIterations(league: string): Map<string, number> {
    const rows = this.db.prepare('SELECT role, MAX(iteration) AS it FROM training_metrics WHERE league = ? GROUP BY role').all(league) as { role: string; it: number }[];
    return new Map(rows.map((r) => [r.role, r.it]));
  }

  trainingMetrics(league: string): { iteration: number; role: string; metrics: JsonValue; time: number }[] {
    const rows = this.db.prepare('SELECT * FROM training_metrics WHERE league = ? ORDER BY iteration, role').all(league) as Record<string, unknown>[];
    return rows.map((r) => ({ iteration: r.iteration as number, role: r.role as string, metrics: parse(r.metrics as string), time: r.time as number }));
  }
}

// Every method reports a data error of the file (damage found by a query, a disk error, a lock held
// too long) as one StoreError naming it, whatever the method.
translateErrorsOf(Store.prototype, (store) => store.db);
