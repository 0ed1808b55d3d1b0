// @ts-check
/**
 * One-line words for the arena's own events (turns, messages, faults, the end). An env's events
 * and actions come with the env's words from the server (`caption`, app/server/event-captions.ts):
 * the page keeps no copy of any env's vocabulary.
 */
import { short } from '../dom.js';
import { num } from '../format.js';

/** @typedef {import('../types.js').ViewEvent} ViewEvent */

/**
 * The words for one event: the env's caption when the server sent one, else the arena's words.
 * @param {ViewEvent} e
 * @returns {string}
 */
export function describeEvent(e) {
  if (e.caption) return e.caption;
  switch (e.type) {
    case 'match.created':
      return `seed ${e.seed}; seats ${e.seats.map((s, i) => `P${i} ${s.role}${s.team !== s.role ? `/${s.team}` : ''}`).join(', ')}`;
    case 'match.started':
      return e.seatsHidden ? `players (seats secret): ${e.agents.join(', ')}` : e.agents.map((a, i) => `P${i} ${a}`).join(' vs ');
    case 'turn':
      return e.toAct.length ? `step ${e.step}: ${e.toAct.map((s) => (s < 0 ? 'the effect (work outside the env)' : `P${s}`)).join(', ')} to act` : `step ${e.step}`;
    case 'action':
      return `${e.seat < 0 ? "the env's effect" : `P${e.seat}`}: ${short(e.action, 80)}`;
    case 'env':
      return `${e.name} ${short(e.data, 100)}`;
    case 'message':
      return `${e.seat === null ? '' : `P${e.seat}: `}“${e.text}”`;
    case 'agent':
      return `P${e.seat} ${e.name}: ${short(e.data, 80)}`;
    case 'fault':
      return `P${e.seat} ${e.kind}: ${e.reason} → ${e.resolution}`;
    case 'reward':
      return `returns ${e.returns.map((r) => num(r, 3)).join(', ')}`;
    case 'match.ended':
      return `${e.outcome || e.code} after ${e.length} steps`;
  }
}

/**
 * Seat labels: "P0 (agent)".
 * @param {number} i
 * @param {readonly string[]} agents
 */
export function seatName(i, agents) {
  const a = agents[i];
  return a ? `P${i} (${a})` : `P${i}`;
}
