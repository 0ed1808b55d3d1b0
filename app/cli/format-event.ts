import type { MatchEvent } from '../../src/core/events';
import { jsonText } from './json-output';

/**
 * One human-readable line for a match event (the terminal's view of the stream). `caption` is
 * the env's words for it where the env has them (an action by its name, "P0: keep 1 book, 2 hats
 * and 0 balls"; a step event as the env says it), the words the page shows
 * (app/server/event-captions.ts); without one, actions and env events show their JSON.
 */
export function formatEvent(e: MatchEvent, caption: string | null = null): string {
  switch (e.type) {
    case 'match.started':
      return `▶ ${e.env} ${JSON.stringify(e.params)} — ${e.agents.join(' vs ')}`;
    case 'match.created':
      return `  (seats: ${e.seats.map((s, i) => `${i}=${s.role}`).join(' ')}, seed ${e.seed})`;
    case 'turn':
      return `  step ${e.step}: seat${e.toAct.length > 1 ? 's' : ''} ${e.toAct.join(',')} to act`;
    case 'action':
      return caption === null ? `    seat ${e.seat} → ${JSON.stringify(e.action)}` : `    ${caption}`;
    case 'message':
      return `    ${e.seat === null ? '' : `seat ${e.seat}: `}“${e.text}”`;
    case 'env':
      return caption === null ? `    ${e.name} ${JSON.stringify(e.data)}` : `    ${caption}`;
    case 'agent':
      return `    seat ${e.seat} (${e.name}) ${JSON.stringify(e.data).slice(0, 200)}`;
    case 'fault':
      return `  ! seat ${e.seat} ${e.kind}: ${e.reason} (${e.resolution})`;
    case 'reward':
      return `  returns ${jsonText(e.returns)}`;
    case 'match.ended':
      return `■ ${e.outcome} (${e.code}) after ${e.length} steps`;
  }
}
