/**
 * The answer protocol of text players: the model answers one JSON object, `{"action": ...}`
 * (plus `"say"` where the action may carry speech). Finite action sets are answered by name;
 * open sets by a value in the env's answer schema. `answerFormat` builds the instruction and
 * the JSON schema (for structured output); `parseAnswer` is the strict parser used on every
 * completion, structured or not: it names what is wrong, and that reason goes back to the model.
 *
 * What a model actually answers, in order of precedence (docs/llm.md):
 * 1. a JSON object with an `"action"` field (the whole text, a fenced block, or the last balanced
 *    `{...}` that parses);
 * 2. else the last `<answer>...</answer>` (the TinyZero convention Countdown RL models learn);
 * 3. else, for open action sets only, the bare answer: the whole text, trimmed (a JSON value when
 *    it parses as one, e.g. `true`, else the text).
 */
import type { Env } from './env';
import { jsonEqual, type JsonObject, type JsonValue } from './json';
import { labelActions, openAnswer, parseOpenAnswer, type LabelledAction, type PromptContext } from './prompt';

/** How one decision is to be answered. */
export interface AnswerFormat {
  /** Named legal actions (finite sets), or null for an open set. */
  labels: LabelledAction[] | null;
  /** Whether a "say" field (free text alongside the action) is accepted. */
  speech: boolean;
  /** The answer instructions appended to the observation. */
  instruction: string;
  /** JSON schema of the whole answer object. */
  schema: JsonObject;
}

/** The answer format of a decision: by name for finite sets, by the env's schema for open ones. */
export function answerFormat(env: Env, obs: unknown, legal: readonly unknown[] | null, ctx: PromptContext): AnswerFormat {
  if (legal !== null) {
    const labels = labelActions(env, obs, legal);
    const speak = env.prompt?.speech;
    const speech = !!speak && legal.some((a) => speak(a, 'x', obs) !== null);
    const names = labels.map((l) => `- ${l.label}`).join('\n');
    const instruction =
      `Legal actions:\n${names}\n` +
      `Answer with a JSON object: {"action": "<one legal action name, exactly as listed>"${speech ? ', "say": "<what you say, or empty>"' : ''}}.`;
    const properties: JsonObject = { action: { type: 'string', enum: labels.map((l) => l.label) } };
    if (speech) properties.say = { type: 'string' };
    return { labels, speech, instruction, schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false } };
  }
  const open = openAnswer(env, obs, ctx);
  return {
    labels: null,
    speech: false,
    instruction: `${open.format}\nAnswer with a JSON object: {"action": <your answer>}.`,
    schema: { type: 'object', properties: { action: open.schema }, required: ['action'], additionalProperties: false },
  };
}

/** The outcome of parsing one completion. */
export type ParsedAnswer = { ok: true; action: unknown } | { ok: false; reason: string };

/** The JSON object of a completion: the whole text, a fenced block, or the last balanced {...} that parses. */
export function extractJsonObject(text: string): JsonObject | null {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json)?\s*([\s\S]*?)```/g;
  for (let m = fence.exec(text); m; m = fence.exec(text)) candidates.push(m[1].trim());
  for (const c of candidates) {
    const v = tryParse(c);
    if (v) return v;
  }
  // The last balanced object in the text (models sometimes think aloud first).
  for (let end = text.lastIndexOf('}'); end >= 0; end = text.lastIndexOf('}', end - 1)) {
    let depth = 0;
    let inString = false;
    for (let i = end; i >= 0; i--) {
      const ch = text[i];
      if (ch === '"' && text[i - 1] !== '\\') inString = !inString;
      if (inString) continue;
      if (ch === '}') depth++;
      else if (ch === '{' && --depth === 0) {
        const v = tryParse(text.slice(i, end + 1));
        if (v) return v;
        break;
      }
    }
  }
  return null;
}

function tryParse(text: string): JsonObject | null {
  if (!text.startsWith('{')) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : null;
  } catch {
    return null;
  }
}

function shorten(v: unknown): string {
  const t = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}

const ANSWER_TAG = /<answer>([\s\S]*?)<\/answer>/gi;

/** The text inside the last `<answer>...</answer>` of a completion, trimmed; null when there is none. */
export function answerTag(text: string): string | null {
  let last: string | null = null;
  for (const m of text.matchAll(ANSWER_TAG)) last = m[1];
  return last === null ? null : last.trim();
}

/** A bare answer's value: the JSON value it spells (`true`, `42`, `{"numbers": ...}`), else the text. */
function bareValue(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** Where the answer's value came from (the order of precedence of the module comment). */
type Located = { from: 'json'; value: JsonValue; say: unknown } | { from: 'tag' | 'bare'; value: JsonValue; say?: undefined } | { from: 'none'; reason: string };

function locate(format: AnswerFormat, completion: string): Located {
  const obj = extractJsonObject(completion);
  if (obj && 'action' in obj) return { from: 'json', value: obj.action, say: obj.say };
  const tagged = answerTag(completion);
  if (tagged !== null) return { from: 'tag', value: format.labels ? tagged : bareValue(tagged) };
  if (!format.labels) {
    const bare = completion.trim();
    if (bare) return { from: 'bare', value: bareValue(bare) };
    return { from: 'none', reason: 'the answer is empty' };
  }
  return { from: 'none', reason: obj ? 'the JSON object has no "action" field' : 'no JSON object found in the answer (nor an <answer>...</answer> tag)' };
}

/**
 * Parses a completion into an env action. Strict about what it finds (see the module comment for
 * where it looks): a finite action must be one of the listed names (or the action value itself);
 * an open answer goes through the env's `parse`. The reason names what is wrong.
 */
export function parseAnswer(env: Env, obs: unknown, format: AnswerFormat, completion: string): ParsedAnswer {
  const found = locate(format, completion);
  if (found.from === 'none') return { ok: false, reason: found.reason };
  const value = found.value;
  if (format.labels) {
    let hit = format.labels.find((l) => typeof value === 'string' && l.label === value.trim());
    if (!hit && typeof value === 'string') {
      const lower = value.trim().toLowerCase();
      const matches = format.labels.filter((l) => l.label.toLowerCase() === lower);
      if (matches.length === 1) hit = matches[0];
    }
    hit ??= format.labels.find((l) => jsonEqual(l.action, value));
    if (!hit) return { ok: false, reason: `${shorten(value)} is not one of the legal action names` };
    let action: unknown = hit.action;
    const say = found.say;
    if (format.speech && typeof say === 'string' && say.trim()) action = env.prompt?.speech?.(hit.action, say.trim(), obs) ?? action;
    return { ok: true, action };
  }
  try {
    return { ok: true, action: parseOpenAnswer(env, value, obs) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** True when a schema meets OpenAI's strict mode (every object closed, every property required). */
export function isStrictSchema(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return true;
  if (Array.isArray(schema)) return schema.every(isStrictSchema);
  const s = schema as Record<string, unknown>;
  if (Object.keys(s).length === 0) return false; // "anything" is not expressible strictly
  if (s.type === 'object') {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(s.required) ? s.required : [];
    if (s.additionalProperties !== false || Object.keys(props).some((k) => !required.includes(k))) return false;
    return Object.values(props).every(isStrictSchema);
  }
  if (s.type === 'array') return isStrictSchema(s.items);
  return true;
}
