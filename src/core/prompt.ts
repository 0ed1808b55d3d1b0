/**
 * Text players' view of an env: how a language model (or a human in the page) is told the game,
 * its role, what it sees and how to answer. Each env may ship a {@link PromptTemplate} (its
 * `prompt` member, e.g. envs/countdown/prompt.ts); everything here has a generic default, so
 * any env can be played by text players. The templates' words can be replaced from a file
 * ({@link PromptOverrides}).
 */
import type { Env } from './env';
import type { JsonObject, JsonValue } from './json';
import type { Visibility } from './visibility';
import type { OpenAnswer, PromptContext, PromptTemplate } from './prompt-template';

export type { OpenAnswer, PromptContext, PromptTemplate } from './prompt-template';

/** Text replacements for an env's prompt, loaded from a JSON file (`{role}`, `{env}`, `{seat}`, `{seats}` are filled in). */
export interface PromptOverrides {
  /** Replaces the system message for every role. */
  system?: string;
  /** Replaces the system message for one role (wins over `system`). */
  roles?: Record<string, string>;
  /** Appended to every decision's message. */
  instruction?: string;
}

/** A finite legal action with its name. */
export interface LabelledAction {
  action: JsonValue;
  label: string;
}

/** Fills `{role}`, `{env}`, `{seat}`, `{seats}` and `{team}` in an override text. */
export function fillPlaceholders(text: string, ctx: PromptContext): string {
  const values: Record<string, string> = { role: ctx.role, env: ctx.env, seat: String(ctx.seat), seats: String(ctx.seats), team: ctx.team };
  return text.replace(/\{(role|env|seat|seats|team)\}/g, (_m, k: string) => values[k]);
}

/** The default system message of an env without a template. */
export function defaultSystem(env: Env, ctx: PromptContext): string {
  const desc = env.meta.description ? ` ${env.meta.description}` : '';
  return `You are playing ${ctx.env}, seat ${ctx.seat} of ${ctx.seats}, as the ${ctx.role}.${desc} Play to maximize your own return.`;
}

/** The system message for a seat: the override's, else the env template's, else the default. */
export function systemPrompt(env: Env, ctx: PromptContext, overrides?: PromptOverrides): string {
  const custom = overrides?.roles?.[ctx.role] ?? overrides?.system;
  if (custom !== undefined) return fillPlaceholders(custom, ctx);
  return env.prompt?.system?.(ctx) ?? defaultSystem(env, ctx);
}

/** The observation as text (the template's, else the env's render). */
export function observationText(env: Env, obs: unknown, ctx: PromptContext): string {
  return env.prompt?.observation?.(obs, ctx) ?? env.render(obs);
}

/** Default label: compact JSON of the action. */
function jsonLabel(action: unknown): string {
  const text = JSON.stringify(action);
  return text === undefined ? String(action) : text;
}

/**
 * The name of one action as the acting seat's observation `obs` words it (the template's label;
 * a text answer as itself; else its JSON). Never throws.
 */
export function actionLabel(env: Env, obs: unknown, action: unknown): string {
  try {
    const label = env.prompt?.label?.(action, obs);
    if (label !== undefined) return label;
  } catch {
    /* fall back to the action itself */
  }
  return typeof action === 'string' ? action : jsonLabel(action);
}

/**
 * The note on one finite action for the seat whose observation `obs` is (see
 * {@link PromptTemplate.note}); null when the env has none. Never throws.
 */
export function actionNote(env: Env, obs: unknown, action: unknown): string | null {
  try {
    const note = env.prompt?.note?.(action, obs);
    return typeof note === 'string' && note ? note : null;
  } catch {
    return null;
  }
}

/** The env's words for one of its step events (see {@link PromptTemplate.event}); null when it has none. Never throws. */
export function envEventText(env: Env, name: string, data: JsonObject, visibility: Visibility): string | null {
  try {
    return env.prompt?.event?.(name, data, visibility) ?? null;
  } catch {
    return null;
  }
}

/** The rules in force for the episode `obs` belongs to, in words (see {@link PromptTemplate.rules}); null when the env states none. Never throws. */
export function rulesText(env: Env, obs: unknown): string | null {
  try {
    return env.prompt?.rules?.(obs) ?? null;
  } catch {
    return null;
  }
}

/** Names every legal action (unique names: repeats get " #2", " #3"...). */
export function labelActions(env: Env, obs: unknown, legal: readonly unknown[]): LabelledAction[] {
  const seen = new Map<string, number>();
  return legal.map((action) => {
    let label: string;
    try {
      label = env.prompt?.label?.(action, obs) ?? jsonLabel(action);
    } catch {
      label = jsonLabel(action);
    }
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return { action: action as JsonValue, label: n > 1 ? `${label} #${n}` : label };
  });
}

/** The answer format of an open decision (the template's, else "any JSON value"). */
export function openAnswer(env: Env, obs: unknown, ctx: PromptContext): OpenAnswer {
  return env.prompt?.open?.(obs, ctx) ?? { format: 'Answer with the action as a JSON value, as the observation describes.', schema: {} };
}

/** The action for an open answer's value (the template's parse, else the value). Throws with the reason on bad form. */
export function parseOpenAnswer(env: Env, value: JsonValue, obs: unknown): unknown {
  return env.prompt?.parse ? env.prompt.parse(value, obs) : value;
}
