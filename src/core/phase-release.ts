/**
 * No role from timing. In a hidden-role game (`meta.hiddenRoles`, announced by `match.started`'s
 * `seatsHidden`) how long a seat took is a secret: a slow agent (a language model) holding some
 * seats and a fast one holding the others would show, through decision times, which seats share
 * an agent — and agents fill whole teams. So the PUBLIC view of such a match is released per
 * *phase* (the public label an env puts on its steps with `phase(state)`, carried by each `turn`
 * event; Werewolf: "night 2", "day 2") on a clock that no seat's decision time moves:
 *
 * - a phase is a maximal run of steps with the same label; the events before the first `turn`
 *   (`match.started`) form an opening phase; a `turn` with another label, or `match.ended`,
 *   closes the current phase;
 * - the view's events of a phase are held until the phase is *due*, then released together, each
 *   stamped with that due time. The opening is due when it closes; phase k is due
 *   `due(k-1) + steps(k) × pace(k)`, where `steps(k)` is its number of steps (public: its `turn`
 *   events) and `pace(k)` the largest mean step time of the phases so far, every seat's steps
 *   alike, leaving out stalls (a mean above {@link STALL_FACTOR} × the lower median: a timeout).
 *   Such a phase is never due before it ends, so release times are a function of public step
 *   counts and of the match's slowest phase — not of which seats were slow, nor of when a phase
 *   really ended. What leaks: a phase that sets a new slowest mean is released when it ends (its
 *   mean is the new pace), and so is a stalled one, which does not slow the phases after it;
 * - an env without `phase` is one phase from its first turn to its end (nothing public is shown
 *   live until the match ends: the safe default);
 * - a log whose `match.started` was never seen (a server that joined mid-match) is treated as
 *   hidden-role: timing is hidden when in doubt.
 *
 * Seat and omniscient views are never held: they are entitled to exact timing (a player sees the
 * others speak as they speak). This module is pure (no timers): {@link ViewStream} says what to
 * release and after how long; src/bus/timed-release.ts waits. Live broadcast, late-join
 * snapshots, stored replays and `arena play --watch` all run the same stream, so they agree event
 * for event and stamp for stamp.
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

/**
 * How far above the typical phase (the lower median of the phases' mean step times) a phase's
 * mean may be and still set the pace: a slower phase (a stalled seat, a timeout) is released
 * when it ends instead of slowing every later phase to its pace.
 */
export const STALL_FACTOR = 3;

/**
 * The release clock of a match's public view (see the module comment): fed the match's events in
 * global order, it answers, for an event that closes a phase, when that phase is due (in the
 * events' clock, milliseconds); null for any other event. The opening is due when it closes;
 * phase k is due `due(k-1) + steps(k) × pace(k)` but never before it closed, where pace(k) is the
 * largest mean step time among the phases so far (phase k included) that are at most
 * {@link STALL_FACTOR} × the lower median of them all.
 */
export class PhaseClock {
  private readonly bounds = new PhaseBoundaries();
  /** Time of the turn that opened the phase in progress (the opening has none). */
  private start = 0;
  /** Steps of the phase in progress. */
  private steps = 0;
  /** Mean step time of every closed phase, ascending. */
  private readonly means: number[] = [];
  /** When the last closed phase is due; null before the opening closes. */
  private due: number | null = null;

  feed(e: MatchEvent): number | null {
    let due: number | null = null;
    if (this.bounds.closes(e)) {
      if (this.due === null) due = e.time;
      else {
        const mean = (e.time - this.start) / this.steps;
        this.means.splice(sortedIndex(this.means, mean), 0, mean);
        due = Math.max(e.time, this.due + this.steps * this.pace());
      }
      this.due = due;
      this.steps = 0;
      this.start = e.time;
    }
    if (e.type === 'turn') this.steps++;
    return due;
  }

  /** The largest phase mean within STALL_FACTOR × the lower median (0 when none is). */
  private pace(): number {
    const cap = STALL_FACTOR * this.means[(this.means.length - 1) >> 1];
    const k = sortedIndex(this.means, cap, true);
    return k > 0 ? this.means[k - 1] : 0;
  }
}

/** Where `x` goes in the ascending list `xs` (before equal values; after them with `after`). */
function sortedIndex(xs: readonly number[], x: number, after = false): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x || (after && xs[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a view receives: one of its events, or an item the caller queued with it (an observation). */
export type Released<X> = { event: MatchEvent; extra?: undefined } | { event?: undefined; extra: X };

/**
 * Items a view receives together: `through` is the global seq up to which the match's log is
 * now out for this view; `delay` how long after the event that released them (ms, in the events'
 * clock) they are due: 0 but for a phase of a hidden-role match.
 */
export interface Batch<X> {
  items: Released<X>[];
  through: number;
  delay: number;
}

/** How a stream releases: at once, per phase, or not known yet (a public view before `match.started`). */
type Mode = 'exact' | 'phase' | 'undecided';

/**
 * One view of one match as a stream: numbers the view's events 0, 1, 2... (its own sequence,
 * see view-stream.ts) and, for the public view of a hidden-role match, holds them per phase and
 * releases each phase stamped with its due time (see the module comment). Feed every event of
 * the match in global order with {@link push}. `X` is the type of extra items the caller sends
 * along (the server's observation points): they are held and released with the events around
 * them, never stamped.
 */
export class ViewStream<X = never> {
  private count = 0;
  private mode: Mode;
  private held: Released<X>[] = [];
  private readonly clock = new PhaseClock();

  constructor(
    readonly viewer: Viewer,
    private readonly teamOf: TeamOf,
  ) {
    this.mode = viewer === 'public' ? 'undecided' : 'exact';
  }

  /** The view's sequence number of its last numbered event, held ones included (-1 when none). */
  get last(): number {
    return this.count - 1;
  }

  /** True when this view is released per phase (a public view of a hidden-role match, or one not known yet). */
  get phased(): boolean {
    return this.mode !== 'exact';
  }

  /**
   * Feeds the match's next event (global order) with an extra item that goes before the event's
   * own (an observation of the step this event completed). Returns what the view receives because
   * of it — every event in exact mode; a closed phase, with the extra item (its last observation),
   * in phase mode, after which the event opens the next phase — or null while a phase is held.
   */
  push(e: MatchEvent, extra?: X): Batch<X> | null {
    if (this.mode === 'undecided' && e.type !== 'match.created') this.mode = e.type === 'match.started' && !e.seatsHidden ? 'exact' : 'phase';
    const due = this.clock.feed(e);
    const visible: Released<X> | null = canSee(e.visibility, this.viewer, this.teamOf) ? { event: { ...e, seq: this.count++ } } : null;
    if (this.mode === 'exact') {
      const items = this.held.splice(0);
      if (extra !== undefined) items.push({ extra });
      if (visible) items.push(visible);
      return { items, through: e.seq, delay: 0 };
    }
    if (due === null) {
      if (extra !== undefined) this.held.push({ extra });
      if (visible) this.held.push(visible);
      return null;
    }
    const items = this.held.map((r) => (r.event ? { event: { ...r.event, time: due } } : r));
    this.held = [];
    if (extra !== undefined) items.push({ extra });
    const ended = e.type === 'match.ended';
    if (visible) {
      if (ended) items.push({ event: { ...visible.event!, time: due } });
      else this.held.push(visible);
    }
    return { items, through: ended ? e.seq : e.seq - 1, delay: due - e.time };
  }
}

/**
 * A match log (global order, possibly still growing) as `viewer` receives it: its released events
 * (view numbering; per phase, with due-time stamps, for the public view of a hidden-role match)
 * and `through`, the global seq up to which the log is out (observations up to it may be shown).
 * `upTo`: only what was out by the release that made the log out through that seq (a live
 * server's public view, whose phases wait for their due time); default: everything released.
 */
export function releasedView(events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf, upTo = Infinity): { events: MatchEvent[]; through: number } {
  const stream = new ViewStream(viewer, teamOf);
  const out: MatchEvent[] = [];
  let through = -1;
  for (const e of events) {
    const batch = stream.push(e);
    if (!batch || batch.through > upTo) continue;
    for (const r of batch.items) out.push(r.event!);
    through = batch.through;
  }
  return { events: out, through };
}
