/**
 * The `openspiel` protocol: OpenSpiel's `bargaining` game, rule for rule (README.md, "OpenSpiel
 * parity"). Seat 0 offers first; seats alternate; an action is an offer id 0..119 (what the
 * proposer keeps) or Agree (120), legal once an offer is on the table. The game ends on Agree,
 * once `max_turns` offers were made (returns 0, 0), or when the `prob_end` chance event fires
 * after an offer from the second one on. Returns on agreement: the last proposer gets its value
 * of what it keeps, the accepter its value of the rest, both times OpenSpiel's discount factor.
 */
import type { ActionCheck, EnvEvent, StepResult } from '../../src/core/env';
import { Rng, type RngState } from '../../src/core/rng';
import type { Instance } from './instance';
import { AGREE, legalIds, offerFits, OFFERS, restOf, valueOf } from './offers';
import type { Config } from './config';
import type { OpenSpielState } from './state';

/** A fresh game: seat 0 to make the first offer. */
export function initOpenSpiel(inst: Instance, cfg: Config, rng: RngState | null): OpenSpielState {
  return { protocol: 'openspiel', inst, cfg, offers: [], toAct: 0, outcome: '', disc: 1, rng };
}

/** OpenSpiel's LegalActions for `seat` (shared frozen array; empty when `seat` is not to act). */
export function legalOpenSpiel(s: OpenSpielState, seat: number): readonly number[] {
  return seat === s.toAct ? legalIds(s.inst.pool, s.offers.length > 0) : EMPTY;
}
const EMPTY: readonly number[] = Object.freeze([]);

/** Whether `seat` may play `action` now, with OpenSpiel's legality. */
export function validateOpenSpiel(s: OpenSpielState, seat: number, action: unknown): ActionCheck {
  if (s.toAct < 0) return { ok: false, reason: 'the game is over' };
  if (seat !== s.toAct) return { ok: false, reason: `seat ${String(seat)} is not to act (seat ${s.toAct} is)` };
  if (typeof action !== 'number' || !Number.isInteger(action) || action < 0 || action > AGREE) {
    return { ok: false, reason: `expected an action id: an offer 0..${AGREE - 1} or ${AGREE} = Agree (got ${describe(action)})` };
  }
  if (action === AGREE) return s.offers.length > 0 ? OK : { ok: false, reason: `Agree (${AGREE}) needs an offer on the table` };
  if (!offerFits(s.inst.pool, action)) {
    return { ok: false, reason: `offer ${action} keeps [${OFFERS[action].join(',')}], more than the pool [${s.inst.pool.join(',')}] holds` };
  }
  return OK;
}
const OK: ActionCheck = Object.freeze({ ok: true }) as ActionCheck;

function describe(a: unknown): string {
  try {
    return JSON.stringify(a) ?? String(a);
  } catch {
    return String(a);
  }
}

/** How an offer step ended, for the cached event lists. */
const After = {
  Continue: 0, // no chance node (first offer, or prob_end = 0)
  ChanceContinue: 1,
  ChanceEnd: 2,
  MaxTurns: 3,
} as const;
type After = (typeof After)[keyof typeof After];

// Events are immutable, so every possible event list is built once and shared (frozen).
const OFFER_EVENTS: (readonly EnvEvent[] | undefined)[] = new Array(4 * 2 * AGREE);
const AGREE_EVENTS: (readonly EnvEvent[] | undefined)[] = new Array(2 * AGREE);

function ev(type: string, data: EnvEvent['data']): EnvEvent {
  return Object.freeze({ type, visibility: 'public', data: Object.freeze(data) }) as EnvEvent;
}

function offerEvents(seat: number, id: number, after: After): readonly EnvEvent[] {
  const key = (after * 2 + seat) * AGREE + id;
  let list = OFFER_EVENTS[key];
  if (!list) {
    const out = [ev('offer', { seat, offer: id, keep: OFFERS[id] as number[] })];
    if (after === After.ChanceContinue || after === After.ChanceEnd) out.push(ev('chance', { outcome: after === After.ChanceEnd ? 'end' : 'continue' }));
    if (after === After.ChanceEnd) out.push(ev('end', { outcome: 'chance-end' }));
    if (after === After.MaxTurns) out.push(ev('end', { outcome: 'no-agreement' }));
    list = Object.freeze(out);
    OFFER_EVENTS[key] = list;
  }
  return list;
}

function agreeEvents(seat: number, id: number): readonly EnvEvent[] {
  const key = seat * AGREE + id;
  let list = AGREE_EVENTS[key];
  if (!list) {
    list = Object.freeze([ev('agree', { seat, offer: id }), ev('end', { outcome: 'agreement', offer: id, keep: OFFERS[id] as number[] })]);
    AGREE_EVENTS[key] = list;
  }
  return list;
}

/**
 * Applies the acting seat's action (already validated). Pure: the new state shares the instance
 * and config with the old one; the event lists are shared frozen constants.
 */
export function stepOpenSpiel(s: OpenSpielState, actions: Record<number, unknown>): StepResult<OpenSpielState> {
  const seat = s.toAct;
  const action = actions[seat] as number;
  const cfg = s.cfg;
  const n = s.offers.length;
  // OpenSpiel multiplies its discount_ on every player action with move_number_ >= 3; the
  // initial chance node is move 0 and continue-chance nodes sit only after actions 2, 3, ...,
  // so that is every player action from the third one on, with or without prob_end.
  const disc = n >= 2 && cfg.discount < 1 ? s.disc * cfg.discount : s.disc;
  if (action === AGREE) {
    const state: OpenSpielState = { protocol: 'openspiel', inst: s.inst, cfg, offers: s.offers, toAct: -1, outcome: 'agreement', disc, rng: s.rng };
    return { state, events: agreeEvents(seat, s.offers[n - 1]) as EnvEvent[] };
  }
  // A manual copy into an exact-size array: about twice as fast as slice() + push() for <= 100 ids.
  const offers: number[] = new Array(n + 1);
  for (let i = 0; i < n; i++) offers[i] = s.offers[i];
  offers[n] = action;
  let toAct = 1 - seat;
  let outcome: OpenSpielState['outcome'] = '';
  let rng = s.rng;
  let after: After = After.Continue;
  if (offers.length >= cfg.maxTurns) {
    toAct = -1;
    outcome = 'no-agreement';
    after = After.MaxTurns;
  } else if (n >= 1 && cfg.probEnd > 0) {
    // OpenSpiel's chance node after every offer from move_number_ 2 on: End with prob_end.
    const r = Rng.fromState(rng as RngState);
    const end = r.next() < cfg.probEnd;
    rng = r.state();
    after = end ? After.ChanceEnd : After.ChanceContinue;
    if (end) {
      toAct = -1;
      outcome = 'chance-end';
    }
  }
  return {
    state: { protocol: 'openspiel', inst: s.inst, cfg, offers, toAct, outcome, disc, rng },
    events: offerEvents(seat, action, after) as EnvEvent[],
  };
}

/**
 * OpenSpiel's Returns (each seat's own value of its share, discounted); [0, 0] without agreement.
 * The env's returns mix these with `coop`.
 */
export function ownScoresOpenSpiel(s: OpenSpielState): [number, number] {
  if (s.outcome !== 'agreement') return [0, 0];
  const n = s.offers.length;
  const proposer = (n + 1) % 2;
  const keep = OFFERS[s.offers[n - 1]];
  const v = s.inst.values;
  const scores: [number, number] = [0, 0];
  scores[proposer] = valueOf(v[proposer], keep);
  scores[1 - proposer] = valueOf(v[1 - proposer], restOf(s.inst.pool, keep));
  if (s.disc < 1) {
    scores[0] *= s.disc;
    scores[1] *= s.disc;
  }
  return scores;
}

/** The agreed split as [seat 0's share, seat 1's share], or null without agreement. */
export function dealOpenSpiel(s: OpenSpielState): [number[], number[]] | null {
  if (s.outcome !== 'agreement') return null;
  const n = s.offers.length;
  const proposer = (n + 1) % 2;
  const keep = [...OFFERS[s.offers[n - 1]]];
  const rest = restOf(s.inst.pool, keep);
  return proposer === 0 ? [keep, rest] : [rest, keep];
}
