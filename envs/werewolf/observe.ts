/**
 * The one projection for agents, spectators and replays. A seat sees its own role, its
 * teammates if it is a werewolf (with the wolves' shared night log), its own private results
 * (seer checks, protections, the witch's victim and potions, its secret votes) and the public
 * info. The `public` view is what a villager sees minus a role; `omniscient` sees everything.
 *
 * Observations are built in O(1): they reference the state's shared, immutable public info and
 * logs. Treat them as read-only.
 */
import type { Viewer } from '../../src/core/visibility';
import { askOf, type AskName } from './legal';
import { ROLE_NAMES, WEREWOLF, WITCH, WOLVES, VILLAGERS, type RoleName, type TeamName } from './roles';
import type { Rules } from './config';
import { EMPTY, type NightChoices, type PrivateEvent, type PublicInfo, type WerewolfState } from './state';

/** Hidden state shown to omniscient viewers only. */
export type SecretInfo = {
  privates: PrivateEvent[][];
  night: NightChoices;
  actor: number;
  checked: number;
  lastProtect: number;
  lastGuard: number;
  votes: number[];
};

/** What a viewer observes. */
export type WerewolfObservation = {
  view: number | 'public' | 'omniscient';
  /** The viewer's seat, or null for spectator views. */
  seat: number | null;
  role: RoleName | null;
  team: TeamName | null;
  /** Known werewolf seats: all of them for a werewolf (itself included) and the omniscient view; [] otherwise. */
  wolves: readonly number[];
  /** What this seat is asked to do now; null when it is not to act. */
  ask: AskName | null;
  /** The seat's own private results, oldest first. */
  private: readonly PrivateEvent[];
  /** The werewolves' shared night log (werewolves and omniscient only). */
  teamLog: readonly PrivateEvent[] | null;
  /** Witch's potions left [antidote, poison] (the witch and omniscient only). */
  potions: readonly number[] | null;
  /** Every seat's role (omniscient; everyone sees public.roles once the game is over). */
  roles: readonly RoleName[] | null;
  rules: Rules;
  public: PublicInfo;
  secret: SecretInfo | null;
};

const roleNamesCache = new WeakMap<object, RoleName[]>();

function roleNames(s: WerewolfState): RoleName[] {
  let names = roleNamesCache.get(s.roles);
  if (!names) roleNamesCache.set(s.roles, (names = s.roles.map((r) => ROLE_NAMES[r])));
  return names;
}

/** Observation of `viewer` (a seat, 'public' or 'omniscient'); an unknown seat gets the public view. */
export function observe(s: WerewolfState, viewer: Viewer): WerewolfObservation {
  if (typeof viewer === 'number' && Number.isInteger(viewer) && viewer >= 0 && viewer < s.roles.length) {
    const r = s.roles[viewer];
    const wolf = r === WEREWOLF;
    return {
      view: viewer,
      seat: viewer,
      role: ROLE_NAMES[r],
      team: wolf ? WOLVES : VILLAGERS,
      wolves: wolf ? s.wolves : EMPTY,
      ask: askOf(s, viewer),
      private: s.priv[viewer],
      teamLog: wolf ? s.team : null,
      potions: r === WITCH ? s.potions : null,
      roles: null,
      rules: s.rules,
      public: s.pub,
      secret: null,
    };
  }
  if (viewer === 'omniscient') {
    return {
      view: 'omniscient',
      seat: null,
      role: null,
      team: null,
      wolves: s.wolves,
      ask: null,
      private: EMPTY,
      teamLog: s.team,
      potions: s.potions,
      roles: roleNames(s),
      rules: s.rules,
      public: s.pub,
      secret: {
        privates: s.priv,
        night: s.night,
        actor: s.actor,
        checked: s.checked,
        lastProtect: s.lastProtect,
        lastGuard: s.lastGuard,
        votes: s.votes,
      },
    };
  }
  return {
    view: 'public',
    seat: null,
    role: null,
    team: null,
    wolves: EMPTY,
    ask: null,
    private: EMPTY,
    teamLog: null,
    potions: null,
    roles: null,
    rules: s.rules,
    public: s.pub,
    secret: null,
  };
}
