/**
 * The one projection of deal-or-no-deal-v1 for agents, spectators and replays. A seat sees the
 * pool, its OWN values and everything said or offered; the public view shows no values; the
 * omniscient view adds both value vectors and the pending private selections.
 */
import type { Viewer } from '../../src/core/visibility';
import { noAgreementAllowed, proposalView, shareOf } from './dialogue-protocol';
import { dialogueLegalIndices } from './action-index';
import { legalOpenSpiel } from './openspiel-protocol';
import { OFFERS } from './offers';
import type { DialogueState, DondState, Message, OpenSpielState } from './state';

/** Fields both protocols' observations share. */
interface BaseObservation {
  /** The viewer's seat; null for the public and omniscient views. */
  seat: number | null;
  /** Seat to act now; null when the game is over. */
  toAct: number | null;
  /** Items of each type: [books, hats, balls]. */
  pool: number[];
  /** The viewer's own per-item values (seat views only). */
  values: number[] | null;
  /** Both seats' values (omniscient view only). */
  allValues: number[][] | null;
  maxTurns: number;
  /** Offers made (openspiel) or messages sent (dialogue) so far. */
  turn: number;
  /** The objective's alpha: reward_i = own_i + coop * other_i. */
  coop: number;
  /** '' while running, else how the game ended. */
  outcome: string;
}

/** What a viewer knows in the openspiel protocol. */
export interface OpenSpielObservation extends BaseObservation {
  protocol: 'openspiel';
  /** Offer ids made so far; offer k was made by seat k % 2 (OFFERS[id] = what its proposer keeps). */
  offers: number[];
  /** The offer on the table: who made it and what it keeps. */
  lastOffer: { seat: number; keep: number[] } | null;
  /** Legal action ids for the viewer now (empty when it is not to act): OpenSpiel's LegalActions. Ids are also encoder indices. */
  legal: number[];
  discount: number;
  probEnd: number;
  /** OpenSpiel's current discount multiplier (applies to the returns of an agreement now). */
  multiplier: number;
}

/** What a viewer knows in the dialogue protocol. */
export interface DialogueObservation extends BaseObservation {
  protocol: 'dialogue';
  phase: 'talk' | 'choose' | 'done';
  messages: Message[];
  /** Latest canonical proposal in the transcript (who would keep what). */
  proposal: { seat: number; keep: number[] } | null;
  /** That proposal, once the other seat answered "Deal.". */
  accepted: { seat: number; keep: number[] } | null;
  /** Who moved to the selection (null: the talk ran out, or still talking). */
  selector: number | null;
  noAgreementAllowed: boolean;
  /**
   * Encoder indices of the canonical legal actions for the viewer now (empty when it is not to
   * act); any other non-empty text is legal too. `encoder.action(i)` gives the action.
   */
  legal: number[];
  /** Which seats have made their private selection. */
  chosen: boolean[];
  /** The viewer's own selection once made (seat views). */
  myChoice: { keep: number[]; give: number[] } | 'no-agreement' | null;
  /** Both selections: revealed when the game is over (and in the omniscient view). */
  choices: ({ keep: number[]; give: number[] } | 'no-agreement' | null)[] | null;
}

/** An observation of either protocol. */
export type DondObservation = OpenSpielObservation | DialogueObservation;

/** Frozen {seat, keep} per (proposer seat, offer id): observations share them instead of allocating. */
const TABLE: readonly (readonly { seat: number; keep: number[] }[])[] = [0, 1].map((seat) =>
  OFFERS.map((keep) => Object.freeze({ seat, keep: keep as number[] })),
);

function observeOpenSpiel(s: OpenSpielState, viewer: Viewer): OpenSpielObservation {
  const seat = typeof viewer === 'number' ? viewer : null;
  const n = s.offers.length;
  const cfg = s.cfg;
  return {
    protocol: 'openspiel',
    seat,
    toAct: s.toAct < 0 ? null : s.toAct,
    pool: s.inst.pool,
    values: seat === 0 || seat === 1 ? s.inst.values[seat] : null,
    allValues: viewer === 'omniscient' ? s.inst.values : null,
    maxTurns: cfg.maxTurns,
    turn: n,
    coop: cfg.coop,
    outcome: s.outcome,
    offers: s.offers,
    lastOffer: n ? (TABLE[(n + 1) % 2][s.offers[n - 1]] as { seat: number; keep: number[] }) : null,
    legal: seat === null ? (EMPTY as number[]) : (legalOpenSpiel(s, seat) as number[]),
    discount: cfg.discount,
    probEnd: cfg.probEnd,
    multiplier: s.disc,
  };
}
const EMPTY: readonly number[] = Object.freeze([]);

function observeDialogue(s: DialogueState, viewer: Viewer): DialogueObservation {
  const seat = typeof viewer === 'number' ? viewer : null;
  const own = seat === 0 || seat === 1;
  const over = s.phase === 'done';
  const reveal = over || viewer === 'omniscient';
  const mine = own ? s.choices[seat] : null;
  return {
    protocol: 'dialogue',
    seat,
    toAct: s.toAct < 0 ? null : s.toAct,
    pool: s.inst.pool,
    values: own ? s.inst.values[seat] : null,
    allValues: viewer === 'omniscient' ? s.inst.values : null,
    maxTurns: s.cfg.maxTurns,
    turn: s.messages.length,
    coop: s.cfg.coop,
    outcome: s.outcome,
    phase: s.phase,
    messages: s.messages,
    proposal: proposalView(s.proposal),
    accepted: proposalView(s.accepted),
    selector: s.selector,
    noAgreementAllowed: noAgreementAllowed(s),
    legal: own && seat === s.toAct && s.phase !== 'done' ? (dialogueLegalIndices(s.inst.pool, s.phase, noAgreementAllowed(s)) as number[]) : (EMPTY as number[]),
    chosen: [s.choices[0] !== null, s.choices[1] !== null],
    myChoice: mine === null || mine === undefined ? null : shareOf(s.inst, mine),
    choices: reveal ? s.choices.map((c) => (c === null ? null : shareOf(s.inst, c))) : null,
  };
}

/** The observation of `state` for `viewer` (seat number, "public" or "omniscient"). */
export function observe(s: DondState, viewer: Viewer): DondObservation {
  return s.protocol === 'openspiel' ? observeOpenSpiel(s, viewer) : observeDialogue(s, viewer);
}
