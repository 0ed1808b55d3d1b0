/**
 * Phase transitions shared by the night, debate and voting steps: starting a night, a day and
 * a vote, the win check, the round cap, and the end of the game.
 *
 * Step structure depends only on public information (who is alive, the rules), never on hidden
 * roles: at night every living player acts (most just "sleep"), and the number of night steps is
 * fixed by the rules, so the public `turn` events of the runner reveal nothing.
 */
import { filled } from './arrays';
import { ROLE_NAMES } from './roles';
import type { Rules } from './config';
import {
  EMPTY,
  PH_BID,
  PH_NIGHT,
  PH_OVER,
  PH_SPEAK,
  PH_VOTE,
  W_DRAW,
  W_NONE,
  W_VILLAGERS,
  W_WOLVES,
  WINNER_NAMES,
  type Draft,
  type WerewolfState,
} from './state';
import { popcount, seatsOf } from './seat-masks';

/** Winner code for the living seats (W_NONE while the game goes on). No wolves left always means villagers. */
export function checkWinner(s: WerewolfState, aliveBits: number): number {
  const wolves = popcount(aliveBits & s.wolfMask);
  if (wolves === 0) return W_VILLAGERS;
  switch (s.rules.winRule) {
    case 'parity':
      return wolves >= popcount(aliveBits & ~s.wolfMask) ? W_WOLVES : W_NONE;
    case 'majority':
      return wolves > popcount(aliveBits & ~s.wolfMask) ? W_WOLVES : W_NONE;
    case 'villagers-dead':
      return (aliveBits & s.plainMask) === 0 ? W_WOLVES : W_NONE;
  }
}

/** The wolf acting in kill step `killStep` of a night (-1 when none). */
export function killActor(d: Draft, killStep: number): number {
  const s = d.s;
  const r: Rules = s.rules;
  if (killStep >= s.killSteps) return -1;
  const living = seatsOf(s.aliveBits & s.wolfMask);
  if (!living.length) return -1;
  switch (r.nightKill) {
    case 'random-wolf':
      return living.length === 1 ? living[0] : living[d.int(living.length)];
    case 'propose-decide':
      return killStep === 0 ? living[0] : living[living.length - 1];
    case 'vote-in-turn':
      return killStep < living.length ? living[killStep] : -1;
  }
}

/** Starts a night (a new round unless it is the game's first phase). */
export function startNight(d: Draft, first: boolean): void {
  const s = d.s;
  if (!first) d.newRound(s.pub.round + 1);
  const p = d.pub();
  p.phase = 'night';
  p.speaker = -1;
  p.lastSpeaker = -1;
  p.turn = 0;
  p.order = EMPTY as unknown as number[];
  s.phase = PH_NIGHT;
  s.stepInPhase = 0;
  s.named = 0;
  s.votes = EMPTY as unknown as number[];
  d.clearNight();
  d.setActMask(s.aliveBits);
  s.actor = killActor(d, 0);
}

/** Starts the day: the debate (bidding or speaking order), or the vote when there is no talk. */
export function startDay(d: Draft): void {
  const s = d.s;
  const r = s.rules;
  const p = d.pub();
  p.speaker = -1;
  p.lastSpeaker = -1;
  p.turn = 0;
  s.named = 0;
  s.actor = -1;
  s.stepInPhase = 0;
  if (r.debate === 'bidding' && r.debateTurns > 0) {
    p.phase = 'bid';
    p.order = EMPTY as unknown as number[];
    s.phase = PH_BID;
    d.setActMask(s.aliveBits);
    return;
  }
  if (r.debate !== 'bidding' && r.speechRounds > 0) {
    const living = seatsOf(s.aliveBits);
    p.order = r.debate === 'shuffled' ? d.shuffle(living) : living;
    p.phase = 'speak';
    p.speaker = p.order[0];
    s.phase = PH_SPEAK;
    d.setAct([p.speaker]);
    return;
  }
  startVote(d);
}

/** Starts the vote: everyone at once, or one voter at a time in today's order. */
export function startVote(d: Draft): void {
  const s = d.s;
  const p = d.pub();
  p.phase = 'vote';
  p.speaker = -1;
  s.phase = PH_VOTE;
  s.stepInPhase = 0;
  if (s.rules.voting === 'simultaneous') {
    d.setActMask(s.aliveBits);
    return;
  }
  if (!p.order.length) p.order = seatsOf(s.aliveBits);
  p.turn = 0;
  s.votes = filled(s.roles.length, -1);
  d.setAct([p.order[0]]);
}

/** After a death (dawn or exile): ends the game on a win, else returns false. */
export function endIfWon(d: Draft): boolean {
  const w = checkWinner(d.s, d.s.aliveBits);
  if (w === W_NONE) return false;
  finish(d, w);
  return true;
}

/** After the day's vote: the round cap, or the next night. */
export function endRound(d: Draft): void {
  const s = d.s;
  if (s.pub.round >= s.rules.maxRounds) {
    finish(d, s.rules.roundCap === 'random' ? (d.int(2) === 0 ? W_WOLVES : W_VILLAGERS) : W_DRAW);
    return;
  }
  startNight(d, false);
}

/** Ends the game: winner set, every role revealed, nobody to act. */
export function finish(d: Draft, winner: number): void {
  const s = d.s;
  const p = d.pub();
  const roles = s.roles.map((r) => ROLE_NAMES[r]);
  s.winner = winner;
  s.phase = PH_OVER;
  s.actor = -1;
  p.phase = 'over';
  p.speaker = -1;
  p.winner = WINNER_NAMES[winner];
  p.roles = roles;
  d.setAct(EMPTY as unknown as number[]);
  d.log({ type: 'game-over', round: p.round, winner: p.winner, roles });
}

