/**
 * The conversation a text player sees, built the same way for LLM agents and for any other
 * agent whose decisions are exported as chat data (`arena rollouts` on scripted seats): the
 * system message, then per decision the observation with its answer format, and the answer in
 * the answer protocol (`{"action": "<name>"}` or `{"action": <value>}`).
 */
import type { Env } from './env';
import { jsonEqual } from './json';
import { observationText, systemPrompt, type PromptContext, type PromptOverrides } from './prompt';
import { neutralizeControlTokens } from './quote-text';
import { answerFormat, type AnswerFormat } from './answer-format';

/** A chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The user message of one decision and its answer format. The observation carries other seats'
 * words, so its chat-template control tokens are broken up (src/core/quote-text.ts) whether or
 * not the env quoted them.
 */
export function decisionPrompt(env: Env, obs: unknown, legal: readonly unknown[] | null, ctx: PromptContext, overrides?: PromptOverrides): { user: string; format: AnswerFormat } {
  const format = answerFormat(env, obs, legal, ctx);
  const extra = overrides?.instruction ? `\n${overrides.instruction}` : '';
  return { user: `${neutralizeControlTokens(observationText(env, obs, ctx))}\n\n${format.instruction}${extra}`, format };
}

/** An action written in the answer protocol: its name for finite sets, its value otherwise. */
export function answerTextOf(format: AnswerFormat, action: unknown): string {
  if (format.labels) {
    const hit = format.labels.find((l) => jsonEqual(l.action, action));
    if (hit) return JSON.stringify({ action: hit.label });
    // An action beyond the list (a speech act with text): its base name and the text when the env can tell.
    const base = action && typeof action === 'object' && 'act' in action ? format.labels.find((l) => jsonEqual(l.action, (action as { act: unknown }).act)) : undefined;
    const text = action && typeof action === 'object' && 'text' in action ? (action as { text: unknown }).text : undefined;
    if (base) return JSON.stringify(format.speech && typeof text === 'string' ? { action: base.label, say: text } : { action: base.label });
  }
  return JSON.stringify({ action });
}

/**
 * The conversation of one seat in one episode, for an agent that does not talk (a scripted or
 * neural seat): each `add` returns the messages before the decision and the answer text.
 */
export class SyntheticTranscript {
  private readonly messages: ChatMessage[];

  constructor(
    private readonly env: Env,
    private readonly ctx: PromptContext,
    private readonly overrides?: PromptOverrides,
  ) {
    this.messages = [{ role: 'system', content: systemPrompt(env, ctx, overrides) }];
  }

  add(obs: unknown, legal: readonly unknown[] | null, action: unknown): { messages: ChatMessage[]; completion: string } {
    const { user, format } = decisionPrompt(this.env, obs, legal, this.ctx, this.overrides);
    this.messages.push({ role: 'user', content: user });
    const prompt = this.messages.slice();
    const completion = answerTextOf(format, action);
    this.messages.push({ role: 'assistant', content: completion });
    return { messages: prompt, completion };
  }
}
