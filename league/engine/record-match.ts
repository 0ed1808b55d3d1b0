/**
 * A match's record: what a plan's match produced (or that it failed on every attempt), rated and
 * written in one store transaction. The one place where a MatchRecord is built and stored for
 * scheduled play (league matches, tournament games, wherever they were played).
 */
import type { Subscription } from 'rxjs';
import type { EventBus } from '../../src/bus/event-bus';
import type { MatchEvent } from '../../src/core/events';
import type { JsonValue } from '../../src/core/json';
import { runMatch, type MatchOptions } from '../../src/match/runner';
import type { PackedEventLog } from '../../src/store/event-log';
import type { MatchRecord, Store } from '../../src/store/store';
import { FAILED_MATCH_CODE } from '../pair-results';
import type { RatingBook, RatingUpdate } from '../rating-book';
import { sidesOf } from '../sides';
import type { MatchPlan } from './match-plan';

/** What a finished match produced: its record's result fields (from runMatch in this process, or from a worker). */
export type PlayedMatch = Pick<MatchRecord, 'returns' | 'outcome' | 'code' | 'length' | 'faults' | 'summary' | 'reports' | 'startedAt' | 'endedAt'>;

/** How a plan's match ended: played (with its event log: the events, or packed where it was played), or failed on every attempt (no worker could play it). */
export type PlayOutcome = { ok: true; played: PlayedMatch; events: MatchEvent[] | PackedEventLog } | { ok: false; reason: string };

/** Where records go: the store, the ratings they update, the bus that hears `rating.updated`. */
export interface RecordTarget {
  store: Store;
  book: RatingBook;
  bus?: EventBus;
}

/** The record of a plan's match: what it produced, or a failed match (code "failed", returns 0, the reason in its summary). */
export function matchRecord(plan: MatchPlan, outcome: PlayOutcome, now = Date.now()): MatchRecord {
  const base = {
    league: plan.league,
    idx: plan.idx,
    id: plan.matchId,
    env: plan.envId,
    params: plan.params as JsonValue,
    seed: plan.seed,
    seats: plan.seats.map((s) => ({ player: s.player, role: s.role, team: s.team })),
  };
  if (!outcome.ok) {
    return { ...base, returns: plan.seats.map(() => 0), outcome: FAILED_MATCH_CODE, code: FAILED_MATCH_CODE, length: 0, faults: [], summary: { error: outcome.reason }, startedAt: now, endedAt: now };
  }
  const p = outcome.played;
  return {
    ...base,
    returns: p.returns,
    outcome: p.outcome,
    code: p.code,
    length: p.length,
    faults: p.faults,
    summary: p.summary,
    startedAt: p.startedAt,
    endedAt: p.endedAt,
    ...(p.reports ? { reports: p.reports } : {}),
  };
}

/**
 * Records a plan's outcome: a played match is rated with `book`; the match, its event log, the
 * rating rows and the deletion of its stored plan are written in ONE transaction, then
 * `rating.updated` is published on the bus under the league's id. A failed match has no events
 * and changes no rating (`update` is null).
 */
export function recordOutcome(plan: MatchPlan, outcome: PlayOutcome, t: RecordTarget): { record: MatchRecord; update: RatingUpdate | null } {
  const record = matchRecord(plan, outcome);
  if (!outcome.ok) {
    t.store.recordPlannedMatch(record, [], [], []);
    return { record, update: null };
  }
  const update = t.book.record(plan.idx, plan.matchId, plan.envId, sidesOf(record.seats, record.returns), plan.seats.map((s) => s.player));
  t.store.recordPlannedMatch(record, outcome.events, update.ratings, update.history);
  if (t.bus?.active) {
    t.bus.publish({
      type: 'rating.updated',
      league: plan.league,
      seq: plan.idx,
      time: Date.now(),
      visibility: 'public',
      data: { match: plan.matchId, ratings: update.ratings.map((r) => ({ system: r.system, player: r.player, role: r.role, value: r.value })) },
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
