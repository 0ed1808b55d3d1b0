/**
 * The night: every living player acts at once in each night step (most of them "sleep", so the
 * public step structure reveals no role). Kill steps first (one random wolf; or the first wolf
 * proposes and the last decides; or the wolves vote in turn), with the seer, doctor and guard
 * acting in the first step; then the witch's antidote step and poison step when the game has a
 * witch. The last step resolves the night: the victim dies unless protected, guarded or saved;
 * the poisoned player dies regardless.
 */
import type { ActionMap } from '../../src/core/env';
import { ANTIDOTE, NONE, POISON, TARGET } from './actions';
import { endIfWon, killActor, startDay } from './flow';
import { takeAction } from './take';
import { ROLE_NAMES, WEREWOLF, WITCH } from './roles';
import { nightAsk } from './legal';
import { N_GUARD, N_POISON, N_PROPOSAL, N_PROTECT, N_SAVE, N_VICTIM, N_WOLF_VOTES, type Draft } from './state';

/** Applies one night step (actions of every living seat). */
export function nightStep(d: Draft, actions: ActionMap<unknown>): void {
  const prev = d.s;
  const round = prev.pub.round;
  const act = prev.act;
  const ks = prev.ks;
  for (let i = 0; i < act.length; i++) {
    const seat = act[i];
    const a = takeAction(prev, seat, actions);
    if (a === NONE) {
      if (seat === prev.actor && prev.rules.nightKill === 'vote-in-turn') d.night()[N_WOLF_VOTES + prev.sub] = -1;
      continue;
    }
    switch (nightAsk(prev, seat)) {
      case 'kill':
        d.night()[N_VICTIM] = a - TARGET;
        d.team({ type: 'kill', round, by: seat, target: a - TARGET });
        break;
      case 'propose':
        d.night()[N_PROPOSAL] = a - TARGET;
        d.team({ type: 'proposal', round, by: seat, target: a - TARGET });
        break;
      case 'decide':
        d.night()[N_VICTIM] = a - TARGET;
        d.team({ type: 'decision', round, by: seat, target: a - TARGET });
        break;
      case 'wolf-vote':
        d.night()[N_WOLF_VOTES + prev.sub] = a - TARGET;
        d.team({ type: 'wolf-vote', round, by: seat, target: a - TARGET });
        break;
      case 'check': {
        const t = a - TARGET;
        const role = prev.roles[t];
        const result = prev.rules.seerResult === 'role' ? ROLE_NAMES[role] : role === WEREWOLF ? 'werewolf' : 'not-werewolf';
        d.s.checked = prev.checked | (1 << t);
        d.priv(seat, { type: 'check', round, target: t, result });
        break;
      }
      case 'protect':
        d.night()[N_PROTECT] = a - TARGET;
        d.s.lastProtect = a - TARGET;
        d.priv(seat, { type: 'protect', round, target: a - TARGET });
        break;
      case 'guard':
        d.night()[N_GUARD] = a - TARGET;
        d.s.lastGuard = a - TARGET;
        d.priv(seat, { type: 'guard', round, target: a - TARGET });
        break;
      case 'antidote':
        if (a === ANTIDOTE) {
          d.night()[N_SAVE] = 1;
          d.s.potions = [prev.potions[0] - 1, prev.potions[1]];
          d.priv(seat, { type: 'antidote', round, target: prev.night[N_VICTIM] });
        }
        break;
      case 'poison':
        d.night()[N_POISON] = a - POISON;
        d.s.potions = [prev.potions[0], prev.potions[1] - 1];
        d.priv(seat, { type: 'poison', round, target: a - POISON });
        break;
      default:
        break;
    }
  }
  const s = d.s;
  if (prev.sub === 0) {
    // a guard or doctor without a legal target passed: the "not twice running" memory resets
    if (prev.rules.composition.guard > 0 && s.night[N_GUARD] < 0) s.lastGuard = -1;
    if (prev.rules.composition.doctor > 0 && s.night[N_PROTECT] < 0) s.lastProtect = -1;
  }
  if (prev.sub === ks - 1) settleVictim(d);
  if (prev.sub + 1 < prev.ns) {
    s.sub = prev.sub + 1;
    s.actor = killActor(d, s.sub);
    return;
  }
  resolveNight(d);
}

/** After the last kill step: the wolves' tally (vote-in-turn) and the witch is told the victim. */
function settleVictim(d: Draft): void {
  const s = d.s;
  if (s.rules.nightKill === 'vote-in-turn') {
    const night = d.night();
    const counts = new Map<number, number>();
    let best = -1;
    let bestCount = 0;
    let tie = false;
    for (let i = 0; i < s.ks; i++) {
      const t = night[N_WOLF_VOTES + i];
      if (t < 0) continue;
      const c = (counts.get(t) ?? 0) + 1;
      counts.set(t, c);
      if (c > bestCount) {
        best = t;
        bestCount = c;
        tie = false;
      } else if (c === bestCount && t !== best) tie = true;
    }
    night[N_VICTIM] = tie ? -1 : best;
  }
  if (s.rules.composition.witch === 0) return;
  for (let seat = 0; seat < s.roles.length; seat++) {
    if (s.roles[seat] === WITCH && s.pub.alive[seat]) {
      const v = s.night[N_VICTIM];
      d.priv(seat, { type: 'victim', round: s.pub.round, target: v >= 0 ? v : null });
    }
  }
}

/** Dawn: deaths announced (no causes, no roles unless revealOnDeath), win check, then the day. */
function resolveNight(d: Draft): void {
  const s = d.s;
  const night = s.night;
  const victim = night[N_VICTIM];
  const dead: number[] = [];
  if (victim >= 0 && victim !== night[N_PROTECT] && victim !== night[N_GUARD] && night[N_SAVE] !== 1) dead.push(victim);
  const poisoned = night[N_POISON];
  if (poisoned >= 0 && dead.indexOf(poisoned) < 0) dead.push(poisoned);
  dead.sort((a, b) => a - b);
  d.kill(dead);
  d.log(
    s.rules.revealOnDeath
      ? { type: 'dawn', round: s.pub.round, dead, roles: dead.map((x) => ROLE_NAMES[s.roles[x]]) }
      : { type: 'dawn', round: s.pub.round, dead },
  );
  if (endIfWon(d)) return;
  startDay(d);
}
