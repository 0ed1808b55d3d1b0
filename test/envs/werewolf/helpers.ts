import { make } from '../../../app/catalog';
import type { Env, EnvEvent } from '../../../src/core/env';
import { ACCUSE, AGREE, ANTIDOTE, BID, CLAIM, DEFEND, NONE, POISON, REVEAL_GOOD, REVEAL_WOLF, SILENT, TARGET, type WerewolfAction } from '../../../envs/werewolf/actions';
import type { WerewolfObservation } from '../../../envs/werewolf/observe';
import type { WerewolfState } from '../../../envs/werewolf/state';

export { ACCUSE, AGREE, ANTIDOTE, BID, CLAIM, DEFEND, NONE, POISON, REVEAL_GOOD, REVEAL_WOLF, SILENT, TARGET };
export const T = (p: number): number => TARGET + p;

/** A werewolf-v1 game with the given params. */
export function game(params: Record<string, unknown>): { env: Env<WerewolfState, WerewolfAction, WerewolfObservation>; init: (seed: number) => WerewolfState } {
  const h = make('werewolf-v1', params);
  return { env: h.env, init: (seed) => h.init(seed) as WerewolfState };
}

/**
 * One step: the given seats play the given actions; every other seat to act plays NONE
 * (sleep / abstain / pass) or SILENT when that is legal. Throws when an action is illegal.
 */
export function play(
  env: Env<WerewolfState, WerewolfAction, WerewolfObservation>,
  s: WerewolfState,
  choices: Record<number, WerewolfAction> = {},
): { state: WerewolfState; events: EnvEvent[] } {
  const actions: Record<number, WerewolfAction> = {};
  for (const seat of env.toAct(s)) {
    let a = choices[seat];
    if (a === undefined) {
      const legal = env.legalActions!(s, seat)!;
      a = legal.includes(NONE) ? NONE : legal.includes(SILENT) ? SILENT : legal.includes(BID) ? BID : undefined!;
      if (a === undefined) throw new Error(`seat ${seat} has no default action (ask ${env.observe(s, seat).ask}, legal ${legal.join(',')})`);
    }
    const check = env.validateAction(s, seat, a);
    if (!check.ok) throw new Error(`seat ${seat}: ${check.reason}`);
    actions[seat] = a;
  }
  for (const k of Object.keys(choices)) if (!(Number(k) in actions)) throw new Error(`seat ${k} is not to act`);
  return env.step(s, actions);
}

/** Plays `play` and returns only the state. */
export function next(env: Env<WerewolfState, WerewolfAction, WerewolfObservation>, s: WerewolfState, choices: Record<number, WerewolfAction> = {}): WerewolfState {
  return play(env, s, choices).state;
}

/** Legal action indices of `seat` (legalActions, typed as the indices it always returns). */
export function legal(env: Env<WerewolfState, WerewolfAction, WerewolfObservation>, s: WerewolfState, seat: number): readonly number[] {
  return env.legalActions!(s, seat) as readonly number[];
}

/** All public events so far, flattened. */
export function publicLog(s: WerewolfState) {
  return s.pub.log.flat();
}

/** The seat asked to `ask` now, or -1. */
export function askedTo(env: Env<WerewolfState, WerewolfAction, WerewolfObservation>, s: WerewolfState, ask: string): number {
  for (const seat of env.toAct(s)) if (env.observe(s, seat).ask === ask) return seat;
  return -1;
}
