/**
 * GRPO groups of rollouts: which trajectories are compared with each other. A group is what
 * the user asked for — one seat's trajectories in the `--group-size` episodes played from one
 * seed (`g<group>:s<seat>`) — unless the seat made several tries in an episode (Countdown's K
 * attempts at the puzzle of that episode): then its tries in that episode form the group
 * (`e<episode>:s<seat>`), since the tries share the start the episode set up. An episode with a
 * single try is a whole-episode trajectory and joins the seed's group.
 *
 * A group of one trajectory has advantage 0 by definition: a trainer would learn nothing from it.
 * {@link singletonGroups} finds them; {@link RolloutGroupError} is the refusal.
 */
import type { Env } from '../core/env';

/** A rollout request that would make groups of one trajectory; the message says why and how to fix it. */
export class RolloutGroupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RolloutGroupError';
  }
}

/** The GRPO group key of one trajectory (see the module comment). */
export function groupKey(group: number, episode: number, seat: number, isTry: boolean, triesInEpisode: number): string {
  return isTry && triesInEpisode > 1 ? `e${episode}:s${seat}` : `g${group}:s${seat}`;
}

/** Group keys that hold exactly one trajectory, in first-seen order. */
export function singletonGroups(keys: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  return [...count].filter(([, n]) => n === 1).map(([k]) => k);
}

/**
 * The refusal before anything is played: `--group-size 1` on an env without tries makes every
 * group one trajectory. Null when the request may make real groups (envs with tries are checked
 * on the first group played, by {@link singletonRefusal}).
 */
export function groupSizeProblem(env: Env, groupSize: number): string | null {
  if (groupSize > 1 || env.capabilities.tries) return null;
  return `--group-size 1: every GRPO group would hold one trajectory (advantage 0), since ${env.meta.id} has no tries within an episode; use --group-size 2 or more (episodes from one seed form a group)`;
}

/**
 * The refusal after the first group was played: a group with one trajectory (an env with tries
 * whose params give a seat one try per episode, or a role without tries at --group-size 1).
 */
export function singletonRefusal(singletons: readonly string[], roleOf: (key: string) => string, groupSize: number): string | null {
  if (!singletons.length) return null;
  const key = singletons[0];
  const role = roleOf(key);
  return (
    `--group-size ${groupSize}: GRPO group ${key} (role ${role}) holds one trajectory, so its advantage is 0; ` +
    `use --group-size 2 or more, or params that give the ${role} several tries per episode (e.g. countdown's "attempts")` +
    `${singletons.length > 1 ? ` (${singletons.length} such groups)` : ''}`
  );
}

/** Group keys (of several trajectories) whose rewards are all equal: advantage 0 for each. */
export function flatGroups(keys: readonly string[], rewards: readonly number[]): string[] {
  const seen = new Map<string, { n: number; first: number; equal: boolean }>();
  keys.forEach((k, i) => {
    const s = seen.get(k);
    if (!s) seen.set(k, { n: 1, first: rewards[i], equal: true });
    else {
      s.n++;
      if (rewards[i] !== s.first) s.equal = false;
    }
  });
  return [...seen].filter(([, s]) => s.n > 1 && s.equal).map(([k]) => k);
}
