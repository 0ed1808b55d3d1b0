/** One-line descriptions of events for the timeline (any env). */
import { short } from '../dom.js';

export function describeEvent(e) {
  switch (e.type) {
    case 'match.created':
      return `seed ${e.seed}; seats ${e.seats.map((s, i) => `${i}:${s.role}${s.team !== s.role ? `/${s.team}` : ''}`).join(' ')}`;
    case 'match.started':
      return e.agents.join(' vs ');
    case 'turn':
      return `step ${e.step}: seat ${e.toAct.join(', ')} to act`;
    case 'action':
      return `seat ${e.seat}: ${short(e.action, 80)}`;
    case 'env':
      return short(e.data, 100);
    case 'message':
      return `${e.seat === null ? '' : `seat ${e.seat}: `}“${e.text}”`;
    case 'fault':
      return `seat ${e.seat} ${e.kind}: ${e.reason} → ${e.resolution}`;
    case 'reward':
      return `returns ${e.returns.map((r) => +r.toFixed(3)).join(', ')}`;
    case 'match.ended':
      return `${e.outcome || e.code} after ${e.length} steps`;
    default:
      return short(e, 100);
  }
}

/** Seat labels: "P0 (agent)". */
export function seatName(i, agents) {
  const a = agents?.[i];
  return a ? `P${i} (${a})` : `P${i}`;
}

/** The hidden seat roles when this view holds match.created (omniscient), else null. */
export function rolesFromEvents(events) {
  const created = events.find((e) => e.type === 'match.created');
  return created ? created.seats.map((s) => s.role) : null;
}

/**
 * Agent name per seat: from match.created when this view may see it (omniscient, or a finished
 * match), else from match.started (public). With hidden roles, match.started lists the agents
 * without their seats (`seatsHidden`), so seats get no name rather than a wrong one.
 */
export function agentsFromEvents(events, match) {
  const created = events.find((e) => e.type === 'match.created');
  if (created) return created.seats.map((s) => s.agent);
  const started = events.find((e) => e.type === 'match.started');
  if (started) return started.seatsHidden ? started.agents.map(() => '') : started.agents;
  return match?.agents ?? [];
}

/** Final returns, once a reward event is shown. */
export function returnsFromEvents(events) {
  const r = events.findLast ? events.findLast((e) => e.type === 'reward') : [...events].reverse().find((e) => e.type === 'reward');
  return r ? r.returns : null;
}
