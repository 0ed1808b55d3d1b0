/**
 * Reading the seats' text actions (every action is text, so a language model plugs in as is):
 * a program (the source), tests (JSON: one `{input, expected?}` or a list of them), a probability.
 * Each reader answers the value or a reason, never throws.
 */
import type { ActionCheck } from '../../src/core/env';
import { parseJsonExact } from '../../src/core/exact-json';
import { MAX_OUTPUT_DEPTH, jsonDepth } from '../../src/core/output-match';
import type { JsonValue } from '../../src/core/json';

/** Longest program accepted, in characters. */
export const MAX_PROGRAM = 100_000;
/** Longest test (its JSON) accepted, in characters. */
export const MAX_TEST_JSON = 10_000;

export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A program: non-empty source text. Markdown code fences around it are removed. */
export function readProgram(action: unknown): Read<string> {
  if (typeof action !== 'string') return { ok: false, reason: 'a program must be source text (a string)' };
  const fenced = /^\s*```[\w-]*\n([\s\S]*?)\n```\s*$/.exec(action);
  const src = fenced ? fenced[1] : action;
  if (!src.trim()) return { ok: false, reason: 'the program is empty' };
  if (src.length > MAX_PROGRAM) return { ok: false, reason: `the program is longer than ${MAX_PROGRAM} characters` };
  return { ok: true, value: src };
}

/** A proposed test: `{input: [...args], expected?}`. */
export interface ProposedTest {
  input: JsonValue[];
  expected?: JsonValue;
}

function readOne(t: unknown, where: string): Read<ProposedTest> {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return { ok: false, reason: `${where} must be an object {"input": [...], "expected"?: ...}` };
  const o = t as Record<string, unknown>;
  if (!Array.isArray(o.input)) return { ok: false, reason: `${where}.input must be the argument list (an array)` };
  const extra = Object.keys(o).filter((k) => k !== 'input' && k !== 'expected');
  if (extra.length) return { ok: false, reason: `${where} has unknown field "${extra[0]}" (only input and expected)` };
  let text: string;
  try {
    text = JSON.stringify(o);
  } catch {
    return { ok: false, reason: `${where} is not JSON (a cycle, a bigint, or nested too deep)` };
  }
  if (text.length > MAX_TEST_JSON) return { ok: false, reason: `${where} is larger than ${MAX_TEST_JSON} characters of JSON` };
  // the sandbox refuses values nested deeper: say so here, to the auditor, not as the sandbox's error
  if (jsonDepth(text) > MAX_OUTPUT_DEPTH) return { ok: false, reason: `${where} is nested deeper than ${MAX_OUTPUT_DEPTH} levels` };
  return { ok: true, value: { input: o.input as JsonValue[], ...('expected' in o ? { expected: o.expected as JsonValue } : {}) } };
}

function parsed(action: unknown): Read<unknown> {
  if (typeof action !== 'string') return { ok: true, value: action };
  const fenced = /^\s*```(?:json)?\n([\s\S]*?)\n```\s*$/.exec(action);
  if (jsonDepth(fenced ? fenced[1] : action) > MAX_OUTPUT_DEPTH) return { ok: false, reason: `tests are nested deeper than ${MAX_OUTPUT_DEPTH} levels` };
  try {
    return { ok: true, value: parseJsonExact(fenced ? fenced[1] : action) }; // a big expected integer stays exact
  } catch (e) {
    return { ok: false, reason: `tests must be JSON (${(e as Error).message})` };
  }
}

/** 1..`max` tests: a JSON list (or one test object), as text or as JSON. */
export function readTests(action: unknown, max: number): Read<ProposedTest[]> {
  const p = parsed(action);
  if (!p.ok) return p;
  const list = Array.isArray(p.value) ? p.value : [p.value];
  if (list.length === 0) return { ok: false, reason: 'propose at least one test' };
  if (list.length > max) return { ok: false, reason: `at most ${max} tests per round (got ${list.length})` };
  const out: ProposedTest[] = [];
  for (let i = 0; i < list.length; i++) {
    const r = readOne(list[i], `test ${i}`);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}

/** A probability in [0, 1], as a number or numeric text. */
export function readProbability(action: unknown): Read<number> {
  const v = typeof action === 'string' && action.trim() !== '' ? Number(action.trim()) : action;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) return { ok: false, reason: 'a prediction is a probability in [0, 1] that the program passes the hidden tests' };
  return { ok: true, value: v };
}

/** A Read as an ActionCheck. */
export function asCheck<T>(r: Read<T>): ActionCheck {
  return r.ok ? { ok: true } : { ok: false, reason: r.reason };
}
