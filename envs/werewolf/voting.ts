/**
 * The day's vote: everyone at once (secret or announced) or one at a time in today's order
 * (always public), abstaining where allowed; then the exile rule (strict majority of the
 * living, plurality with a random tie-break, or plurality where any tie exiles nobody), the
 * win check, the round cap and the next night.
 */
import type { ActionMap } from '../../src/core/env';
import { NONE, TARGET } from './actions';
import { endIfWon, endRound } from './flow';
import { ROLE_NAMES } from './roles';
import { filled } from './arrays';
import { popcount } from './seat-masks';
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
    const next = prev.stepInPhase + 1;
    if (next < p.order.length) {
      d.s.stepInPhase = next;
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

const counts = new Int32Array(32); // scratch for tally (no state kept between calls)

/** Counts the votes, exiles per the rule, records vote statistics, and moves on. */
function tally(d: Draft, votes: readonly number[]): void {
  const s = d.s;
  const n = s.roles.length;
  counts.fill(0, 0, n);
  let cast = 0;
  let onWolf = 0;
  let max = 0;
  for (let v = 0; v < n; v++) {
    const t = votes[v];
    if (t < 0) continue;
    const c = ++counts[t];
    if (c > max) max = c;
    if (!((s.wolfMask >> v) & 1)) {
      cast++;
      if ((s.wolfMask >> t) & 1) onWolf++;
    }
  }
  if (cast) s.stats = [s.stats[0] + cast, s.stats[1] + onWolf];
  let exiled = -1;
  if (max > 0) {
    let top = 0;
    let first = -1;
    for (let t = 0; t < n; t++) {
      if (counts[t] !== max) continue;
      if (first < 0) first = t;
      top++;
    }
    switch (s.rules.exile) {
      case 'majority':
        if (max * 2 > popcount(s.aliveBits)) exiled = first;
        break;
      case 'plurality-random': {
        let k = top === 1 ? 0 : d.int(top);
        for (let t = 0; t < n; t++) if (counts[t] === max && k-- === 0) exiled = t;
        break;
      }
      case 'plurality-none':
        exiled = top === 1 ? first : -1;
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
