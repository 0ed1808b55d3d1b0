import { filter, map, type OperatorFunction } from 'rxjs';
import type { MatchEvent } from '../core/events';
import { ViewSequence, projectEvents } from '../core/view-stream';
import type { TeamOf, Viewer } from '../core/visibility';

/**
 * The events `viewer` may see, numbered in the view's own sequence (0, 1, 2...; see
 * src/core/view-stream.ts). The same projection serves live broadcast and replays, so a replay
 * and the live view of a match are identical and no number counts hidden events.
 * `teamOf` comes from the match's seats (the omniscient `match.created` event).
 */
export function visibleTo(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf): MatchEvent[] {
  return projectEvents(events, viewer, teamOf);
}

/** RxJS form of {@link visibleTo} for ONE match's events (a fresh view sequence per subscription). */
export function filterForViewer(viewer: Viewer, teamOf: TeamOf): OperatorFunction<MatchEvent, MatchEvent> {
  return (source) => {
    const seq = new ViewSequence(viewer, teamOf);
    return source.pipe(
      map((e) => seq.next(e)),
      filter((e): e is MatchEvent => e !== null),
    );
  };
}

/** Seat -> team lookup from a match's `match.created` event. */
export function teamsFromCreated(created: { seats: { team: string }[] } | undefined): TeamOf {
  const teams = created?.seats.map((s) => s.team) ?? [];
  return (seat) => teams[seat];
}
