/**
 * Reading the seats' actions (every one also accepted as text, so a language model plugs in as
 * is). Each reader answers the value or a reason, never throws.
 *
 * Defender: a schedule index (integer, or its digits as text), `{"schedule": {knob: option}}`,
 * JavaScript source (a function expression; a ```js fence is removed), AssemblyScript source (a
 * ```assemblyscript / ```ts fence, or text exporting `function kernel`), `{"js": src}`,
 * `{"assemblyscript": src}`, or "stop" (keep the last revision; after the first only).
 * Attacker: `{"dims": {...}, "inputs": {...}}` as JSON (see measure/attack.ts).
 * Evaluator: a probability per outcome class, as a list in OUTCOMES order or an object
 * {"incorrect": 0.1, "2x": 0.9} (missing classes 0); it must sum to 1.
 */
import type { ActionCheck } from '../../src/core/env';
import type { AttackInput } from './measure/attack';
import type { Candidate } from './measure/candidate';
import { OUTCOMES } from './rewards';
import { isLegalSchedule, scheduleIndex } from './tasks/schedule';
import type { KernelTask, Schedule } from './tasks/task';
import type { CandidateMode, Prediction } from './types';

/** Longest kernel source accepted, in characters. */
export const MAX_SOURCE = 100_000;
/** Longest attack JSON accepted, in characters. */
export const MAX_ATTACK_JSON = 200_000;
/** The defender's action that keeps the last revision. */
export const STOP = 'stop';

export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A Read as an ActionCheck. */
export function asCheck<T>(r: Read<T>): ActionCheck {
  return r.ok ? { ok: true } : { ok: false, reason: r.reason };
}

function source(kind: 'js' | 'assemblyscript', text: unknown): Read<Candidate> {
  if (typeof text !== 'string' || !text.trim()) return { ok: false, reason: `the ${kind === 'js' ? 'JavaScript' : 'AssemblyScript'} source is empty` };
  if (text.length > MAX_SOURCE) return { ok: false, reason: `the source is longer than ${MAX_SOURCE} characters` };
  return { ok: true, value: { kind, source: text } };
}

function scheduleOf(task: KernelTask, index: number): Read<Candidate> {
  if (!isLegalSchedule(task, index)) return { ok: false, reason: `${index} is not a legal schedule index of ${task.id} (see the legal list)` };
  return { ok: true, value: { kind: 'schedule', index } };
}

/** Source text: fences decide the language; unfenced text exporting `function kernel` is AssemblyScript. */
function fromText(text: string): Read<Candidate> {
  const fenced = /^\s*```([\w-]*)\s*\n([\s\S]*?)\n```\s*$/.exec(text);
  if (fenced) {
    const lang = fenced[1].toLowerCase();
    if (['assemblyscript', 'as', 'ts', 'typescript'].includes(lang)) return source('assemblyscript', fenced[2]);
    if (['', 'js', 'javascript'].includes(lang)) return source('js', fenced[2]);
    return { ok: false, reason: `unknown code fence language "${fenced[1]}" (use js or assemblyscript)` };
  }
  return /\bexport\s+function\s+kernel\b/.test(text) ? source('assemblyscript', text) : source('js', text);
}

/** The defender's action: a candidate, or stop. */
export function readSubmission(task: KernelTask, mode: CandidateMode, revisions: number, action: unknown): Read<Candidate | 'stop'> {
  const schedules = mode !== 'code';
  const code = mode !== 'schedule';
  const noSchedules: Read<never> = { ok: false, reason: 'this episode takes code only (param candidates "code"): JavaScript or AssemblyScript source' };
  const noCode: Read<never> = { ok: false, reason: 'this episode takes schedules only (param candidates "schedule"): a legal schedule index' };
  if (action === STOP || (typeof action === 'string' && action.trim().toLowerCase() === STOP)) {
    return revisions > 0 ? { ok: true, value: 'stop' } : { ok: false, reason: '"stop" keeps the last revision: submit one first' };
  }
  if (typeof action === 'number') {
    if (!Number.isInteger(action)) return { ok: false, reason: `a schedule index is an integer, got ${action}` };
    return schedules ? scheduleOf(task, action) : noSchedules;
  }
  if (typeof action === 'string') {
    if (/^\s*\d+\s*$/.test(action)) return schedules ? scheduleOf(task, Number(action)) : noSchedules;
    return code ? fromText(action) : noCode;
  }
  if (!action || typeof action !== 'object' || Array.isArray(action)) return { ok: false, reason: 'a submission is a schedule index, {"schedule": {...}}, kernel source, or "stop"' };
  const o = action as Record<string, unknown>;
  if ('schedule' in o) {
    if (!schedules) return noSchedules;
    const s = o.schedule;
    if (!s || typeof s !== 'object' || Array.isArray(s)) return { ok: false, reason: 'schedule must be an object {knob: option}' };
    const index = scheduleIndex(task, s as Schedule);
    if (index < 0) return { ok: false, reason: `the schedule must give one listed option for each knob: ${task.template.knobs.map((k) => `${k.name} ∈ {${k.options.join(', ')}}`).join('; ')}` };
    return scheduleOf(task, index);
  }
  if ('js' in o) return code ? source('js', o.js) : noCode;
  if ('assemblyscript' in o) return code ? source('assemblyscript', o.assemblyscript) : noCode;
  if (o.kind === 'schedule') return schedules ? (typeof o.index === 'number' ? scheduleOf(task, o.index) : { ok: false, reason: 'index must be a number' }) : noSchedules;
  if (o.kind === 'js' || o.kind === 'assemblyscript') return code ? source(o.kind, o.source) : noCode;
  return { ok: false, reason: 'a submission object has "schedule", "js" or "assemblyscript"' };
}

function parsed(action: unknown, what: string, max: number): Read<unknown> {
  if (typeof action !== 'string') return { ok: true, value: action };
  if (action.length > max) return { ok: false, reason: `${what} is longer than ${max} characters` };
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(action);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1] : action) };
  } catch (e) {
    return { ok: false, reason: `${what} must be JSON (${(e as Error).message})` };
  }
}

/** The attacker's action: its shape only (the contract is checked in step: outside it scores −1). */
export function readAttack(action: unknown): Read<AttackInput> {
  const p = parsed(action, 'the attack', MAX_ATTACK_JSON);
  if (!p.ok) return p;
  const v = p.value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, reason: 'an attack is an object {"dims": {...}, "inputs": {...}}' };
  const o = v as Record<string, unknown>;
  if (!o.dims || typeof o.dims !== 'object' || Array.isArray(o.dims)) return { ok: false, reason: 'an attack needs "dims": an object of dimension sizes' };
  if (!o.inputs || typeof o.inputs !== 'object' || Array.isArray(o.inputs)) return { ok: false, reason: 'an attack needs "inputs": an object with one fill per input tensor' };
  if (typeof action !== 'string' && JSON.stringify(v).length > MAX_ATTACK_JSON) return { ok: false, reason: `the attack is longer than ${MAX_ATTACK_JSON} characters of JSON` };
  return { ok: true, value: v as unknown as AttackInput };
}

/** The evaluator's action: one probability per outcome class, summing to 1 (normalized). */
export function readPrediction(action: unknown): Read<Prediction> {
  const p = parsed(action, 'a prediction', 10_000);
  if (!p.ok) return p;
  const v = p.value;
  let probs: unknown[];
  if (Array.isArray(v)) {
    if (v.length !== OUTCOMES.length) return { ok: false, reason: `a prediction lists ${OUTCOMES.length} probabilities (${OUTCOMES.join(', ')})` };
    probs = v;
  } else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const unknown = Object.keys(o).find((k) => !(OUTCOMES as readonly string[]).includes(k));
    if (unknown) return { ok: false, reason: `unknown outcome "${unknown}" (classes: ${OUTCOMES.join(', ')})` };
    probs = OUTCOMES.map((k) => o[k] ?? 0);
  } else return { ok: false, reason: `a prediction is a probability per outcome (${OUTCOMES.join(', ')}), as a list or an object` };
  if (probs.some((x) => typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 1)) return { ok: false, reason: 'every probability is a number in [0, 1]' };
  const sum = (probs as number[]).reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-6) return { ok: false, reason: `the probabilities sum to ${sum}, not 1` };
  return { ok: true, value: (probs as number[]).map((x) => x / sum) };
}
