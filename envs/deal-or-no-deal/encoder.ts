/**
 * Fixed-size encoding of an observation for neural agents, and fixed action indices covering
 * both protocols (stable for deal-or-no-deal-v1):
 *
 *   0..119   openspiel offer ids (OFFERS[id] = what the proposer keeps)    120  openspiel Agree
 *   121..240 dialogue message: the canonical proposal of offer (i - 121)   241  dialogue message "Deal."
 *   242      dialogue: move to the selection
 *   243..362 dialogue selection keeping offer (i - 243)                    363  dialogue no-agreement
 *
 * Free-text messages other than the two canonical phrasings have no index (-1).
 */
import type { Encoder } from '../../src/core/env';
import { canonicalProposal, DEAL_TEXT, isDeal, parseProposal } from './messages';
import { AGREE, NUM_OFFERS, offerId, OFFERS } from './offers';
import type { DondObservation } from './observation';

const PROPOSE = AGREE + 1; // 121
const DEAL = PROPOSE + NUM_OFFERS; // 241
const SELECTION = DEAL + 1; // 242
const CHOOSE = SELECTION + 1; // 243
const NO_DEAL = CHOOSE + NUM_OFFERS; // 363
/** Number of action indices (364). */
export const NUM_ACTIONS = NO_DEAL + 1;

// Feature layout (offsets into the encoded vector).
const F = {
  protocol: 0, // 2: one-hot openspiel / dialogue
  myTurn: 2,
  over: 3,
  poolOneHot: 4, // 3 x 8: count of each item type
  valueOneHot: 28, // 3 x 11: my value of each item type
  values: 61, // 3: my values / 10
  pool: 64, // 3: counts / 7
  tableOn: 67, // an offer (openspiel) or canonical proposal (dialogue) is on the table
  tableMine: 68, // ... and I made it
  tableOneHot: 69, // 3 x 8: what its proposer keeps
  myShare: 93, // 3: what I would get if it were accepted, / 7
  myShareValue: 96, // its value to me / 10
  prevOneHot: 97, // 3 x 8: the offer before the last one (openspiel)
  turn: 121, // turns used / max_turns
  turnsLeft: 122, // 11: one-hot of min(max_turns - turn, 10)
  coop: 133,
  multiplier: 134,
  discount: 135,
  probEnd: 136,
  talk: 137,
  choose: 138,
  noAgreement: 139,
  accepted: 140, // the latest proposal was answered "Deal."
  acceptedMine: 141, // ... and it was my proposal
  partnerChose: 142,
  iChose: 143,
} as const;
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
  out[F.protocol + (o.protocol === 'openspiel' ? 0 : 1)] = 1;
  if (me !== null && o.toAct === me) out[F.myTurn] = 1;
  if (o.outcome !== '') out[F.over] = 1;
  const pool = o.pool;
  oneHot3(out, F.poolOneHot, 8, pool);
  out[F.pool] = pool[0] / 7;
  out[F.pool + 1] = pool[1] / 7;
  out[F.pool + 2] = pool[2] / 7;
  const values = o.values ?? (o.allValues && me !== null ? o.allValues[me] : null);
  if (values) {
    oneHot3(out, F.valueOneHot, 11, values);
    out[F.values] = values[0] / 10;
    out[F.values + 1] = values[1] / 10;
    out[F.values + 2] = values[2] / 10;
  }
  const table = o.protocol === 'openspiel' ? o.lastOffer : o.proposal;
  if (table) {
    const keep = table.keep;
    const mine = table.seat === me;
    out[F.tableOn] = 1;
    if (mine) out[F.tableMine] = 1;
    oneHot3(out, F.tableOneHot, 8, keep);
    let v = 0;
    for (let i = 0; i < 3; i++) {
      const share = mine ? keep[i] : pool[i] - keep[i];
      out[F.myShare + i] = share / 7;
      if (values) v += values[i] * share;
    }
    out[F.myShareValue] = v / 10;
  }
  const left = o.maxTurns - o.turn;
  out[F.turn] = o.turn / o.maxTurns;
  out[F.turnsLeft + (left > 10 ? 10 : left < 0 ? 0 : left)] = 1;
  out[F.coop] = o.coop;
  if (o.protocol === 'openspiel') {
    const n = o.offers.length;
    if (n >= 2) oneHot3(out, F.prevOneHot, 8, OFFERS[o.offers[n - 2]]);
    out[F.multiplier] = o.multiplier;
    out[F.discount] = o.discount;
    out[F.probEnd] = o.probEnd;
  } else {
    out[F.multiplier] = 1;
    out[F.discount] = 1;
    if (o.phase === 'talk') out[F.talk] = 1;
    else if (o.phase === 'choose') out[F.choose] = 1;
    if (o.noAgreementAllowed) out[F.noAgreement] = 1;
    if (o.accepted) {
      out[F.accepted] = 1;
      if (o.accepted.seat === me) out[F.acceptedMine] = 1;
    }
    if (me !== null) {
      if (o.chosen[1 - me]) out[F.partnerChose] = 1;
      if (o.chosen[me]) out[F.iChose] = 1;
    }
  }
  return out;
}

/** The index of an action of either protocol, or -1 (free text other than the canonical phrasings). */
export function actionIndex(a: unknown): number {
  if (typeof a === 'number') return Number.isInteger(a) && a >= 0 && a <= AGREE ? a : -1;
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

/** Action-index offsets, for agents that build masks. */
export const ACTION_INDEX = { agree: AGREE, propose: PROPOSE, deal: DEAL, selection: SELECTION, choose: CHOOSE, noAgreement: NO_DEAL } as const;
