/**
 * No role from timing. In a hidden-role game (`meta.hiddenRoles`, announced by `match.started`'s
 * `seatsHidden`) how long a seat took is a secret: a slow agent (a language model) holding some
 * seats and a fast one holding the others would show, through per-seat decision times, which
 * seats share an agent — and agents fill whole teams. So the PUBLIC view of such a match is
 * released per *phase* (the public label an env puts on its steps with `phase(state)`, carried by
 * each `turn` event; Werewolf: "night 2", "day 2"), never per decision:
 *
 * - a phase is a maximal run of steps with the same label; the events before the first `turn`
 *   (`match.started`) form an opening phase; a `turn` with another label, or `match.ended`,
 *   closes the current phase;
 * - the view's events of a phase are held until the phase closes, then released together, each
 *   stamped with the closing moment (`time` = the time of the event that closed it); so neither
 *   the arrival of a public event nor its `time` says which seat took how long inside a phase;
 * - an env without `phase` is one phase from its first turn to its end (nothing public is shown
 *   live until the match ends: the safe default);
 * - a log whose `match.started` was never seen (a server that joined mid-match) is treated as
 *   hidden-role: timing is hidden when in doubt.
 *
 * Seat and omniscient views are not held: they are entitled to exact timing (a player sees the
 * others speak as they speak). What stays visible publicly is each phase's total duration and
 * the match's; docs/architecture.md says what that can and cannot reveal.
 *
 * Live broadcast, late-join snapshots, stored replays and `arena play --watch` all use
 * {@link ViewStream} (a replay runs the log through one), so they agree event for event.
 */
import type { MatchEvent } from './events';
import { canSee, type TeamOf, type Viewer } from './visibility';

/**
 * Tracks phases over a match's events in global order: `closes(e)` answers whether `e` closes
 * the phase in progress (a `turn` whose phase label differs from the current one, or
 * `match.ended`). A turn without a label has the label "" (one phase for an env without `phase`).
 */
export class PhaseBoundaries {
  /** The current phase's label; null before the first turn (the opening phase). */
  private label: string | null = null;

  closes(e: MatchEvent): boolean {
    if (e.type === 'match.ended') return true;
    if (e.type !== 'turn') return false;
    const label = e.phase ?? '';
    const closes = label !== this.label;
    this.label = label;
    return closes;
  }
}

/** What a view receives: one of its events, or an item the caller queued with it (an observation). */
export type Released<X> = { event: MatchEvent; extra?: undefined } | { event?: undefined; extra: X };

/** How a stream releases: at once, per phase, or not known yet (a public view before `match.started`). */
type Mode = 'exact' | 'phase' | 'undecided';

/**
 * One view of one match as a stream: numbers the view's events 0, 1, 2... (its own sequence,
 * see view-stream.ts) and, for the public view of a hidden-role match, holds them until their
 * phase closes (see the module comment). Feed every event of the match in global order with
 * {@link push}; it answers what the view receives now, in order. `X` is the type of extra items
 * the caller sends along (the hub's observation points): they are held and released with the
 * events around them, never stamped.
 */
export class ViewStream<X = never> {
  private count: number;
  private mode: Mode;
  private held: Released<X>[] = [];
  private readonly phases = new PhaseBoundaries();
  private through = -1;

  /** `seen`: how many events of this view were already delivered (a snapshot's length). */
  constructor(
    readonly viewer: Viewer,
    private readonly teamOf: TeamOf,
    seen = 0,
  ) {
    this.count = seen;
    this.mode = viewer === 'public' ? 'undecided' : 'exact';
  }

  /**
   * A stream that has followed `events` (a live match's log so far, global order) and continues
   * after it: what a view opened mid-match needs (its numbering, whether it is held per phase).
   * What the log released is not returned (the caller sent it as a snapshot); a held phase's
   * events stay held, its observations are not rebuilt.
   */
  static resume<X>(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf): ViewStream<X> {
    const stream = new ViewStream<X>(viewer, teamOf);
    for (const e of events) stream.push(e);
    return stream;
  }

  /** The view's sequence number of its last numbered event, held ones included (-1 when none). */
  get last(): number {
    return this.count - 1;
  }

  /** True when this view is released per phase (a public view of a hidden-role match, or one not known yet). */
  get phased(): boolean {
    return this.mode !== 'exact';
  }

  /** Global seq of the last event whose part of this view has been released (-1 when none). */
  get releasedThrough(): number {
    return this.through;
  }

  /**
   * Feeds the match's next event (global order) with an extra item that goes before the event's
   * own (an observation of the step this event completed); returns what the view receives now,
   * in order. An event that closes a phase releases the phase's items and the extra item (the
   * phase's last observation), then opens the next phase with its own part.
   */
  push(e: MatchEvent, extra?: X): Released<X>[] {
    if (this.mode === 'undecided' && e.type !== 'match.created') this.mode = e.type === 'match.started' && !e.seatsHidden ? 'exact' : 'phase';
    const closes = this.phases.closes(e);
    const visible: Released<X> | null = canSee(e.visibility, this.viewer, this.teamOf) ? { event: { ...e, seq: this.count++ } } : null;
    if (this.mode === 'exact') {
      const out = this.held.splice(0);
      if (extra !== undefined) out.push({ extra });
      if (visible) out.push(visible);
      this.through = e.seq;
      return out;
    }
    if (!closes) {
      if (extra !== undefined) this.held.push({ extra });
      if (visible) this.held.push(visible);
      return [];
    }
    const out = this.held.map((r) => (r.event ? { event: { ...r.event, time: e.time } } : r));
    this.held = [];
    if (extra !== undefined) out.push({ extra });
    const ended = e.type === 'match.ended';
    if (visible) (ended ? out : this.held).push(visible);
    this.through = ended ? e.seq : e.seq - 1;
    return out;
  }
}

/**
 * A match log (global order, possibly still growing) as `viewer` receives it by now: the events
 * released so far (view numbering, phase-stamped times where held per phase) and the global seq
 * of the last event whose part of the view is released (`through`: observations up to it may be
 * shown). A finished match is released whole.
 */
export function releasedView(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf): { events: MatchEvent[]; through: number } {
  const stream = new ViewStream(viewer, teamOf);
  const out: MatchEvent[] = [];
  for (const e of events) for (const r of stream.push(e)) out.push(r.event!);
  return { events: out, through: stream.releasedThrough };
}
