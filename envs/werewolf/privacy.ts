/**
 * States that differ from a state only in one seat's private information, for the conformance
 * kit's leak check: the seat's hidden role (changed to another villager-team role), its private
 * results, and the hidden memory of its role (seer's checked set, doctor's and guard's last
 * target, witch's potions, its pending night choice). No other seat and no spectator may see a
 * difference. Werewolves have no single-seat secret (their night log is the team's), and once
 * the game is over every role is public, so those get no variant.
 */
import type { Rng } from '../../src/core/rng';
import { DOCTOR, GUARD, ROLE_NAMES, SEER, VILLAGER, WEREWOLF, WITCH } from './roles';
import { copyNight, PH_OVER, type PrivateEvent, type WerewolfState } from './state';

const GOOD_ROLES = [VILLAGER, SEER, DOCTOR, WITCH, GUARD];

function otherSeat(s: WerewolfState, seat: number, x: number): number {
  const n = s.roles.length;
  let t = (x + 1) % n;
  if (t === seat) t = (t + 1) % n;
  return t;
}

/** A copy of `s` whose `seat` has different private memory (and, with `role` >= 0, another role). */
function vary(s: WerewolfState, seat: number, role: number): WerewolfState {
  const v: WerewolfState = { ...s };
  const own = s.roles[seat];
  if (role >= 0) {
    v.roles = s.roles.slice();
    v.roles[seat] = role;
    v.seats = s.seats.slice();
    v.seats[seat] = { role: ROLE_NAMES[role], team: 'villagers' };
    v.plainMask = role === VILLAGER ? s.plainMask | (1 << seat) : s.plainMask & ~(1 << seat);
  }
  const fake: PrivateEvent[] = s.priv[seat].length ? [] : [{ type: 'check', round: s.pub.round, target: otherSeat(s, seat, seat), result: 'werewolf' }];
  v.priv = s.priv.slice();
  v.priv[seat] = fake;
  const night = copyNight(s.night);
  if (own === SEER) v.checked = s.checked ^ (1 << otherSeat(s, seat, seat));
  if (own === DOCTOR) {
    v.lastProtect = otherSeat(s, seat, s.lastProtect);
    night.protect = otherSeat(s, seat, night.protect);
  }
  if (own === GUARD) {
    v.lastGuard = otherSeat(s, seat, s.lastGuard);
    night.guard = otherSeat(s, seat, night.guard);
  }
  if (own === WITCH) {
    v.potions = [s.potions[0] ? 0 : 1, s.potions[1] ? 0 : 1];
    night.saved = !night.saved;
    night.poison = night.poison >= 0 ? -1 : otherSeat(s, seat, seat);
  }
  v.night = night;
  return v;
}

/** Private variants of `seat` (see the module comment); [] when it holds no single-seat secret. */
export function privateVariants(s: WerewolfState, seat: number, rng: Rng): WerewolfState[] {
  if (s.phase === PH_OVER || !Number.isInteger(seat) || seat < 0 || seat >= s.roles.length) return [];
  const own = s.roles[seat];
  if (own === WEREWOLF) return [];
  if (!s.pub.alive[seat] && s.rules.revealOnDeath) return [];
  const others = GOOD_ROLES.filter((r) => r !== own);
  return [vary(s, seat, others[rng.int(others.length)]), vary(s, seat, -1)];
}
