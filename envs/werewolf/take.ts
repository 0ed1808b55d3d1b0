/** Reading the acting seats' actions inside `step`. */
import type { ActionMap } from '../../src/core/env';
import { isLegal, validate } from './legal';
import type { WerewolfState } from './state';

/**
 * The action index of `seat` in `actions` (an index or `{act, text}`), checked against the
 * legal list. Throws with the validation reason when the action is missing or illegal: `step`
 * takes validated actions, but must never corrupt the game on a bad one.
 */
export function takeAction(s: WerewolfState, seat: number, actions: ActionMap<unknown>): number {
  const raw = actions[seat];
  const a = typeof raw === 'number' ? raw : raw !== null && typeof raw === 'object' ? (raw as { act?: unknown }).act : undefined;
  if (typeof a !== 'number' || !isLegal(s, seat, a)) {
    const check = raw === undefined ? { ok: false as const, reason: 'no action given' } : validate(s, seat, raw);
    throw new Error(`werewolf-v1 step: seat ${seat}: ${check.ok ? 'action not applicable' : check.reason}`);
  }
  return a;
}

/** The free text of an `{act, text}` action, or null. */
export function textOf(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  const t = (raw as { text?: unknown }).text;
  return typeof t === 'string' ? t : null;
}
