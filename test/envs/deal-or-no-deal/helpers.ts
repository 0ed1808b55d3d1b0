import { make } from '../../../app/catalog';
import type { Env, EnvEvent } from '../../../src/core/env';
import type { DondObservation, DondState } from '../../../envs/deal-or-no-deal';

export const ID = 'deal-or-no-deal-v1';
/** OpenSpiel's first instance (also the first line of its 10-instance test set). */
export const INSTANCE0 = '1,2,3 8,1,0 4,0,2';

export type DondEnv = Env<DondState, unknown, DondObservation>;

/** A fresh game with `params` and `seed`. */
export function start(params: Record<string, unknown>, seed = 1): { env: DondEnv; state: DondState } {
  const { env, params: resolved } = make(ID, params);
  return { env: env as DondEnv, state: env.init(resolved, seed) as DondState };
}

/** Plays `actions` (one per step, for whichever seat is to act), validating each; returns the final state and all events. */
export function play(env: DondEnv, state: DondState, actions: unknown[]): { state: DondState; events: EnvEvent[] } {
  const events: EnvEvent[] = [];
  for (const a of actions) {
    const seat = env.toAct(state)[0];
    if (seat === undefined) throw new Error(`game over before action ${JSON.stringify(a)}`);
    const check = env.validateAction(state, seat, a);
    if (!check.ok) throw new Error(`seat ${seat}: ${JSON.stringify(a)} rejected: ${check.reason}`);
    const r = env.step(state, { [seat]: a });
    state = r.state;
    events.push(...r.events);
  }
  return { state, events };
}

/** Reason text of a rejected action ('' when accepted). */
export function rejection(env: DondEnv, state: DondState, seat: number, action: unknown): string {
  const r = env.validateAction(state, seat, action);
  return r.ok ? '' : r.reason;
}
