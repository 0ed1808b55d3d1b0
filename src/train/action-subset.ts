/**
 * Which action indices a learner's network has outputs for (`layout.actions`). Envs number
 * every role's actions in one space (countdown-v1: 1,193 indices, of which a solver uses 91),
 * so a network that plays some roles only needs the indices those roles can ever take.
 *
 * Config `actions`: "all" (every index), "probe" (the union of the indices legal for the
 * learner's roles in random playouts), or explicit inclusive ranges per role
 * ({"solver": [[0, 90]]}; a learner gets the union over its roles).
 */
import type { Env } from '../core/env';
import type { Params } from '../core/params';
import { Rng, deriveSeed } from '../core/rng';
import { runMatch } from '../match/runner';
import { legalFromObservation } from './policy-model';

/** The `actions` config value. */
export type ActionSubsetSpec = 'all' | 'probe' | Record<string, [number, number][]>;

/** Legal action indices seen for each role in `episodes` random playouts. */
export async function probeLegalIndices(env: Env, params: Params, episodes: number, seed: number): Promise<Map<string, Set<number>>> {
  const encoder = env.encoder!;
  const seen = new Map<string, Set<number>>();
  for (let k = 0; k < episodes; k++) {
    const episodeSeed = deriveSeed(seed, 'probe', k);
    let roles: string[] = [];
    await runMatch({
      env,
      params,
      seed: episodeSeed,
      agents: (seats) => {
        roles = seats.map((s) => s.role);
        return seats.map((_, i) => {
          const rng = Rng.fromSeed(deriveSeed(episodeSeed, 'probe-agent', i));
          return {
            name: 'probe',
            act(obs: unknown, legal: readonly unknown[] | null, ctx: { seat: number }) {
              const list = legal ?? legalFromObservation(encoder, obs);
              const set = seen.get(roles[ctx.seat]) ?? new Set<number>();
              seen.set(roles[ctx.seat], set);
              if (list) for (const a of list) set.add(encoder.actionIndex(a));
              if (legal) return legal[rng.int(legal.length)];
              if (list && list.length) return list[rng.int(list.length)];
              if (env.sampleAction) return env.sampleAction(obs, rng);
              throw new Error(`${env.meta.id}: cannot probe an open action set without legal indices or sampleAction`);
            },
          };
        });
      },
    });
  }
  for (const s of seen.values()) s.delete(-1);
  return seen;
}

/** The sorted action indices for a learner playing `roles`, or undefined for "all". */
export async function resolveActionSubset(
  spec: ActionSubsetSpec,
  env: Env,
  params: Params,
  roles: readonly string[],
  probe: () => Promise<Map<string, Set<number>>>,
): Promise<number[] | undefined> {
  if (spec === 'all') return undefined;
  const set = new Set<number>();
  if (spec === 'probe') {
    const seen = await probe();
    for (const r of roles) for (const a of seen.get(r) ?? []) set.add(a);
    if (set.size === 0) throw new Error(`actions "probe": random playouts of ${env.meta.id} never asked ${roles.join('+')} to act`);
  } else {
    for (const r of roles) {
      for (const [lo, hi] of spec[r] ?? []) for (let a = lo; a <= hi; a++) set.add(a);
    }
    if (set.size === 0) return undefined; // no ranges for these roles: all actions
  }
  const n = env.encoder!.numActions;
  for (const a of set) if (a < 0 || a >= n) throw new Error(`actions: index ${a} is outside ${env.meta.id}'s 0..${n - 1}`);
  return [...set].sort((a, b) => a - b);
}
