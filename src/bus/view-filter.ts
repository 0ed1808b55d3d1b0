import { Observable, type OperatorFunction } from 'rxjs';
import type { MatchEvent } from '../core/events';
import { ViewStream, releasedView } from '../core/phase-release';
import type { TeamOf, Viewer } from '../core/visibility';
import { TimedRelease } from './timed-release';

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

/**
 * RxJS form of {@link visibleTo} for ONE match's live events (a fresh view stream per
 * subscription): a hidden-role match's public phases come out when they are due, on the wall
 * clock; the output completes once the source has and nothing waits.
 */
export function filterForViewer(viewer: Viewer, teamOf: TeamOf): OperatorFunction<MatchEvent, MatchEvent> {
  return (source) =>
    new Observable<MatchEvent>((out) => {
      const release = new TimedRelease(new ViewStream(viewer, teamOf), (batch) => {
        for (const r of batch.items) out.next(r.event!);
      });
      const sub = source.subscribe({
        next: (e) => release.push(e),
        error: (err: unknown) => out.error(err),
        complete: () => void release.drained().then(() => out.complete()),
      });
      return () => {
        sub.unsubscribe();
        release.stop();
      };
    });
}

/** Seat -> team lookup from a match's `match.created` event. */
export function teamsFromCreated(created: { seats: { team: string }[] } | undefined): TeamOf {
  const teams = created?.seats.map((s) => s.team) ?? [];
  return (seat) => teams[seat];
}
