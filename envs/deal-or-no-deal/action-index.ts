/**
 * The fixed action indices of deal-or-no-deal-v1 (the layout is drawn in encoder.ts) and the
 * legal dialogue indices of a seat, shared by the observation (its `legal` list) and the encoder,
 * in a file of their own so that neither imports the other back.
 */
import { AGREE, countsKey, legalIds, NUM_OFFERS } from './offers';

export const PROPOSE = AGREE + 1; // 121
export const DEAL = PROPOSE + NUM_OFFERS; // 241
export const SELECTION = DEAL + 1; // 242
export const CHOOSE = SELECTION + 1; // 243
export const NO_DEAL = CHOOSE + NUM_OFFERS; // 363
/** Number of action indices (364). */
export const NUM_ACTIONS = NO_DEAL + 1;

const TALK_LEGAL: (readonly number[] | undefined)[] = new Array(512);
const CHOOSE_LEGAL: (readonly number[] | undefined)[] = new Array(1024);

/**
 * Indices of the canonical legal dialogue actions for the seat to act: in the talk phase every
 * proposal that fits the pool, "Deal." and the move to selection; in the selection every share
 * that fits the pool, and no-agreement when allowed. Shared frozen arrays (cached per pool).
 */
export function dialogueLegalIndices(pool: readonly number[], phase: 'talk' | 'choose', noAgreement: boolean): readonly number[] {
  const key = countsKey(pool);
  if (phase === 'talk') {
    let list = TALK_LEGAL[key];
    if (!list) TALK_LEGAL[key] = list = Object.freeze([...legalIds(pool, false).map((id) => PROPOSE + id), DEAL, SELECTION]);
    return list;
  }
  const k = key * 2 + (noAgreement ? 1 : 0);
  let list = CHOOSE_LEGAL[k];
  if (!list) CHOOSE_LEGAL[k] = list = Object.freeze([...legalIds(pool, false).map((id) => CHOOSE + id), ...(noAgreement ? [NO_DEAL] : [])]);
  return list;
}

/** Action-index offsets, for agents that build masks. */
export const ACTION_INDEX = { agree: AGREE, propose: PROPOSE, deal: DEAL, selection: SELECTION, choose: CHOOSE, noAgreement: NO_DEAL } as const;
