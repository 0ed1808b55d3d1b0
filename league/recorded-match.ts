import type { Subscription } from 'rxjs';
import type { EventBus } from '../src/bus/event-bus';
import type { SeatInfo } from '../src/core/env';
import type { FaultRecord, MatchEvent } from '../src/core/events';
import type { JsonValue } from '../src/core/json';
import type { Params } from '../src/core/params';
import { runMatch, type MatchOptions } from '../src/match/runner';
import type { MatchRecord, Store } from '../src/store/store';
import type { RatingBook, RatingUpdate } from './rating-book';
import { sidesOf } from './sides';

/** One rated match of a league or tournament. */
export interface RecordedMatchInput {
  /** League or tournament id (the store's key). */
  league: string;
  /** Position in its schedule; also the rating history's time. */
  idx: number;
  /** The runMatch options (env, params, seed, agents, matchId, bus, deadline, faults, signal...). */
  match: MatchOptions & { matchId: string };
  /** The seats of the match (`env.seats(env.init(params, seed))`) and the player in each. */
  seats: readonly SeatInfo[];
  players: readonly string[];
  store: Store;
  book: RatingBook;
}

/** What a finished match produced, as the record needs it (from runMatch in this process, or from a worker). */
export interface PlayedMatch {
  returns: number[];
  outcome: string;
  code: string;
  length: number;
  faults: FaultRecord[];
  summary: JsonValue;
  reports?: (JsonValue | null)[];
  startedAt: number;
  endedAt: number;
}

/** Where a played match goes: its identity, seats and players, and the store and ratings it updates. */
export interface MatchRecordTarget {
  league: string;
  idx: number;
  matchId: string;
  /** Env id (`env.meta.id`). */
  env: string;
  params: Params;
  seed: number;
  seats: readonly SeatInfo[];
  players: readonly string[];
  store: Store;
  book: RatingBook;
  /** `rating.updated` is published here. */
  bus?: EventBus;
  /** Writes the record in one transaction (default `store.recordMatch`). */
  write?: Store['recordMatch'];
}

/**
 * Rates a played match with `book` and writes the match, its event log and the rating updates
 * in ONE store transaction, then publishes `rating.updated` on the bus under the league's id.
 */
export function recordPlayedMatch(t: MatchRecordTarget, played: PlayedMatch, events: readonly MatchEvent[]): { record: MatchRecord; update: RatingUpdate } {
  const update = t.book.record(t.idx, t.matchId, t.env, sidesOf(t.seats, played.returns), t.players);
  const record: MatchRecord = {
    league: t.league,
    idx: t.idx,
    id: t.matchId,
    env: t.env,
    params: t.params as JsonValue,
    seed: t.seed,
    seats: t.seats.map((s, i) => ({ player: t.players[i], role: s.role, team: s.team })),
    returns: played.returns,
    outcome: played.outcome,
    code: played.code,
    length: played.length,
    faults: played.faults,
    summary: played.summary,
    startedAt: played.startedAt,
    endedAt: played.endedAt,
    ...(played.reports ? { reports: played.reports } : {}),
  };
  (t.write ?? t.store.recordMatch.bind(t.store))(record, events, update.ratings, update.history);
  if (t.bus?.active) {
    t.bus.publish({
      type: 'rating.updated',
      league: t.league,
      seq: t.idx,
      time: Date.now(),
      visibility: 'public',
      data: { match: t.matchId, ratings: update.ratings.map((r) => ({ system: r.system, player: r.player, role: r.role, value: r.value })) },
    });
  }
  return { record, update };
}

/**
 * Plays one match with runMatch and collects its event log from `bus`; null when the match was
 * aborted (stop signal, or an effect that failed).
 */
export async function playCollected(match: MatchOptions & { matchId: string }): Promise<{ played: PlayedMatch; events: MatchEvent[] } | null> {
  const bus = match.bus;
  const events: MatchEvent[] = [];
  let sub: Subscription | undefined;
  if (bus) sub = bus.match(match.matchId).subscribe((e) => events.push(e));
  const startedAt = Date.now();
  let result;
  try {
    result = await runMatch(match);
  } finally {
    sub?.unsubscribe();
  }
  if (result.code === 'aborted') return null;
  const played: PlayedMatch = {
    returns: result.returns,
    outcome: result.outcome,
    code: result.code,
    length: result.length,
    faults: result.faults,
    summary: result.summary,
    startedAt,
    endedAt: Date.now(),
    ...(result.reports ? { reports: result.reports as (JsonValue | null)[] } : {}),
  };
  return { played, events };
}

/**
 * Plays one match and records it: the match, its event log (collected from `match.bus`) and the
 * rating updates of `book` are written in ONE store transaction, then `rating.updated` is
 * published on the bus under the league's id. Returns null, recording nothing, when the match
 * was aborted (stop signal), so a rerun plays it again from the start.
 */
export async function playRecordedMatch(input: RecordedMatchInput): Promise<{ record: MatchRecord; update: RatingUpdate } | null> {
  const { match } = input;
  const done = await playCollected(match);
  if (!done) return null;
  return recordPlayedMatch(
    { league: input.league, idx: input.idx, matchId: match.matchId, env: match.env.meta.id, params: match.params, seed: match.seed, seats: input.seats, players: input.players, store: input.store, book: input.book, bus: match.bus },
    done.played,
    done.events,
  );
}
