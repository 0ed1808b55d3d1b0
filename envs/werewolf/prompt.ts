/**
 * Prompts for text players (LLMs, humans in the page): the game and each role's goal, actions
 * named in the words of the current ask ("vote P3", "claim seer"), and free text alongside
 * speech acts ({act, text}).
 */
import type { PromptContext, PromptTemplate } from '../../src/core/prompt';
import { ANTIDOTE, BID, NONE, describeAction, isSpeechAct, parseAction, type WerewolfAction } from './actions';
import type { WerewolfObservation } from './observe';
import { describeEnvEvent, rulesText } from './render';

const GAME =
  'Werewolf: a social-deduction game. Werewolves secretly kill one player each night; by day everybody debates and votes to exile a suspect. Villagers win when every werewolf is gone, werewolves when they reach parity.';

const ROLE_GOAL: Record<string, string> = {
  werewolf: 'You are a werewolf: hide it, steer the votes towards villagers, and agree with your fellow wolves on night kills.',
  villager: 'You are a villager: find the werewolves from what is said and how people vote.',
  seer: 'You are the seer: each night you check whether one player is a werewolf; share results when it helps the village.',
  doctor: 'You are the doctor: each night you protect one player from the werewolves.',
  witch: 'You are the witch: you hold one antidote (save the night victim) and one poison (kill a player).',
  guard: 'You are the guard: each night you guard one player (not the same one twice in a row).',
};

/** The action's name in the words of the ask ("vote P3", "kill P2", "accuse P4", "claim seer"). */
export function werewolfLabel(action: WerewolfAction, obs: WerewolfObservation): string {
  const parsed = parseAction(action);
  if (typeof parsed === 'string') return JSON.stringify(action);
  const i = parsed.index;
  if (i < NONE) return `${obs.ask ?? 'target'} P${i}`;
  if (i === NONE) return obs.ask === 'vote' ? 'pass' : obs.ask === 'sleep' ? 'sleep' : 'none';
  // Seat numbers read as player names (bids stay numbers).
  return i >= BID && i < ANTIDOTE ? describeAction(i) : describeAction(i).replace(/ (\d+)/, ' P$1');
}

/** werewolf-v1's prompt template. */
export const werewolfPrompt: PromptTemplate<WerewolfObservation, WerewolfAction> = {
  system: (ctx: PromptContext) => `${GAME} You are P${ctx.seat} of ${ctx.seats}. ${ROLE_GOAL[ctx.role] ?? `You are the ${ctx.role}.`} Play to make your team win.`,
  label: werewolfLabel,
  speech: (action, text) => (typeof action === 'number' && isSpeechAct(action) && text ? { act: action, text } : null),
  event: describeEnvEvent,
  rules: (obs) => rulesText(obs.rules),
};
