/**
 * The day's talk. In a bidding debate (Werewolf Arena) every living player except the last
 * speaker bids 0..maxBid for the floor before each turn; the top bidders are candidates, those
 * named in the last utterance get `mentionWeight` times the weight, and one is drawn. Otherwise
 * players speak in today's order (seat order, or reshuffled each day). Each utterance is one
 * speech act, optionally with free text (a `message` event, never parsed).
 */
import type { ActionMap } from '../../src/core/env';
import { ACCUSE, AGREE, BID, CLAIM, DEFEND, REVEAL_GOOD, REVEAL_WOLF } from './actions';
import { filled } from './arrays';
import { startVote } from './flow';
import { ROLE_NAMES } from './roles';
import { PH_BID, PH_SPEAK, type Draft, type SpeechEvent } from './state';
import { takeAction, textOf } from './take';

/** Applies one round of bids and gives the floor to the drawn speaker. */
export function bidStep(d: Draft, actions: ActionMap<unknown>): void {
  const prev = d.s;
  const act = prev.act;
  const n = prev.roles.length;
  const bids = filled(n, -1);
  let max = -1;
  for (let i = 0; i < act.length; i++) {
    const seat = act[i];
    const b = takeAction(prev, seat, actions) - BID;
    bids[seat] = b;
    if (b > max) max = b;
  }
  const weight = prev.rules.mentionWeight;
  let total = 0;
  let only = -1;
  for (let i = 0; i < act.length; i++) {
    const seat = act[i];
    if (bids[seat] !== max) continue;
    total += (prev.named >> seat) & 1 ? weight : 1;
    only = only === -1 ? seat : -2;
  }
  let speaker = only;
  if (only === -2) {
    let x = d.int(total);
    for (let i = 0; i < act.length; i++) {
      const seat = act[i];
      if (bids[seat] !== max) continue;
      x -= (prev.named >> seat) & 1 ? weight : 1;
      if (x < 0) {
        speaker = seat;
        break;
      }
    }
  }
  const p = d.pub();
  const round = p.round;
  d.emit({ type: 'bids', visibility: 'omniscient', data: { round, turn: p.turn, bids } });
  d.emit({ type: 'floor', visibility: 'public', data: { round, turn: p.turn, seat: speaker } });
  p.phase = 'speak';
  p.speaker = speaker;
  d.s.phase = PH_SPEAK;
  d.setAct([speaker]);
}

/** Applies one utterance, then the next bid, the next speaker in order, or the vote. */
export function speakStep(d: Draft, actions: ActionMap<unknown>): void {
  const prev = d.s;
  const seat = prev.act[0];
  const a = takeAction(prev, seat, actions);
  const raw = actions[seat];
  const text = typeof raw === 'number' ? null : textOf(raw);
  const round = prev.pub.round;
  let ev: SpeechEvent;
  let named = 0;
  if (a < ACCUSE) ev = { type: 'speech', round, seat, act: 'claim', role: ROLE_NAMES[a - CLAIM] };
  else if (a < DEFEND) ev = { type: 'speech', round, seat, act: 'accuse', target: a - ACCUSE };
  else if (a < REVEAL_WOLF) ev = { type: 'speech', round, seat, act: 'defend', target: a - DEFEND };
  else if (a < REVEAL_GOOD) ev = { type: 'speech', round, seat, act: 'reveal', target: a - REVEAL_WOLF, werewolf: true };
  else if (a < AGREE) ev = { type: 'speech', round, seat, act: 'reveal', target: a - REVEAL_GOOD, werewolf: false };
  else if (a === AGREE) ev = { type: 'speech', round, seat, act: 'agree', target: prev.pub.lastSpeaker };
  else ev = { type: 'speech', round, seat, act: 'silent' };
  if (ev.target !== undefined) named = 1 << ev.target;
  if (text !== null) ev.text = text;
  d.log(ev);
  if (text !== null) d.emit({ type: 'message', visibility: 'public', data: { seat, text } });
  const s = d.s;
  const p = d.pub();
  s.named = named;
  p.lastSpeaker = seat;
  p.turn = prev.pub.turn + 1;
  const r = s.rules;
  if (r.debate === 'bidding') {
    if (p.turn < r.debateTurns) {
      p.phase = 'bid';
      p.speaker = -1;
      s.phase = PH_BID;
      d.setActMask(s.aliveBits & ~(1 << seat));
      return;
    }
  } else if (p.turn < r.speechRounds * p.order.length) {
    p.speaker = p.order[p.turn % p.order.length];
    d.setAct([p.speaker]);
    return;
  }
  startVote(d);
}
