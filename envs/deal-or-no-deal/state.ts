/**
 * State of deal-or-no-deal-v1: plain JSON, compact, structurally shared between steps (the
 * instance and config objects are shared by every state of an episode; never mutate a state).
 */
import type { RngState } from '../../src/core/rng';
import type { Instance } from './instance';
import type { Config } from './config';

/** How an openspiel episode ended ('' while running). */
export type OpenSpielOutcome = '' | 'agreement' | 'no-agreement' | 'chance-end';
/** How a dialogue episode ended ('' while running). */
export type DialogueOutcome = '' | 'agreement' | 'disagreement' | 'no-agreement';

/** OpenSpiel's bargaining state. */
export interface OpenSpielState {
  protocol: 'openspiel';
  inst: Instance;
  cfg: Config;
  /** Offer ids made so far; offer k was made by seat k % 2. */
  offers: number[];
  /** Seat to act, -1 when the game is over. */
  toAct: number;
  outcome: OpenSpielOutcome;
  /** OpenSpiel's `discount_`: multiplied by `discount` at every action from the third on. */
  disc: number;
  /** Chance stream for `prob_end` (null when prob_end = 0: nothing random after the instance). */
  rng: RngState | null;
}

/** A canonical proposal seen in the transcript: `seat` would keep `keep` (offer id). */
export interface Proposal {
  seat: number;
  keep: number;
}

/** One message of the dialogue. */
export interface Message {
  seat: number;
  text: string;
}

/** Phase of the dialogue protocol. */
export type DialoguePhase = 'talk' | 'choose' | 'done';

/** A private selection: the offer id of the share the seat keeps, or NO_AGREEMENT. */
export const NO_AGREEMENT = -1;

/** FAIR's dialogue protocol state. */
export interface DialogueState {
  protocol: 'dialogue';
  inst: Instance;
  cfg: Config;
  messages: Message[];
  /** Latest canonical proposal in the transcript. */
  proposal: Proposal | null;
  /** The latest proposal, once the other seat answered it with "Deal." (cleared by a new proposal). */
  accepted: Proposal | null;
  phase: DialoguePhase;
  toAct: number;
  /** Seat that moved to the selection, or null when the talk ran out (max_turns messages). */
  selector: number | null;
  /** Per seat: kept offer id, NO_AGREEMENT, or null while not chosen. Private until the end. */
  choices: (number | null)[];
  outcome: DialogueOutcome;
}

/** The state of either protocol. */
export type DondState = OpenSpielState | DialogueState;
