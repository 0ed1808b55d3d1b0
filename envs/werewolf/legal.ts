/**
 * Legal actions and action validation. Lists that depend only on public facts (votes, speech
 * acts, bids, wolf targets) are built once per situation and cached (shared, never mutated); the few
 * that depend on a role's private state (seer, doctor, guard, witch) are built per call.
 */
import type { ActionCheck } from '../../src/core/env';
import {
  ACCUSE,
  AGREE,
  ANTIDOTE,
  BID,
  CLAIM,
  DEFEND,
  NONE,
  POISON,
  REVEAL_GOOD,
  REVEAL_WOLF,
  SILENT,
  TARGET,
  describeAction,
  parseAction,
} from './actions';
import { DOCTOR, GUARD, NUM_ROLES, SEER, WITCH } from './roles';
import { rolesPresentMask } from './config';
import { EMPTY, PH_BID, PH_NIGHT, PH_OVER, PH_SPEAK, PH_VOTE, type WerewolfState } from './state';

/** What a seat is asked to do now (part of its observation). */
export type AskName =
  | 'kill'
  | 'propose'
  | 'decide'
  | 'wolf-vote'
  | 'protect'
  | 'guard'
  | 'check'
  | 'antidote'
  | 'poison'
  | 'sleep'
  | 'bid'
  | 'speak'
  | 'vote';

const SLEEP: readonly number[] = [NONE];
// Shared legal lists (never mutated; not frozen: frozen arrays are slower to read), cached by
// small-integer keys: a bitmask of target seats, plus a flag or two.
const targetLists: (readonly number[])[] = [];
const poisonLists: (readonly number[])[] = [];
const speechCache = new Map<number, readonly number[]>();
const bidLists: (readonly number[])[] = [];
const rolesMaskCache = new WeakMap<object, number>();

/** TARGET actions for the seats in `mask` (then NONE when `none`); [NONE] for an empty mask. */
function targetList(mask: number, none: number): readonly number[] {
  if (mask === 0) return SLEEP;
  const key = mask * 2 + none;
  let list = targetLists[key];
  if (!list) {
    const out: number[] = [];
    for (let p = 0; mask >> p; p++) if ((mask >> p) & 1) out.push(TARGET + p);
    if (none) out.push(NONE);
    targetLists[key] = list = out;
  }
  return list;
}

/** NONE, then POISON actions for the seats in `mask`. */
function poisonList(mask: number): readonly number[] {
  let list = poisonLists[mask];
  if (!list) {
    const out: number[] = [NONE];
    for (let p = 0; mask >> p; p++) if ((mask >> p) & 1) out.push(POISON + p);
    poisonLists[mask] = list = out;
  }
  return list;
}

/** Bids 0..maxBid as action indices. */
export function bidList(maxBid: number): readonly number[] {
  return (bidLists[maxBid] ??= Array.from({ length: maxBid + 1 }, (_, b) => BID + b));
}

function presentMask(s: WerewolfState): number {
  let m = rolesMaskCache.get(s.rules);
  if (m === undefined) rolesMaskCache.set(s.rules, (m = rolesPresentMask(s.rules)));
  return m;
}

function speechList(s: WerewolfState, seat: number): readonly number[] {
  const n = s.roles.length;
  const last = s.pub.lastSpeaker;
  const agree = last >= 0 && last !== seat ? 1 : 0;
  const roles = presentMask(s);
  // 6 + 4 + 4 + 1 + 12 = 27 bits
  const key = (((roles * 16 + n) * 16 + seat) * 2 + agree) * 4096 + s.aliveBits;
  let list = speechCache.get(key);
  if (!list) {
    const out: number[] = [];
    for (let r = 0; r < NUM_ROLES; r++) if ((roles >> r) & 1) out.push(CLAIM + r);
    for (let p = 0; p < n; p++) if (p !== seat && (s.aliveBits >> p) & 1) out.push(ACCUSE + p);
    for (let p = 0; p < n; p++) if ((s.aliveBits >> p) & 1) out.push(DEFEND + p);
    for (let p = 0; p < n; p++) if (p !== seat) out.push(REVEAL_WOLF + p);
    for (let p = 0; p < n; p++) if (p !== seat) out.push(REVEAL_GOOD + p);
    if (agree) out.push(AGREE);
    out.push(SILENT);
    speechCache.set(key, (list = out));
  }
  return list;
}

const bit = (p: number): number => (p >= 0 ? 1 << p : 0);

/** What `seat` is asked at night (role-specific; 'sleep' for everyone without a night action now). */
export function nightAsk(s: WerewolfState, seat: number): AskName {
  const r = s.rules;
  const step = s.stepInPhase; // the night step
  if (seat === s.actor) {
    if (r.nightKill === 'random-wolf') return 'kill';
    if (r.nightKill === 'propose-decide') return step === 0 ? 'propose' : 'decide';
    return 'wolf-vote';
  }
  const role = s.roles[seat];
  if (step === 0) {
    if (role === SEER) return 'check';
    if (role === DOCTOR) return 'protect';
    if (role === GUARD) return 'guard';
  }
  if (role === WITCH && r.composition.witch > 0) {
    if (step === s.killSteps) return 'antidote';
    if (step === s.killSteps + 1) return 'poison';
  }
  return 'sleep';
}

function nightLegal(s: WerewolfState, seat: number): readonly number[] {
  const r = s.rules;
  const ask = nightAsk(s, seat);
  switch (ask) {
    case 'antidote': {
      const victim = s.night.victim;
      return s.potions[0] > 0 && victim >= 0 && (r.witchSelfSave || victim !== seat) ? ANTIDOTE_OR_NONE : SLEEP;
    }
    case 'poison':
      return s.potions[1] > 0 && (r.witchBothSameNight || !s.night.saved) ? poisonList(s.aliveBits & ~bit(seat)) : SLEEP;
    case 'sleep':
      return SLEEP;
    default:
      return targetList(nightTargetMask(s, seat, ask), 0);
  }
}

const ANTIDOTE_OR_NONE: readonly number[] = [ANTIDOTE, NONE];

/** The TARGET seats (as a bitmask) that `ask` allows `seat` at night; 0 when it takes no target. */
function nightTargetMask(s: WerewolfState, seat: number, ask: AskName): number {
  const r = s.rules;
  const alive = s.aliveBits;
  switch (ask) {
    case 'kill':
    case 'propose':
    case 'decide':
    case 'wolf-vote':
      return alive & ~s.wolfMask;
    case 'check':
      return alive & ~bit(seat) & ~(r.seerRepeat ? 0 : s.checked);
    case 'protect':
      return alive & ~(r.doctorSelf ? 0 : bit(seat)) & ~(r.doctorRepeat ? 0 : bit(s.lastProtect));
    case 'guard':
      return alive & ~(r.guardSelf ? 0 : bit(seat)) & ~(r.guardRepeat ? 0 : bit(s.lastGuard));
    default:
      return 0;
  }
}

/**
 * Whether action index `a` is in `legalFor(s, seat)`, computed from bitmasks without building
 * the list (the check `step` runs on every action).
 */
export function isLegal(s: WerewolfState, seat: number, a: number): boolean {
  if (!isToAct(s, seat) || !Number.isInteger(a)) return false;
  switch (s.phase) {
    case PH_NIGHT: {
      const ask = nightAsk(s, seat);
      if (ask === 'antidote' || ask === 'poison' || ask === 'sleep') return nightLegal(s, seat).indexOf(a) >= 0;
      const mask = nightTargetMask(s, seat, ask);
      return mask === 0 ? a === NONE : a >= TARGET && a < TARGET + s.roles.length && ((mask >> (a - TARGET)) & 1) === 1;
    }
    case PH_BID:
      return a >= BID && a <= BID + s.rules.maxBid;
    case PH_SPEAK:
      return speechList(s, seat).indexOf(a) >= 0;
    case PH_VOTE: {
      if (a === NONE) return s.rules.abstain;
      const p = a - TARGET;
      return p >= 0 && p < s.roles.length && p !== seat && ((s.aliveBits >> p) & 1) === 1;
    }
    default:
      return false;
  }
}

/** True when `seat` is a seat index that must act now. */
export function isToAct(s: WerewolfState, seat: unknown): seat is number {
  return typeof seat === 'number' && Number.isInteger(seat) && seat >= 0 && seat < s.roles.length && ((s.actMask >> seat) & 1) === 1;
}

/**
 * The legal action indices of `seat` now (EMPTY when it is not to act). Never throws. The list is
 * shared and cached (not frozen, for speed): callers and agents must not mutate it.
 */
export function legalFor(s: WerewolfState, seat: number): readonly number[] {
  if (!isToAct(s, seat)) return EMPTY;
  switch (s.phase) {
    case PH_NIGHT:
      return nightLegal(s, seat);
    case PH_BID:
      return bidList(s.rules.maxBid);
    case PH_SPEAK:
      return speechList(s, seat);
    case PH_VOTE:
      return targetList(s.aliveBits & ~(1 << seat), s.rules.abstain ? 1 : 0);
    default:
      return EMPTY;
  }
}

/** What `seat` is asked now, or null when it is not to act. */
export function askOf(s: WerewolfState, seat: number): AskName | null {
  if (!isToAct(s, seat)) return null;
  switch (s.phase) {
    case PH_NIGHT:
      return nightAsk(s, seat);
    case PH_BID:
      return 'bid';
    case PH_SPEAK:
      return 'speak';
    case PH_VOTE:
      return 'vote';
    default:
      return null;
  }
}

/**
 * Whether `seat` may play `action` now: an index from `legalFor`, or `{act, text}` where `act`
 * is a legal speech act and `text` a string (free text is accepted with speech acts only).
 */
export function validate(s: WerewolfState, seat: unknown, action: unknown): ActionCheck {
  const n = s.roles.length;
  if (s.phase === PH_OVER) return { ok: false, reason: 'the game is over' };
  if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= n) {
    return { ok: false, reason: `seat ${String(seat)} is not a seat of this game (0..${n - 1})` };
  }
  if (!isToAct(s, seat)) return { ok: false, reason: `seat ${seat} is not to act now (to act: ${JSON.stringify(s.act)})` };
  const parsed = parseAction(action);
  if (typeof parsed === 'string') return { ok: false, reason: parsed };
  if (parsed.text !== null && s.phase !== PH_SPEAK) return { ok: false, reason: 'free text is only accepted alongside a speech act (in the speak phase)' };
  const legal = legalFor(s, seat);
  if (legal.indexOf(parsed.index) < 0) {
    return { ok: false, reason: `${describeAction(parsed.index)} (${parsed.index}) is not legal for seat ${seat} now (asked to ${askOf(s, seat)}; legal: ${legal.join(',')})` };
  }
  return { ok: true };
}
