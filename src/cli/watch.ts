/**
 * `arena play --watch VIEWER`: the match stream on the terminal in the env's words, as the page
 * shows it. The events go through the server's own projection (LiveMatches: the state tracker
 * and the env's captions, src/server/event-captions.ts), so an action reads "P0: keep 1 book,
 * 2 hats and 0 balls" and a step event as the env says it; the rules come after the start and
 * the viewer's last observation in the env's text (its `render`) after the end. Events and
 * texts are those the viewer may see, nothing more.
 */
import type { EventBus } from '../bus/event-bus';
import type { Env } from '../core/env';
import { canSee, type Viewer } from '../core/visibility';
import { LiveMatches } from '../server/live-matches';
import { formatEvent } from './format-event';

/** Indents every line of a block of text. */
const indent = (text: string, pad: string) => text.split('\n').map((l) => pad + l).join('\n');

/**
 * Writes `viewer`'s events of every match of `env` on `bus` to `write`, one line each (see the
 * module comment). Returns a function that stops watching.
 */
export function watchMatches(bus: EventBus, env: Env, viewer: Viewer, write: (line: string) => void): () => void {
  const live = new LiveMatches(bus, { keepEnded: 1, resolveEnv: (id) => (id === env.meta.id ? env : undefined) });
  live.addListener({
    onMatchEvent(match, e) {
      if (!canSee(e.visibility, viewer, match.teamOf)) return;
      write(formatEvent(e, match.captions?.caption(e) ?? null));
      if (e.type === 'match.started') {
        const rules = match.captions?.rulesText();
        if (rules) write(indent(`rules: ${rules}`, '  '));
      }
      if (e.type === 'match.ended') {
        const text = match.tracker?.latest(viewer, 0)?.text;
        if (text) write(indent(text, '  | '));
      }
    },
  });
  return () => live.stop();
}
