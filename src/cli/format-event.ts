import type { MatchEvent } from '../core/events';

/** One human-readable line for a match event (the terminal's view of the stream). */
export function formatEvent(e: MatchEvent): string {
  switch (e.type) {
    case 'match.started':
      return `▶ ${e.env} ${JSON.stringify(e.params)} — ${e.agents.join(' vs ')}`;
    case 'match.created':
      return `  (seats: ${e.seats.map((s, i) => `${i}=${s.role}`).join(' ')}, seed ${e.seed})`;
    case 'turn':
      return `  step ${e.step}: seat${e.toAct.length > 1 ? 's' : ''} ${e.toAct.join(',')} to act`;
    case 'action':
      return `    seat ${e.seat} → ${JSON.stringify(e.action)}`;
    case 'message':
      return `    ${e.seat === null ? '' : `seat ${e.seat}: `}“${e.text}”`;
    case 'env':
      return `    ${e.name} ${JSON.stringify(e.data)}`;
    case 'agent':
      return `    seat ${e.seat} (${e.name}) ${JSON.stringify(e.data).slice(0, 200)}`;
    case 'fault':
      return `  ! seat ${e.seat} ${e.kind}: ${e.reason} (${e.resolution})`;
    case 'reward':
      return `  returns ${JSON.stringify(e.returns)}`;
    case 'match.ended':
      return `■ ${e.outcome} (${e.code}) after ${e.length} steps`;
  }
}
