/**
 * Roles and teams of werewolf-v1. Roles are small integer codes inside the state (compact,
 * fast); every observation, event and param uses the names.
 */

/** Most seats a game can have; fixes the size of the action space and of the encoding. */
export const MAX_SEATS = 12;

/** Role names, indexed by role code. The order is part of the action layout (claim actions). */
export const ROLE_NAMES = ['villager', 'werewolf', 'seer', 'doctor', 'witch', 'guard'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const VILLAGER = 0;
export const WEREWOLF = 1;
export const SEER = 2;
export const DOCTOR = 3;
export const WITCH = 4;
export const GUARD = 5;
export const NUM_ROLES = ROLE_NAMES.length;

/** The two teams (the env's outcome labels besides "draw"). */
export const WOLVES = 'werewolves';
export const VILLAGERS = 'villagers';
export type TeamName = typeof WOLVES | typeof VILLAGERS;

/** Roles of which a game may hold at most one (their night state is kept per role). */
export const SINGLETON_ROLES: readonly number[] = [SEER, DOCTOR, WITCH, GUARD];

/** The team of a role code. */
export function teamOf(role: number): TeamName {
  return role === WEREWOLF ? WOLVES : VILLAGERS;
}

/** Role code of a name, or -1. */
export function roleCode(name: unknown): number {
  return typeof name === 'string' ? (ROLE_NAMES as readonly string[]).indexOf(name) : -1;
}
