import type { ActionMap, Env } from '../core/env';
import type { MatchCreated, MatchEvent } from '../core/events';
import type { JsonValue } from '../core/json';
import type { Viewer } from '../core/visibility';

/** Finds the env of an id (the registry's `getEnv`); undefined when this server does not know it. */
export type EnvResolver = (envId: string) => Env | undefined;

/** One view's observation after a step; valid from event `seq` on (the step's last action). */
export interface ObservationPoint {
  seq: number;
  step: number;
  obs: JsonValue;
}

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
  broken: string | null = null;

  private constructor(private readonly env: Env) {}

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

  /** Feeds the next event; true when it completed a step (a new state exists). */
  feed(e: MatchEvent): boolean {
    if (this.broken) return false;
    if (e.type === 'turn') {
      this.toAct = e.toAct;
      this.pending = {};
      this.count = 0;
      return false;
    }
    if (e.type !== 'action' || e.step !== this.step) return false;
    if (!(e.seat in this.pending)) this.count++;
    this.pending[e.seat] = e.action;
    if (this.count < this.toAct.length) return false;
    try {
      const state = this.env.step(this.points[this.points.length - 1].state, this.pending).state;
      this.step++;
      this.points.push({ seq: e.seq, step: this.step, state });
      this.pending = {};
      this.count = 0;
      return true;
    } catch (err) {
      this.broken = `step ${this.step} failed: ${err instanceof Error ? err.message : String(err)}`;
      return false;
    }
  }

  /** The latest observation for `viewer`, or null when it cannot be built. */
  latest(viewer: Viewer): ObservationPoint | null {
    const p = this.points[this.points.length - 1];
    return p ? this.observe(p, viewer) : null;
  }

  /** Every step's observation for `viewer` up to event `upTo` (inclusive). */
  history(viewer: Viewer, upTo = Infinity): ObservationPoint[] {
    const out: ObservationPoint[] = [];
    for (const p of this.points) {
      if (p.seq > upTo) break;
      const o = this.observe(p, viewer);
      if (o) out.push(o);
    }
    return out;
  }

  private observe(p: StatePoint, viewer: Viewer): ObservationPoint | null {
    try {
      return { seq: p.seq, step: p.step, obs: this.env.observe(p.state, viewer) as JsonValue };
    } catch {
      return null;
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
