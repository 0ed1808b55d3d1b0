/**
 * Per-view event numbering. The runner numbers a match's events in one global sequence (the
 * omniscient log order, what the store keeps). A view must never see that number: the gaps
 * between two public events would count the hidden events in between (which seats acted at
 * night, whether the seer is still alive). Every view therefore gets its own sequence: the
 * events it may see, renumbered 0, 1, 2... in order. Live broadcast, late-join snapshots,
 * stored replays and `--watch` all go through these functions, so they agree.
 */
import type { MatchEvent } from './events';
import { canSee, type TeamOf, type Viewer } from './visibility';

/** Renumbers an event into a view's sequence (a shallow copy; the log's event is untouched). */
function renumbered(e: MatchEvent, seq: number): MatchEvent {
  return { ...e, seq };
}

/** The events `viewer` may see, in order, numbered 0..n-1 in the view's own sequence. */
export function projectEvents(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf): MatchEvent[] {
  const out: MatchEvent[] = [];
  for (const e of events) if (canSee(e.visibility, viewer, teamOf)) out.push(renumbered(e, out.length));
  return out;
}

/**
 * The view sequence number of the last event `viewer` may see at or before global seq `upTo`
 * (-1 when none): how a view labels "the state after the event with global seq upTo".
 */
export function viewSeqAt(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf, upTo: number): number {
  let n = 0;
  for (const e of events) {
    if (e.seq > upTo) break;
    if (canSee(e.visibility, viewer, teamOf)) n++;
  }
  return n - 1;
}

/**
 * An incremental view sequence for live streams: feed every event of the match in global order;
 * `next` answers the renumbered event when the view may see it, else null.
 */
export class ViewSequence {
  private count: number;

  /** `seen`: how many events of this view were already delivered (a snapshot's length). */
  constructor(
    readonly viewer: Viewer,
    private readonly teamOf: TeamOf,
    seen = 0,
  ) {
    this.count = seen;
  }

  /** The view's sequence number of its last delivered event (-1 when none). */
  get last(): number {
    return this.count - 1;
  }

  next(e: MatchEvent): MatchEvent | null {
    if (!canSee(e.visibility, this.viewer, this.teamOf)) return null;
    return renumbered(e, this.count++);
  }
}
