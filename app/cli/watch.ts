/**
 * `arena play --watch VIEWER`: the match stream on the terminal in the env's words, as the page
 * shows it. The events go through the server's own projection (LiveMatches: the state tracker
 * and the env's captions, app/server/event-captions.ts), so an action reads "P0: keep 1 book,
 * 2 hats and 0 balls" and a step event as the env says it; the rules come after the start and
 * the viewer's last observation in the env's text (its `render`) after the end. Events and
 * texts are those the viewer may see, nothing more, and no sooner than the page would show them.
 */
import type { EventBus } from '../../src/bus/event-bus';
import type { Env } from '../../src/core/env';
import { canSee, type Viewer } from '../../src/core/visibility';
import { ViewStream } from '../../src/core/phase-release';
import { TimedRelease } from '../../src/bus/timed-release';
import { LiveMatches } from '../server/live-matches';
import { formatEvent } from './format-event';

/** Indents every line of a block of text. */
const indent = (text: string, pad: string) => text.split('\n').map((l) => pad + l).join('\n');

/** A watch in progress: `drained()` resolves once every line due so far is written. */
export interface Watch {
  drained(): Promise<void>;
  stop(): void;
}

/**
 * Writes `viewer`'s events of every match of `env` on `bus` to `write`, one line each (see the
 * module comment). Each match's view goes through its own {@link TimedRelease}, as on the live
 * server: the public view of a hidden-role match prints each phase when it is due
 * (src/core/phase-release.ts), so the terminal's timing says no more than the page's.
 */
export function watchMatches(bus: EventBus, env: Env, viewer: Viewer, write: (line: string) => void): Watch {
  const live = new LiveMatches(bus, { keepEnded: 1, resolveEnv: (id) => (id === env.meta.id ? env : undefined) });
  let release: TimedRelease | null = null;
  // The lines of the view's events, in the view's order: the stream numbers them 0, 1, 2... and
  // releases them in that order, so the k-th released event prints lines[k]. Captions and texts
  // are taken when the event arrives (the tracker's state then), printed when it is due.
  let lines: string[][] = [];
  live.addListener({
    onMatchEvent(match, e) {
      if (e.type === 'match.created') {
        release?.stop();
        lines = [];
        const mine = lines;
        release = new TimedRelease(new ViewStream(viewer, (seat) => match.teamOf(seat)), (batch) => {
          for (const r of batch.items) if (r.event) for (const line of mine[r.event.seq] ?? []) write(line);
        });
      }
      if (canSee(e.visibility, viewer, match.teamOf)) {
        const out = [formatEvent(e, match.captions?.caption(e) ?? null)];
        if (e.type === 'match.started') {
          const rules = match.captions?.rulesText();
          if (rules) out.push(indent(`rules: ${rules}`, '  '));
        }
        if (e.type === 'match.ended') {
          const text = match.tracker?.latest(viewer, 0)?.text;
          if (text) out.push(indent(text, '  | '));
        }
        lines.push(out);
      }
      release?.push(e);
    },
  });
  return {
    drained: () => release?.drained() ?? Promise.resolve(),
    stop() {
      release?.stop();
      live.stop();
    },
  };
}
