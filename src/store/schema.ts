/**
 * SQLite schema of the arena store, applied in order by `openStore`. Append a new entry to add
 * a migration; never edit a released one. `PRAGMA user_version` records how many are applied.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE leagues (
    id          TEXT PRIMARY KEY,
    config      TEXT NOT NULL,            -- the league config JSON as given
    created_at  INTEGER NOT NULL
  );
  CREATE TABLE players (
    league      TEXT NOT NULL,
    id          TEXT NOT NULL,
    kind        TEXT NOT NULL,            -- baseline | snapshot | learner
    agent       TEXT NOT NULL,            -- agent spec (name, name:{options}, module path)
    version     INTEGER NOT NULL DEFAULT 0,
    roles       TEXT NOT NULL,            -- JSON list of roles it may play
    parent      TEXT,                     -- the snapshot it was trained from
    checkpoint  TEXT,                     -- checkpoint directory for neural players
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (league, id)
  );
  CREATE TABLE matches (
    league      TEXT NOT NULL,
    idx         INTEGER NOT NULL,         -- position in the league's schedule (0, 1, ...)
    id          TEXT NOT NULL UNIQUE,
    env         TEXT NOT NULL,
    params      TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    seats       TEXT NOT NULL,            -- JSON [{player, role, team}]
    returns     TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    code        TEXT NOT NULL,            -- ok | forfeit | aborted
    length      INTEGER NOT NULL,
    faults      TEXT NOT NULL,            -- JSON list of fault records
    summary     TEXT,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER NOT NULL,
    PRIMARY KEY (league, idx)
  );
  CREATE TABLE events (
    match_id    TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    type        TEXT NOT NULL,
    event       TEXT NOT NULL,            -- the whole event as JSON
    PRIMARY KEY (match_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE ratings (
    league      TEXT NOT NULL,
    system      TEXT NOT NULL,            -- elo | openskill
    player      TEXT NOT NULL,
    role        TEXT NOT NULL,            -- the role or team the rating is for
    value       REAL NOT NULL,            -- elo rating, or openskill ordinal
    state       TEXT NOT NULL,            -- JSON: system-specific state (mu, sigma, games)
    PRIMARY KEY (league, system, player, role)
  );
  CREATE TABLE rating_history (
    league      TEXT NOT NULL,
    system      TEXT NOT NULL,
    player      TEXT NOT NULL,
    role        TEXT NOT NULL,
    match_idx   INTEGER NOT NULL,
    value       REAL NOT NULL,
    time        INTEGER NOT NULL
  );
  CREATE INDEX rating_history_by_player ON rating_history (league, system, player, role, match_idx);
  CREATE TABLE training_metrics (
    league      TEXT NOT NULL,
    iteration   INTEGER NOT NULL,
    role        TEXT NOT NULL,
    metrics     TEXT NOT NULL,            -- JSON
    time        INTEGER NOT NULL,
    PRIMARY KEY (league, iteration, role)
  );
  `,
  `
  CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,         -- shares the namespace of leagues: matches, players, ratings use it as their league
    format      TEXT NOT NULL,            -- round-robin | gauntlet | swiss | sprt
    config      TEXT NOT NULL,            -- the tournament config JSON (its identity)
    created_at  INTEGER NOT NULL
  );
  CREATE TABLE tournament_rounds (
    tournament  TEXT NOT NULL,
    round       INTEGER NOT NULL,
    pairings    TEXT NOT NULL,            -- JSON [[a, b], ...] boards of the round
    bye         TEXT,                     -- the player with the bye, if any
    PRIMARY KEY (tournament, round)
  );
  `,
  // Agents' per-seat reports of each match (LLM model snapshot, tokens, latency, cost): JSON list or NULL.
  `ALTER TABLE matches ADD COLUMN reports TEXT;`,
  // Matches paired ahead of play (leagues with a pairing window, docs/scale-out.md): deleted when the match is recorded.
  `
  CREATE TABLE match_plans (
    league      TEXT NOT NULL,
    idx         INTEGER NOT NULL,
    plan        TEXT NOT NULL,            -- JSON: seed, players and their agents, files by content hash
    PRIMARY KEY (league, idx)
  );
  `,
  // A match's event log as ONE row (issue 27: one insert per match instead of one per event): the JSON array of its
  // events in seq order, deflate-compressed (src/store/event-log.ts), written with the match. Matches recorded before
  // this version keep one row per event in `events`, which Store.events still reads; new matches write nothing there.
  `
  CREATE TABLE event_logs (
    match_id    TEXT PRIMARY KEY,
    count       INTEGER NOT NULL,         -- number of events
    log         BLOB NOT NULL             -- raw deflate of the JSON array of the match's events in seq order
  );
  `,
];
