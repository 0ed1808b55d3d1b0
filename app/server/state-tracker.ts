import type { ActionMap, Env } from '../../src/core/env';
import type { MatchCreated, MatchEvent } from '../../src/core/events';
import type { JsonValue } from '../../src/core/json';
import { canSee, type TeamOf, type Viewer } from '../../src/core/visibility';
import { renderAsJson } from '../../src/core/normalize-env';

/** Finds the env of an id (the registry's `getEnv`); undefined when this server does not know it. */
export type EnvResolver = (envId: string) => Env | undefined;

/**
 * One view's observation after a step. `seq` is in the view's own sequence: the observation is
 * valid once the view has seen its event `seq` (the last event it may see of that step; -1:
 * before any event), so scrubbing a replay never shows a state before the events that made it.
 */
export interface ObservationPoint {
  seq: number;
  step: number;
  obs: JsonValue;
  /**
   * The env's own text for this observation (`env.render(obs)`: e.g. Kuhn poker's hole cards in
   * the omniscient view), for pages without a renderer of that env; absent when the env has no
   * `render` of its own or it threw.
   */
  text?: string;
}

/** A state after a step; `seq` is the global seq of the step's last event (the log's order). */
interface StatePoint {
  seq: number;
  step: number;
  state: unknown;
}

/**
 * Rebuilds a match's states from its omniscient event log (seed and params from match.created,
 * then each step's action events) so spectators can be shown `env.observe(state, viewer)` —
 * the env's ONE projection, the same one its agents see. Live and replayed matches go through
 * the same code, so their observations are identical.
 *
 * Any failure (unknown env, a step that throws, a log that started mid-match) turns the tracker
 * off for that match: spectators then get events only.
 */
export class StateTracker {
  private readonly points: StatePoint[] = [];
  private toAct: readonly number[] = [];
  private pending: ActionMap<unknown> = {};
  private count = 0;
  private step = 0;
  /** The state of a step whose events may still be arriving (closed by the next turn or the end). */
  private open: StatePoint | null = null;
  private lastSeq = -1;
  broken: string | null = null;

  private constructor(readonly env: Env) {}

  /** A tracker for a match, or null when its env is unknown or it cannot start. */
  static start(created: MatchCreated | undefined, resolve: EnvResolver | undefined): StateTracker | null {
    if (!created || !resolve) return null;
    const env = resolve(created.env);
    if (!env) return null;
    const t = new StateTracker(env);
    try {
      t.points.push({ seq: created.seq, step: 0, state: env.init(created.params, created.seed) });
    } catch {
      return null;
    }
    return t;
  }

  /**
   * Feeds the next event. Returns true when the event closes a step, i.e. the state after the
   * previous step is now complete (its last event was the one fed before this): send that
   * observation BEFORE forwarding this event.
   */
  feed(e: MatchEvent): boolean {
    if (this.broken) return false;
    let closed = false;
    if (this.open && (e.type === 'turn' || e.type === 'reward' || e.type === 'match.ended')) {
      this.open.seq = this.lastSeq;
      this.points.push(this.open);
      this.open = null;
      closed = true;
    }
    this.lastSeq = e.seq;
    if (e.type === 'turn') {
      this.toAct = e.toAct;
      this.pending = {};
      this.count = 0;
      return closed;
    }
    if (e.type !== 'action' || e.step !== this.step) return closed;
    if (!(e.seat in this.pending)) this.count++;
    this.pending[e.seat] = e.action;
    if (this.count < this.toAct.length) return closed;
    try {
      const state = this.env.step(this.points[this.points.length - 1].state, this.pending).state;
      this.step++;
      this.open = { seq: e.seq, step: this.step, state };
      this.pending = {};
      this.count = 0;
    } catch (err) {
      this.broken = `step ${this.step} failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    return closed;
  }

  /**
   * The state before step `step` (the state the step's actions were chosen in), or undefined
   * when that step is not closed yet or the tracker broke before it.
   */
  stateBefore(step: number): unknown {
    const p = this.points[step];
    return p && p.step === step ? p.state : undefined;
  }

  /** The observation of the latest closed step for `viewer`, labelled `viewSeq` (the view's last seq), or null. */
  latest(viewer: Viewer, viewSeq: number): ObservationPoint | null {
    return this.observeAt(this.points.length - 1, viewer, viewSeq);
  }

  /** Closed steps so far (the initial state included): `closedSteps - 1` indexes the latest. */
  get closedSteps(): number {
    return this.points.length;
  }

  /**
   * The observation of closed step `index` (0: the initial state) for `viewer`, labelled
   * `viewSeq`, or null (no such point, or observe threw): how a view that holds its events
   * (a public view released per phase) sends a step's observation later.
   */
  observeAt(index: number, viewer: Viewer, viewSeq: number): ObservationPoint | null {
    const p = this.points[index];
    return p ? this.observe(p, viewer, viewSeq) : null;
  }

  /**
   * Every closed step's observation for `viewer` up to global seq `upTo`, labelled in the view's
   * sequence of `events` (the match log the points were fed from).
   */
  history(viewer: Viewer, events: readonly MatchEvent[], teamOf: TeamOf, upTo = Infinity): ObservationPoint[] {
    const out: ObservationPoint[] = [];
    let k = 0;
    let visible = 0;
    for (const p of this.points) {
      if (p.seq > upTo) break;
      while (k < events.length && events[k].seq <= p.seq) if (canSee(events[k++].visibility, viewer, teamOf)) visible++;
      const o = this.observe(p, viewer, visible - 1);
      if (o) out.push(o);
    }
    return out;
  }

  private observe(p: StatePoint, viewer: Viewer, viewSeq: number): ObservationPoint | null {
    try {
      const obs = this.env.observe(p.state, viewer) as JsonValue;
      return { seq: viewSeq, step: p.step, obs, ...this.textOf(obs) };
    } catch {
      return null;
    }
  }

  /** `{text}` from the env's own render, or nothing. */
  private textOf(obs: JsonValue): { text?: string } {
    if (this.env.render === renderAsJson) return {};
    try {
      const text = this.env.render(obs);
      return typeof text === 'string' ? { text } : {};
    } catch {
      return {};
    }
  }
}

/** A tracker fed with a whole stored log (replays). */
export function trackLog(events: readonly MatchEvent[], resolve: EnvResolver | undefined): StateTracker | null {
  const created = events.find((e): e is MatchCreated => e.type === 'match.created');
  const t = StateTracker.start(created, resolve);
  if (t) for (const e of events) t.feed(e);
  return t;
}
