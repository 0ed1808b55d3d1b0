/**
 * `--roles`: which roles are trained and which share a network.
 *
 * Comma-separated learners; within one learner, roles joined by "+" share one network with a
 * role input. A team name stands for every role of that team ("villagers" = villager + seer +
 * doctor + ...). Omitted or "all": every role, one learner each. `sharedNet` merges every
 * learner into one network for all roles (one-model-all-roles).
 */
import type { RoleSpec } from '../core/env';

/** A bad --roles value; the message lists the known roles and teams. */
export class RolesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RolesError';
  }
}

/**
 * Learner role groups from the --roles text. `present` (the roles that have seats with the
 * run's params) limits the default "every role" to roles that actually play.
 */
export function parseRoleGroups(text: string | undefined, roles: readonly RoleSpec[], sharedNet = false, present?: ReadonlySet<string>): string[][] {
  const names = roles.map((r) => r.name);
  const teams = new Map<string, string[]>();
  for (const r of roles) {
    const team = r.team ?? r.name;
    if (team !== r.name) teams.set(team, [...(teams.get(team) ?? []), r.name]);
  }
  const known = () => `known roles: ${names.join(', ')}${teams.size ? `; teams: ${[...teams.keys()].join(', ')}` : ''}`;
  let groups: string[][];
  if (text === undefined || text.trim() === '' || text.trim() === 'all') {
    groups = names.filter((n) => !present || present.has(n)).map((n) => [n]);
  } else {
    groups = text.split(',').map((part) => {
      const out: string[] = [];
      for (const raw of part.split('+')) {
        const name = raw.trim();
        if (!name) throw new RolesError(`--roles: empty role name in "${text}"`);
        let expanded = names.includes(name) ? [name] : teams.get(name);
        if (!expanded) throw new RolesError(`--roles: unknown role or team "${name}" (${known()})`);
        // A team stands for its roles that have seats here (werewolf's witch and guard only play in some presets).
        if (expanded.length > 1 && present && expanded.some((r) => present.has(r))) expanded = expanded.filter((r) => present.has(r));
        for (const r of expanded) if (!out.includes(r)) out.push(r);
      }
      return out;
    });
  }
  const seen = new Set<string>();
  for (const g of groups) {
    for (const r of g) {
      if (seen.has(r)) throw new RolesError(`--roles: role "${r}" is in two learners; give each role to one learner`);
      seen.add(r);
    }
  }
  return sharedNet ? [groups.flat()] : groups;
}

/** A learner's id: its roles joined by "+". */
export function learnerId(roles: readonly string[]): string {
  return roles.join('+');
}
