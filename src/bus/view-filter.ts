import { concatMap, type OperatorFunction } from 'rxjs';
import type { MatchEvent } from '../core/events';
import { ViewStream, releasedView } from '../core/phase-release';
import type { TeamOf, Viewer } from '../core/visibility';

/**
 * The events `viewer` may see by now, numbered in the view's own sequence (0, 1, 2...; see
 * src/core/view-stream.ts); for the public view of a hidden-role match, released per phase with
 * phase-stamped times (src/core/phase-release.ts: a live log's phase in progress is left out).
 * The same projection serves live broadcast and replays, so a replay and the live view of a
 * match are identical, no number counts hidden events and no time tells a seat's decision time.
 * `teamOf` comes from the match's seats (the omniscient `match.created` event).
 */
export function visibleTo(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf): MatchEvent[] {
  return releasedView(events, viewer, teamOf).events;
}

/** RxJS form of {@link visibleTo} for ONE match's events (a fresh view stream per subscription: it may hold a phase and release it later). */
export function filterForViewer(viewer: Viewer, teamOf: TeamOf): OperatorFunction<MatchEvent, MatchEvent> {
  return (source) => {
    const stream = new ViewStream(viewer, teamOf);
    return source.pipe(concatMap((e) => stream.push(e).map((r) => r.event!)));
  };
}

/** Seat -> team lookup from a match's `match.created` event. */
export function teamsFromCreated(created: { seats: { team: string }[] } | undefined): TeamOf {
  const teams = created?.seats.map((s) => s.team) ?? [];
  return (seat) => teams[seat];
}
