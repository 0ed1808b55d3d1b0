/**
 * Fixed-size encoding of an observation for neural agents, and fixed action indices covering
 * both protocols (stable for deal-or-no-deal-v1):
 *
 *   0..119   openspiel offer ids (OFFERS[id] = what the proposer keeps)    120  openspiel Agree
 *   121..240 dialogue message: the canonical proposal of offer (i - 121)   241  dialogue message "Deal."
 *   242      dialogue: move to the selection
 *   243..362 dialogue selection keeping offer (i - 243)                    363  dialogue no-agreement
 *
 * Free-text messages other than the two canonical phrasings have no index (-1). An integer
 * 0..363 is its own index, so an observation's `legal` list of indices serves as a legal action
 * list for masking (openspiel action ids are their indices; the dialogue lists the indices of
 * its canonical legal actions, and `action(i)` turns an index back into the action).
 */
import type { Encoder } from '../../src/core/env';
import { canonicalProposal, DEAL_TEXT, isDeal, parseProposal } from './messages';
import { AGREE, offerId, OFFERS } from './offers';
import { CHOOSE, DEAL, NO_DEAL, NUM_ACTIONS, PROPOSE, SELECTION } from './action-index';
import type { DondObservation } from './observe';

export { ACTION_INDEX, dialogueLegalIndices, NUM_ACTIONS } from './action-index';


// Feature layout (offsets into the encoded vector).
const F_PROTOCOL = 0; // 2: one-hot openspiel / dialogue
const F_MY_TURN = 2;
const F_OVER = 3;
const F_POOL_OH = 4; // 3 x 8: count of each item type
const F_VALUE_OH = 28; // 3 x 11: my value of each item type
const F_VALUES = 61; // 3: my values / 10
const F_POOL = 64; // 3: counts / 7
const F_TABLE_ON = 67; // an offer (openspiel) or canonical proposal (dialogue) is on the table
const F_TABLE_MINE = 68; // ... and I made it
const F_TABLE_OH = 69; // 3 x 8: what its proposer keeps
const F_MY_SHARE = 93; // 3: what I would get if it were accepted, / 7
const F_MY_SHARE_VALUE = 96; // its value to me / 10
const F_PREV_OH = 97; // 3 x 8: the offer before the last one (openspiel)
const F_TURN = 121; // turns used / max_turns
const F_TURNS_LEFT = 122; // 11: one-hot of min(max_turns - turn, 10)
const F_COOP = 133;
const F_MULTIPLIER = 134;
const F_DISCOUNT = 135;
const F_PROB_END = 136;
const F_TALK = 137;
const F_CHOOSE = 138;
const F_NO_AGREEMENT = 139;
const F_ACCEPTED = 140; // the latest proposal was answered "Deal."
const F_ACCEPTED_MINE = 141; // ... and it was my proposal
const F_PARTNER_CHOSE = 142;
const F_I_CHOSE = 143;
/** Length of an encoded observation. */
export const ENCODING_SIZE = 144;

function oneHot3(out: Float32Array, at: number, width: number, counts: readonly number[]): void {
  out[at + counts[0]] = 1;
  out[at + width + counts[1]] = 1;
  out[at + 2 * width + counts[2]] = 1;
}

/** Writes `obs` into `out` (zero-filled by the caller). */
function encodeInto(o: DondObservation, out: Float32Array): Float32Array {
  const me = o.seat;
  out[F_PROTOCOL + (o.protocol === 'openspiel' ? 0 : 1)] = 1;
  if (me !== null && o.toAct === me) out[F_MY_TURN] = 1;
  if (o.outcome !== '') out[F_OVER] = 1;
  const pool = o.pool;
  oneHot3(out, F_POOL_OH, 8, pool);
  out[F_POOL] = pool[0] / 7;
  out[F_POOL + 1] = pool[1] / 7;
  out[F_POOL + 2] = pool[2] / 7;
  const values = o.values ?? (o.allValues && me !== null ? o.allValues[me] : null);
  if (values) {
    oneHot3(out, F_VALUE_OH, 11, values);
    out[F_VALUES] = values[0] / 10;
    out[F_VALUES + 1] = values[1] / 10;
    out[F_VALUES + 2] = values[2] / 10;
  }
  const table = o.protocol === 'openspiel' ? o.lastOffer : o.proposal;
  if (table) {
    const keep = table.keep;
    const mine = table.seat === me;
    out[F_TABLE_ON] = 1;
    if (mine) out[F_TABLE_MINE] = 1;
    oneHot3(out, F_TABLE_OH, 8, keep);
    let v = 0;
    for (let i = 0; i < 3; i++) {
      const share = mine ? keep[i] : pool[i] - keep[i];
      out[F_MY_SHARE + i] = share / 7;
      if (values) v += values[i] * share;
    }
    out[F_MY_SHARE_VALUE] = v / 10;
  }
  const left = o.maxTurns - o.turn;
  out[F_TURN] = o.turn / o.maxTurns;
  out[F_TURNS_LEFT + (left > 10 ? 10 : left < 0 ? 0 : left)] = 1;
  out[F_COOP] = o.coop;
  if (o.protocol === 'openspiel') {
    const n = o.offers.length;
    if (n >= 2) oneHot3(out, F_PREV_OH, 8, OFFERS[o.offers[n - 2]]);
    out[F_MULTIPLIER] = o.multiplier;
    out[F_DISCOUNT] = o.discount;
    out[F_PROB_END] = o.probEnd;
  } else {
    out[F_MULTIPLIER] = 1;
    out[F_DISCOUNT] = 1;
    if (o.phase === 'talk') out[F_TALK] = 1;
    else if (o.phase === 'choose') out[F_CHOOSE] = 1;
    if (o.noAgreementAllowed) out[F_NO_AGREEMENT] = 1;
    if (o.accepted) {
      out[F_ACCEPTED] = 1;
      if (o.accepted.seat === me) out[F_ACCEPTED_MINE] = 1;
    }
    if (me !== null) {
      if (o.chosen[1 - me]) out[F_PARTNER_CHOSE] = 1;
      if (o.chosen[me]) out[F_I_CHOSE] = 1;
    }
  }
  return out;
}

/** The index of an action of either protocol, or -1 (free text other than the canonical phrasings). */
export function actionIndex(a: unknown): number {
  if (typeof a === 'number') return Number.isInteger(a) && a >= 0 && a < NUM_ACTIONS ? a : -1;
  if (a === null || typeof a !== 'object') return -1;
  const act = a as { type?: unknown; text?: unknown; keep?: unknown };
  switch (act.type) {
    case 'message': {
      if (typeof act.text !== 'string') return -1;
      const id = parseProposal(act.text);
      if (id >= 0) return PROPOSE + id;
      return isDeal(act.text) ? DEAL : -1;
    }
    case 'selection':
      return SELECTION;
    case 'choose': {
      const id = offerId(act.keep);
      return id >= 0 ? CHOOSE + id : -1;
    }
    case 'no-agreement':
      return NO_DEAL;
    default:
      return -1;
  }
}

/** The (canonical) action an index stands for. */
export function actionOf(i: number): number | { type: string; text?: string; keep?: number[] } {
  if (i <= AGREE) return i;
  if (i < DEAL) return { type: 'message', text: canonicalProposal(i - PROPOSE) };
  if (i === DEAL) return { type: 'message', text: DEAL_TEXT };
  if (i === SELECTION) return { type: 'selection' };
  if (i < NO_DEAL) return { type: 'choose', keep: [...OFFERS[i - CHOOSE]] };
  return { type: 'no-agreement' };
}

/** The env's encoder. */
export const encoder: Encoder<DondObservation, unknown> = {
  size: ENCODING_SIZE,
  numActions: NUM_ACTIONS,
  encode: (obs, out) => encodeInto(obs, out ?? new Float32Array(ENCODING_SIZE)),
  actionIndex,
  action: (i) => actionOf(i),
};
