import { releasedView } from '../../src/core/phase-release';
import type { Viewer } from '../../src/core/visibility';
import type { MatchSource } from './match-source';
import { viewKey, type SnapshotMessage } from './protocol';
import { viewOptions, type ViewPolicy } from './view-policy';

/**
 * A match so far as one (already authorized) view sees it: its released events in the view's own
 * numbering with the env's words (captions), its observations up to them, the views this server
 * allows and the rules in force. The socket `join` reply and the HTTP events endpoint are both
 * this. The public view of a match in memory ends where its public view has been released so far
 * (a hidden-role match's, per phase when the phase is due: src/core/phase-release.ts).
 */
export function viewSnapshot(src: MatchSource, viewer: Viewer, policy: ViewPolicy): SnapshotMessage {
  const all = src.events;
  const released = releasedView(all, viewer, src.teamOf, viewer === 'public' && src.liveMatch ? src.liveMatch.publicThrough : Infinity);
  const events = released.events.map((e) => (src.captions ? src.captions.attach(e) : e));
  return {
    ok: true,
    matchId: src.summary.id,
    view: viewKey(viewer),
    live: src.live,
    upTo: events.length - 1,
    events,
    observations: src.tracker?.history(viewer, all, src.teamOf, released.through) ?? [],
    match: src.summary,
    views: viewOptions({ live: src.live, seats: src.seats }, policy),
    rules: src.captions?.rulesText() ?? null,
  };
}
