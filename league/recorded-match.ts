import type { Subscription } from 'rxjs';
import type { SeatInfo } from '../src/core/env';
import type { MatchEvent } from '../src/core/events';
import type { JsonValue } from '../src/core/json';
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

/**
 * Plays one match and records it: the match, its event log (collected from `match.bus`) and the
 * rating updates of `book` are written in ONE store transaction, then `rating.updated` is
 * published on the bus under the league's id. Returns null, recording nothing, when the match
 * was aborted (stop signal), so a rerun plays it again from the start.
 */
export async function playRecordedMatch(input: RecordedMatchInput): Promise<{ record: MatchRecord; update: RatingUpdate } | null> {
  const { match, seats, players, store, book } = input;
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
  const update = book.record(input.idx, match.matchId, match.env.meta.id, sidesOf(seats, result.returns), players);
  const record: MatchRecord = {
    league: input.league,
    idx: input.idx,
    id: match.matchId,
    env: match.env.meta.id,
    params: match.params as JsonValue,
    seed: match.seed,
    seats: seats.map((s, i) => ({ player: players[i], role: s.role, team: s.team })),
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
  if (bus?.active) {
    bus.publish({
      type: 'rating.updated',
      league: input.league,
      seq: input.idx,
      time: Date.now(),
      visibility: 'public',
      data: { match: match.matchId, ratings: update.ratings.map((r) => ({ system: r.system, player: r.player, role: r.role, value: r.value })) },
    });
  }
  return { record, update };
}
