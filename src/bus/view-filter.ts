import { filter, type OperatorFunction } from 'rxjs';
import type { MatchEvent } from '../core/events';
import { canSee, type TeamOf, type Viewer } from '../core/visibility';

/**
 * Keeps the events `viewer` may see. The same function serves live broadcast and replays,
 * so a replay and the live view of a match are identical.
 * `teamOf` comes from the match's seats (the omniscient `match.created` event).
 */
export function visibleTo(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf): MatchEvent[] {
  return events.filter((e) => canSee(e.visibility, viewer, teamOf));
}

/** RxJS form of {@link visibleTo}. */
export function filterForViewer(viewer: Viewer, teamOf: TeamOf): OperatorFunction<MatchEvent, MatchEvent> {
  return filter((e) => canSee(e.visibility, viewer, teamOf));
}

/** Seat -> team lookup from a match's `match.created` event. */
export function teamsFromCreated(created: { seats: { team: string }[] } | undefined): TeamOf {
  const teams = created?.seats.map((s) => s.team) ?? [];
  return (seat) => teams[seat];
}
