/**
 * The one fixed discrete action space of werewolf-v1. Every decision (night targets, bids,
 * votes, potions, speech acts) is an integer index into this layout; the indices never change
 * within `werewolf-v1`, so neural agents can use them directly.
 *
 * | indices | action |
 * |---|---|
 * | 0..11 | TARGET p: kill / propose / decide / wolf-vote / protect / guard / check / vote for seat p |
 * | 12 | NONE: sleep, pass, abstain, no potion |
 * | 13..22 | BID b (b = 0..9; presets use 0..maxBid) |
 * | 23 | ANTIDOTE (witch saves tonight's victim) |
 * | 24..35 | POISON p |
 * | 36..41 | CLAIM role r (villager, werewolf, seer, doctor, witch, guard) |
 * | 42..53 | ACCUSE p |
 * | 54..65 | DEFEND p |
 * | 66..77 | REVEAL p is a werewolf (a seer result; may be a lie) |
 * | 78..89 | REVEAL p is not a werewolf |
 * | 90 | AGREE with the last speaker |
 * | 91 | SILENT |
 *
 * An action is either the index or `{act: index, text: "..."}`: free text alongside a speech
 * act, recorded as a `message` event and never parsed for game effects.
 */
import { MAX_SEATS, NUM_ROLES, ROLE_NAMES } from './roles';

const M = MAX_SEATS;
export const TARGET = 0;
export const NONE = M;
export const BID = M + 1;
export const MAX_BID_LIMIT = 9;
export const ANTIDOTE = BID + MAX_BID_LIMIT + 1;
export const POISON = ANTIDOTE + 1;
export const CLAIM = POISON + M;
export const ACCUSE = CLAIM + NUM_ROLES;
export const DEFEND = ACCUSE + M;
export const REVEAL_WOLF = DEFEND + M;
export const REVEAL_GOOD = REVEAL_WOLF + M;
export const AGREE = REVEAL_GOOD + M;
export const SILENT = AGREE + 1;
/** True for the speech acts (claim … silent): actions that may carry words. */
export function isSpeechAct(index: number): boolean {
  return index >= CLAIM && index <= SILENT;
}

/** Number of action indices. */
export const NUM_ACTIONS = SILENT + 1;
/** Longest free text accepted alongside a speech act. */
export const MAX_TEXT_LENGTH = 2000;

/** An action with free text alongside a speech act. */
export type TextAction = { act: number; text: string };
/** What an agent may answer: an index, or an index with text. */
export type WerewolfAction = number | TextAction;

/** Speech-act names (the `act` field of public speech events). */
export type SpeechActName = 'claim' | 'accuse' | 'defend' | 'reveal' | 'agree' | 'silent';

/**
 * The index and text of a raw action, or a reason it is malformed. Accepts an integer index or
 * `{act, text?}` with no other keys; checks shape only (legality is `legal.ts`'s job).
 */
export function parseAction(action: unknown): { index: number; text: string | null } | string {
  if (typeof action === 'number') {
    return Number.isInteger(action) && action >= 0 && action < NUM_ACTIONS ? { index: action, text: null } : `${String(action)} is not an action index 0..${NUM_ACTIONS - 1}`;
  }
  if (action === null || typeof action !== 'object' || Array.isArray(action)) {
    return `an action is an index 0..${NUM_ACTIONS - 1} or {"act": index, "text": "..."}, got ${describeRaw(action)}`;
  }
  const o = action as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== 'act' && k !== 'text') return `unknown field "${k}" in action object (allowed: act, text)`;
  }
  const act = o.act;
  if (typeof act !== 'number' || !Number.isInteger(act) || act < 0 || act >= NUM_ACTIONS) return `"act" must be an action index 0..${NUM_ACTIONS - 1}`;
  if (o.text === undefined) return { index: act, text: null };
  if (typeof o.text !== 'string') return '"text" must be a string';
  if (o.text.length > MAX_TEXT_LENGTH) return `"text" is longer than ${MAX_TEXT_LENGTH} characters`;
  return { index: act, text: o.text };
}

/** Fast path used by `step`: the index of an already validated action. */
export function indexOf(action: unknown): number {
  return typeof action === 'number' ? action : (action as TextAction).act;
}

function describeRaw(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    const t = JSON.stringify(v);
    return t.length > 60 ? `${t.slice(0, 57)}...` : t;
  } catch {
    return String(v);
  }
}

/** Human-readable name of an action index ("vote/target 3", "claim seer", "reveal 2 werewolf"). */
export function describeAction(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= NUM_ACTIONS) return `invalid(${index})`;
  if (index < NONE) return `target ${index}`;
  if (index === NONE) return 'none';
  if (index < ANTIDOTE) return `bid ${index - BID}`;
  if (index === ANTIDOTE) return 'antidote';
  if (index < CLAIM) return `poison ${index - POISON}`;
  if (index < ACCUSE) return `claim ${ROLE_NAMES[index - CLAIM]}`;
  if (index < DEFEND) return `accuse ${index - ACCUSE}`;
  if (index < REVEAL_WOLF) return `defend ${index - DEFEND}`;
  if (index < REVEAL_GOOD) return `reveal ${index - REVEAL_WOLF} werewolf`;
  if (index < AGREE) return `reveal ${index - REVEAL_GOOD} not-werewolf`;
  return index === AGREE ? 'agree' : 'silent';
}
