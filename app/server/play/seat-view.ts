/**
 * What one seat of the `/play` namespace sees and says: its events (the seat's own view
 * sequence, effect steps left out), its snapshot after a (re)connect, and how its answers
 * (an action, a legal action's name with optional speech, an open answer) become env actions.
 */
import { EFFECT_SEAT, type Env } from '../../../src/core/env';
import type { MatchEvent } from '../../../src/core/events';
import { observationText, parseOpenAnswer, type LabelledAction, type PromptContext } from '../../../src/core/prompt';
import { projectEvents } from '../../../src/core/view-stream';
import type { LiveMatch } from '../live-matches';
import type { ActMessage, SeatInfoMessage, SeatMessage } from './play-protocol';

/** Whether an event is an effect step's turn (no seat answers it; seats never see it). */
export const isEffectTurn = (e: MatchEvent): boolean => e.type === 'turn' && e.toAct.includes(EFFECT_SEAT);

/** The match's events as the seat sees them (effect steps left out), numbered in the seat's own view. */
export function seatEvents(match: LiveMatch, seat: number): MatchEvent[] {
  return projectEvents(match.events.filter((e) => !isEffectTurn(e)), seat, match.teamOf);
}

/** The observation's text for the seat (null when the env cannot render it). */
export function renderFor(env: Env, obs: unknown, prompt: PromptContext): string | null {
  try {
    return observationText(env, obs, prompt);
  } catch {
    return null;
  }
}

/** The seat's match so far: its events (with the env's words) and observations, and the rules (empty when this server does not hold the match). */
export function seatSnapshot(match: LiveMatch | undefined, info: SeatInfoMessage, env: Env, prompt: PromptContext): SeatMessage {
  const captions = match?.captions ?? null;
  const events = match ? seatEvents(match, info.seat).map((e) => (captions ? captions.attach(e) : e)) : [];
  const observations = match?.tracker?.history(info.seat, match.events.filter((e) => !isEffectTurn(e)), match.teamOf) ?? [];
  const last = observations[observations.length - 1];
  return { ...info, events, observations, text: last ? renderFor(env, last.obs, prompt) : null, rules: captions?.rulesText() ?? null };
}

/**
 * The env action of an answer: the action itself, a legal action by its name (exact, or
 * case-insensitive when that is unambiguous; with speech where the env takes it), or an open
 * answer through the env's prompt template. Throws an Error saying what is wrong.
 */
export function answerToAction(env: Env, obs: unknown, labels: LabelledAction[] | null, speech: boolean, m: ActMessage): unknown {
  if ('action' in m) return m.action;
  if ('label' in m) {
    if (!labels) throw new Error('this decision has no named actions (an open answer is expected: send "answer")');
    const want = m.label.trim();
    const folded = labels.filter((l) => l.label.toLowerCase() === want.toLowerCase());
    const hit = labels.find((l) => l.label === want) ?? (folded.length === 1 ? folded[0] : undefined);
    if (!hit) throw new Error(`"${want.slice(0, 80)}" is not one of the legal action names`);
    const say = m.say?.trim();
    if (say && speech) return env.prompt?.speech?.(hit.action, say, obs) ?? hit.action;
    return hit.action;
  }
  if (labels) {
    const hit = typeof m.answer === 'string' ? labels.find((l) => l.label === m.answer) : undefined;
    return hit ? hit.action : m.answer;
  }
  return parseOpenAnswer(env, m.answer, obs);
}
