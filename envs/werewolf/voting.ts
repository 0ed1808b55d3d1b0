/**
 * The day's vote: everyone at once (secret or announced) or one at a time in today's order
 * (always public), abstaining where allowed; then the exile rule (strict majority of the
 * living, plurality with a random tie-break, or plurality where any tie exiles nobody), the
 * win check, the round cap and the next night.
 */
import type { ActionMap } from '../../src/core/env';
import { NONE, TARGET } from './actions';
import { endIfWon, endRound } from './flow';
import { ROLE_NAMES, WEREWOLF } from './roles';
import { filled } from './arrays';
import type { Draft } from './state';
import { takeAction } from './take';

/** Applies one vote step. */
export function voteStep(d: Draft, actions: ActionMap<unknown>): void {
  const prev = d.s;
  const round = prev.pub.round;
  if (prev.rules.voting === 'sequential') {
    const seat = prev.act[0];
    const a = takeAction(prev, seat, actions);
    const target = a === NONE ? -1 : a - TARGET;
    const votes = prev.votes.slice();
    votes[seat] = target;
    d.s.votes = votes;
    d.log({ type: 'vote', round, seat, target: target >= 0 ? target : null });
    const p = d.pub();
    const next = prev.sub + 1;
    if (next < p.order.length) {
      d.s.sub = next;
      p.turn = next;
      d.setAct([p.order[next]]);
      return;
    }
    tally(d, votes);
    return;
  }
  const n = prev.roles.length;
  const votes = filled(n, -1);
  const act = prev.act;
  for (let i = 0; i < act.length; i++) {
    const seat = act[i];
    const a = takeAction(prev, seat, actions);
    votes[seat] = a === NONE ? -1 : a - TARGET;
  }
  if (prev.rules.votesPublic) d.log({ type: 'votes', round, votes: votes.map((v) => (v >= 0 ? v : null)) });
  else for (let i = 0; i < act.length; i++) d.privQuiet(act[i], { type: 'vote', round, target: votes[act[i]] >= 0 ? votes[act[i]] : null });
  tally(d, votes);
}

/** Counts the votes, exiles per the rule, records vote statistics, and moves on. */
function tally(d: Draft, votes: readonly number[]): void {
  const s = d.s;
  const n = s.roles.length;
  const counts = filled(n, 0);
  let cast = 0;
  let onWolf = 0;
  for (let v = 0; v < n; v++) {
    const t = votes[v];
    if (t < 0) continue;
    counts[t]++;
    if (s.roles[v] !== WEREWOLF) {
      cast++;
      if (s.roles[t] === WEREWOLF) onWolf++;
    }
  }
  if (cast) s.stats = [s.stats[0] + cast, s.stats[1] + onWolf];
  let max = 0;
  for (let t = 0; t < n; t++) if (counts[t] > max) max = counts[t];
  let exiled = -1;
  if (max > 0) {
    const top: number[] = [];
    for (let t = 0; t < n; t++) if (counts[t] === max) top.push(t);
    switch (s.rules.exile) {
      case 'majority': {
        let living = 0;
        for (const a of s.pub.alive) living += a;
        if (max * 2 > living) exiled = top[0];
        break;
      }
      case 'plurality-random':
        exiled = top.length === 1 ? top[0] : top[d.int(top.length)];
        break;
      case 'plurality-none':
        exiled = top.length === 1 ? top[0] : -1;
        break;
    }
  }
  const round = s.pub.round;
  if (exiled >= 0) {
    d.kill([exiled]);
    d.log(s.rules.revealOnDeath ? { type: 'exile', round, seat: exiled, role: ROLE_NAMES[s.roles[exiled]] } : { type: 'exile', round, seat: exiled });
    if (endIfWon(d)) return;
  } else d.log({ type: 'exile', round, seat: null });
  endRound(d);
}
