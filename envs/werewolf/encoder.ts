/**
 * Fixed-size encoding of a werewolf-v1 observation for neural agents (never of the state, so it
 * cannot leak). Layout (MAX_SEATS = 12 seats, 6 roles), all values in [0, 1]:
 *
 * | offset | size | feature |
 * |---:|---:|---|
 * | 0 | 12 | my seat |
 * | 12 | 6 | my role |
 * | 18 | 5 | phase (night, bid, speak, vote, over) |
 * | 23 | 13 | what I am asked (kill, propose, decide, wolf-vote, protect, guard, check, antidote, poison, sleep, bid, speak, vote) |
 * | 36 | 8 | round / maxRounds, talk progress, players / 12, living share, antidote, poison, I have the floor, living wolves I know / players |
 * | 44 | 12 | alive |
 * | 56 | 12 | seat exists in this game |
 * | 68 | 12 | known werewolves (teammates) |
 * | 80 | 72 | known role of each seat (my seer results with exact roles, or "werewolf") |
 * | 152 | 12 | known not-werewolf (seer results by team) |
 * | 164 | 72 | last role each seat publicly claimed |
 * | 236 | 12 | accusations received (/ 4, capped) |
 * | 248 | 12 | defences received (/ 4, capped) |
 * | 260 | 12 | publicly "revealed" as werewolf (/ 4, capped) |
 * | 272 | 12 | publicly "revealed" as not a werewolf (/ 4, capped) |
 * | 284 | 12 | votes received in the last public vote (/ players) |
 * | 296 | 12 | my last vote |
 * | 308 | 12 | current speaker |
 * | 320 | 12 | last speaker today |
 * | 332 | 6 | last utterance's act (claim, accuse, defend, reveal, agree, silent) |
 * | 338 | 12 | last utterance's target |
 * | 350 | 12 | tonight's victim (the witch is told) |
 * | 362 | 12 | my last protect / guard target |
 * | 374 | 12 | the wolves' latest night choice (werewolves only) |
 */
import type { Encoder } from '../../src/core/env';
import { NUM_ACTIONS, parseAction, type WerewolfAction } from './actions';
import type { AskName } from './legal';
import type { WerewolfObservation } from './observe';
import { MAX_SEATS as M, NUM_ROLES, WEREWOLF, roleCode } from './roles';
import { PHASE_NAMES } from './state';

const ASKS: readonly AskName[] = ['kill', 'propose', 'decide', 'wolf-vote', 'protect', 'guard', 'check', 'antidote', 'poison', 'sleep', 'bid', 'speak', 'vote'];
const ACTS = ['claim', 'accuse', 'defend', 'reveal', 'agree', 'silent'];

const O_SEAT = 0;
const O_ROLE = 12;
const O_PHASE = 18;
const O_ASK = 23;
const O_SCALARS = 36;
const O_ALIVE = 44;
const O_EXISTS = 56;
const O_WOLVES = 68;
const O_KNOWN_ROLE = 80;
const O_KNOWN_GOOD = 152;
const O_CLAIM = 164;
const O_ACCUSED = 236;
const O_DEFENDED = 248;
const O_REV_WOLF = 260;
const O_REV_GOOD = 272;
const O_VOTES = 284;
const O_MY_VOTE = 296;
const O_SPEAKER = 308;
const O_LAST_SPEAKER = 320;
const O_LAST_ACT = 332;
const O_LAST_TARGET = 338;
const O_VICTIM = 350;
const O_MY_TARGET = 362;
const O_WOLF_CHOICE = 374;
/** Length of every encoding. */
export const ENCODING_SIZE = 386;

const cap4 = (x: number): number => Math.min(1, x / 4);

function encode(o: WerewolfObservation, out: Float32Array = new Float32Array(ENCODING_SIZE)): Float32Array {
  const p = o.public;
  const n = o.rules.players;
  if (o.seat !== null) out[O_SEAT + o.seat] = 1;
  const role = roleCode(o.role);
  if (role >= 0) out[O_ROLE + role] = 1;
  out[O_PHASE + PHASE_NAMES.indexOf(p.phase)] = 1;
  if (o.ask) out[O_ASK + ASKS.indexOf(o.ask)] = 1;
  let living = 0;
  for (let i = 0; i < n; i++) {
    out[O_EXISTS + i] = 1;
    if (p.alive[i]) {
      out[O_ALIVE + i] = 1;
      living++;
    }
  }
  const talk = o.rules.debate === 'bidding' ? o.rules.debateTurns : o.rules.speechRounds * Math.max(1, p.order.length);
  out[O_SCALARS] = Math.min(1, p.round / o.rules.maxRounds);
  out[O_SCALARS + 1] = talk ? Math.min(1, p.turn / talk) : 0;
  out[O_SCALARS + 2] = n / M;
  out[O_SCALARS + 3] = living / n;
  if (o.potions) {
    out[O_SCALARS + 4] = o.potions[0] > 0 ? 1 : 0;
    out[O_SCALARS + 5] = o.potions[1] > 0 ? 1 : 0;
  }
  out[O_SCALARS + 6] = o.seat !== null && p.speaker === o.seat ? 1 : 0;
  let wolvesAlive = 0;
  for (const w of o.wolves) {
    out[O_WOLVES + w] = 1;
    out[O_KNOWN_ROLE + w * NUM_ROLES + WEREWOLF] = 1;
    if (p.alive[w]) wolvesAlive++;
  }
  out[O_SCALARS + 7] = wolvesAlive / n;
  if (p.speaker >= 0) out[O_SPEAKER + p.speaker] = 1;
  if (p.lastSpeaker >= 0) out[O_LAST_SPEAKER + p.lastSpeaker] = 1;

  const accused = new Array<number>(M).fill(0);
  const defended = new Array<number>(M).fill(0);
  const revWolf = new Array<number>(M).fill(0);
  const revGood = new Array<number>(M).fill(0);
  const claim = new Array<number>(M).fill(-1);
  let lastVotes: (number | null)[] | null = null;
  let lastVoteRound = -1;
  let lastAct = -1;
  let lastTarget = -1;
  let myVote = -1;
  for (const chunk of p.log) {
    for (const e of chunk) {
      if (e.type === 'speech') {
        lastAct = ACTS.indexOf(e.act);
        lastTarget = e.target ?? -1;
        if (e.act === 'claim' && e.role) claim[e.seat] = roleCode(e.role);
        else if (e.act === 'accuse' && e.target !== undefined) accused[e.target]++;
        else if (e.act === 'defend' && e.target !== undefined) defended[e.target]++;
        else if (e.act === 'reveal' && e.target !== undefined) {
          if (e.werewolf) revWolf[e.target]++;
          else revGood[e.target]++;
          if (claim[e.seat] < 0) claim[e.seat] = roleCode('seer');
        }
      } else if (e.type === 'votes') {
        lastVotes = e.votes;
        if (o.seat !== null) myVote = e.votes[o.seat] ?? -1;
      } else if (e.type === 'vote') {
        if (!lastVotes || lastVoteRound !== e.round) lastVotes = new Array<number | null>(n).fill(null);
        lastVoteRound = e.round;
        lastVotes[e.seat] = e.target;
        if (e.seat === o.seat) myVote = e.target ?? -1;
      } else if (e.type === 'dawn') {
        lastAct = -1;
        lastTarget = -1;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    out[O_ACCUSED + i] = cap4(accused[i]);
    out[O_DEFENDED + i] = cap4(defended[i]);
    out[O_REV_WOLF + i] = cap4(revWolf[i]);
    out[O_REV_GOOD + i] = cap4(revGood[i]);
    if (claim[i] >= 0) out[O_CLAIM + i * NUM_ROLES + claim[i]] = 1;
  }
  if (lastVotes) for (const t of lastVotes) if (t !== null && t >= 0 && t < M) out[O_VOTES + t] += 1 / n;
  if (lastAct >= 0 && p.lastSpeaker >= 0) out[O_LAST_ACT + lastAct] = 1;
  if (lastTarget >= 0 && p.lastSpeaker >= 0) out[O_LAST_TARGET + lastTarget] = 1;

  for (const e of o.private) {
    if (e.type === 'check') {
      const r = roleCode(e.result);
      if (r >= 0) out[O_KNOWN_ROLE + e.target * NUM_ROLES + r] = 1;
      else if (e.result === 'werewolf') out[O_KNOWN_ROLE + e.target * NUM_ROLES + WEREWOLF] = 1;
      else out[O_KNOWN_GOOD + e.target] = 1;
    } else if (e.type === 'victim') {
      out.fill(0, O_VICTIM, O_VICTIM + M);
      if (e.target !== null && e.round === p.round && p.phase === 'night') out[O_VICTIM + e.target] = 1;
    } else if (e.type === 'protect' || e.type === 'guard') {
      out.fill(0, O_MY_TARGET, O_MY_TARGET + M);
      out[O_MY_TARGET + e.target] = 1;
    } else if (e.type === 'vote') myVote = e.target ?? -1;
  }
  if (myVote >= 0) out[O_MY_VOTE + myVote] = 1;
  if (o.teamLog && o.teamLog.length) {
    const last = o.teamLog[o.teamLog.length - 1];
    if ('by' in last && last.round === p.round) out[O_WOLF_CHOICE + last.target] = 1;
  }
  return out;
}

/** The encoder: observation -> Float32Array(ENCODING_SIZE); actions are their fixed indices (0..NUM_ACTIONS-1). */
export const werewolfEncoder: Encoder<WerewolfObservation, WerewolfAction> = {
  size: ENCODING_SIZE,
  numActions: NUM_ACTIONS,
  encode,
  actionIndex(action: WerewolfAction): number {
    const parsed = parseAction(action);
    return typeof parsed === 'string' ? -1 : parsed.index;
  },
  action(index: number): WerewolfAction {
    return index;
  },
};

