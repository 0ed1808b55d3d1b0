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
import type { Draft } from './state';

/** Applies one night step (actions of every living seat). */
export function nightStep(d: Draft, actions: ActionMap<unknown>): void {
  const prev = d.s;
  const round = prev.pub.round;
  const act = prev.act;
  for (let i = 0; i < act.length; i++) {
    const seat = act[i];
    const a = takeAction(prev, seat, actions);
    if (a === NONE) {
      if (seat === prev.actor && prev.rules.nightKill === 'vote-in-turn') d.wolfVote(prev.stepInPhase, -1);
      continue;
    }
    switch (nightAsk(prev, seat)) {
      case 'kill':
        d.night().victim = a - TARGET;
        d.team({ type: 'kill', round, by: seat, target: a - TARGET });
        break;
      case 'propose':
        d.night().proposal = a - TARGET;
        d.team({ type: 'proposal', round, by: seat, target: a - TARGET });
        break;
      case 'decide':
        d.night().victim = a - TARGET;
        d.team({ type: 'decision', round, by: seat, target: a - TARGET });
        break;
      case 'wolf-vote':
        d.wolfVote(prev.stepInPhase, a - TARGET);
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
        d.night().protect = a - TARGET;
        d.s.lastProtect = a - TARGET;
        d.priv(seat, { type: 'protect', round, target: a - TARGET });
        break;
      case 'guard':
        d.night().guard = a - TARGET;
        d.s.lastGuard = a - TARGET;
        d.priv(seat, { type: 'guard', round, target: a - TARGET });
        break;
      case 'antidote':
        if (a === ANTIDOTE) {
          d.night().saved = true;
          d.s.potions = [prev.potions[0] - 1, prev.potions[1]];
          d.priv(seat, { type: 'antidote', round, target: prev.night.victim });
        }
        break;
      case 'poison':
        d.night().poison = a - POISON;
        d.s.potions = [prev.potions[0], prev.potions[1] - 1];
        d.priv(seat, { type: 'poison', round, target: a - POISON });
        break;
      default:
        break;
    }
  }
  const s = d.s;
  if (prev.stepInPhase === 0) {
    // a guard or doctor without a legal target passed: the "not twice running" memory resets
    if (prev.rules.composition.guard > 0 && s.night.guard < 0) s.lastGuard = -1;
    if (prev.rules.composition.doctor > 0 && s.night.protect < 0) s.lastProtect = -1;
  }
  if (prev.stepInPhase === prev.killSteps - 1) settleVictim(d);
  if (prev.stepInPhase + 1 < prev.nightSteps) {
    s.stepInPhase = prev.stepInPhase + 1;
    s.actor = killActor(d, s.stepInPhase);
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
    for (let i = 0; i < s.killSteps; i++) {
      const t = night.wolfVotes[i];
      if (t < 0) continue;
      const c = (counts.get(t) ?? 0) + 1;
      counts.set(t, c);
      if (c > bestCount) {
        best = t;
        bestCount = c;
        tie = false;
      } else if (c === bestCount && t !== best) tie = true;
    }
    night.victim = tie ? -1 : best;
  }
  if (s.rules.composition.witch === 0) return;
  for (let seat = 0; seat < s.roles.length; seat++) {
    if (s.roles[seat] === WITCH && s.pub.alive[seat]) {
      const v = s.night.victim;
      d.priv(seat, { type: 'victim', round: s.pub.round, target: v >= 0 ? v : null });
    }
  }
}

/** Dawn: deaths announced (no causes, no roles unless revealOnDeath), win check, then the day. */
function resolveNight(d: Draft): void {
  const s = d.s;
  const night = s.night;
  const victim = night.victim;
  const dead: number[] = [];
  if (victim >= 0 && victim !== night.protect && victim !== night.guard && !night.saved) dead.push(victim);
  const poisoned = night.poison;
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
