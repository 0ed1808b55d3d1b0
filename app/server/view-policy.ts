import type { Viewer } from '../../src/core/visibility';
import { viewKey, type ErrorCode, type ViewOption } from './protocol';

/** Who may watch what. */
export interface ViewPolicy {
  /** Server flag: omniscient and per-seat views of live matches are allowed (a referee or demo server). */
  allowOmniscient: boolean;
  /** Finished matches may be watched omnisciently or per seat (default true). */
  revealFinished: boolean;
}

export type ViewDecision = { ok: true } | { ok: false; code: ErrorCode; message: string };

/**
 * Decides whether `viewer` may watch a match. The public view is always allowed. A private
 * view (omniscient, or one seat's — a seat view of a live match would let a spectator whisper
 * to an opponent) needs the server flag, or a finished match when `revealFinished` holds.
 * A seat outside the match is refused. `seats` is the match's seat count when known.
 */
export function authorizeView(viewer: Viewer, match: { live: boolean; seats: number | null }, policy: ViewPolicy): ViewDecision {
  if (typeof viewer === 'number' && match.seats !== null && viewer >= match.seats) {
    return { ok: false, code: 'bad-request', message: `view: seat ${viewer} does not exist (the match has ${match.seats} seats: 0-${match.seats - 1})` };
  }
  if (viewer === 'public') return { ok: true };
  if (policy.allowOmniscient) return { ok: true };
  if (!match.live && policy.revealFinished) return { ok: true };
  const what = viewer === 'omniscient' ? 'the omniscient view' : `seat ${viewer}'s view`;
  return {
    ok: false,
    code: 'forbidden',
    message: match.live
      ? `${what} of a live match is not allowed on this server (allowed once the match has ended, or with --allow-omniscient)`
      : `${what} is not allowed on this server`,
  };
}

/**
 * Every view of a match (public, omniscient, each seat) with the policy's decision for it now:
 * what the page offers, and why it refuses the others. `seats` is the match's seat count when
 * known (no seat views otherwise).
 */
export function viewOptions(match: { live: boolean; seats: number | null }, policy: ViewPolicy): ViewOption[] {
  const viewers: Viewer[] = ['public', 'omniscient', ...Array.from({ length: match.seats ?? 0 }, (_, i) => i)];
  return viewers.map((viewer) => {
    const decision = authorizeView(viewer, match, policy);
    if (decision.ok) return { view: viewKey(viewer), allowed: true };
    const afterEnd = match.live && authorizeView(viewer, { ...match, live: false }, policy).ok;
    return { view: viewKey(viewer), allowed: false, reason: decision.message, ...(afterEnd ? { afterEnd } : {}) };
  });
}
