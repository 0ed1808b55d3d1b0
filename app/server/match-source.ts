import { teamsFromCreated } from '../../src/bus/view-filter';
import type { MatchCreated, MatchEvent } from '../../src/core/events';
import type { TeamOf } from '../../src/core/visibility';
import type { MatchRecord, Store } from '../../src/store/store';
import type { LiveMatch, LiveMatches } from './live-matches';
import { EventCaptions } from './event-captions';
import type { MatchSummary } from './protocol';
import { trackLog, type EnvResolver, type StateTracker } from './state-tracker';

/** Where a match's events come from: the live buffer (running or recently ended) or the SQLite log. */
export interface MatchSource {
  live: boolean;
  /** Every event of the match so far, all visibilities, seq order. Live buffers keep growing. */
  events: readonly MatchEvent[];
  summary: MatchSummary;
  teamOf: TeamOf;
  /** Seat count when known. */
  seats: number | null;
  /** Rebuilt states for observations; null when the env is unknown here. */
  tracker: StateTracker | null;
  /** The env's words for the events; null when the env is unknown here. */
  captions: EventCaptions | null;
  /** The live buffer when the match is (or was recently) on the bus. */
  liveMatch?: LiveMatch;
}

/**
 * Public summary of a stored match. For an env with hidden roles (when `resolveEnv` knows it) the
 * players are listed once each, sorted, as its `match.started` lists them: no seats, no counts.
 */
export function storedSummary(m: MatchRecord, resolveEnv?: EnvResolver): MatchSummary {
  const players = m.seats.map((s) => s.player);
  return {
    id: m.id,
    env: m.env,
    agents: resolveEnv?.(m.env)?.meta.hiddenRoles ? [...new Set(players)].sort() : players,
    live: false,
    startedAt: m.startedAt,
    endedAt: m.endedAt,
    step: m.length,
    outcome: m.outcome,
    returns: m.returns,
    league: m.league,
  };
}

/**
 * Finds a match by id: first in memory (live and recently ended matches), then in the store.
 * Both paths hand back the full event log; callers filter it with the one view filter.
 */
export function findMatch(id: string, live: LiveMatches, store: Store | undefined, resolveEnv?: EnvResolver): MatchSource | null {
  const m = live.get(id);
  if (m) {
    const stored = !m.ended ? null : (store?.match(id) ?? null);
    const summary = live.summary(m);
    if (stored) summary.league = stored.league;
    const seats = m.created ? m.created.seats.length : m.agents.length || null;
    return { live: !m.ended, events: m.events, summary, teamOf: m.teamOf, seats, tracker: m.tracker, captions: m.captions, liveMatch: m };
  }
  if (!store) return null;
  const rec = store.match(id);
  if (!rec) return null;
  const events = store.events(id);
  const created = events.find((e): e is MatchCreated => e.type === 'match.created');
  const tracker = trackLog(events, resolveEnv);
  const env = tracker?.env ?? resolveEnv?.(rec.env);
  return { live: false, events, summary: storedSummary(rec, resolveEnv), teamOf: teamsFromCreated(created ?? rec), seats: rec.seats.length, tracker, captions: env ? new EventCaptions(env, tracker) : null };
}
