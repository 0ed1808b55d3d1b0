/**
 * Reading task files: the project's JSONL format (task-format.ts) and OpenAI's HumanEval JSONL.
 * Every problem is reported with the line and the field, one line of text.
 */
import { parseJsonExact } from '../../src/core/exact-json';
import type { JsonValue } from '../../src/core/json';
import type { CodeTask, TaskLanguage, TaskTest } from './task-format';

/** A malformed task: names the file, line and field. */
export class TaskFormatError extends Error {
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
    this.name = 'TaskFormatError';
  }
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function tests(where: string, field: string, v: unknown, propertyNames: Set<string>): TaskTest[] {
  if (!Array.isArray(v)) throw new TaskFormatError(where, `"${field}" must be an array of tests`);
  return v.map((t, i) => {
    const at = `"${field}"[${i}]`;
    if (!isObject(t) || !Array.isArray(t.input)) throw new TaskFormatError(where, `${at} needs "input": an array of arguments`);
    const hasExpected = 'expected' in t;
    const hasProperty = 'property' in t;
    if (hasExpected === hasProperty) throw new TaskFormatError(where, `${at} needs exactly one of "expected" and "property"`);
    if (hasProperty) {
      if (typeof t.property !== 'string' || !propertyNames.has(t.property)) throw new TaskFormatError(where, `${at}.property names no property of the task (${JSON.stringify(t.property)})`);
      return { input: t.input as JsonValue[], property: t.property };
    }
    return { input: t.input as JsonValue[], expected: t.expected as JsonValue };
  });
}

function text(where: string, o: Record<string, unknown>, field: string): string {
  const v = o[field];
  if (typeof v !== 'string' || !v.trim()) throw new TaskFormatError(where, `"${field}" must be a non-empty string`);
  return v;
}

/** Validates one task object of the project's format. */
export function parseTask(raw: unknown, where: string): CodeTask {
  if (!isObject(raw)) throw new TaskFormatError(where, 'a task must be a JSON object');
  const id = text(where, raw, 'id');
  const at = `${where} (${id})`;
  const language = raw.language as TaskLanguage;
  if (language !== 'js' && language !== 'python') throw new TaskFormatError(at, `"language" must be "js" or "python", got ${JSON.stringify(raw.language)}`);
  const entry = text(at, raw, 'entry');
  if (!IDENT.test(entry)) throw new TaskFormatError(at, `"entry" must be a function name, got ${JSON.stringify(entry)}`);
  const properties = raw.properties === undefined ? [] : raw.properties;
  if (!Array.isArray(properties) || !properties.every((p) => isObject(p) && typeof p.name === 'string' && typeof p.check === 'string')) {
    throw new TaskFormatError(at, '"properties" must be an array of {name, description, check}');
  }
  if (properties.length && language !== 'js') throw new TaskFormatError(at, '"properties" are JavaScript functions: only for language "js"');
  const names = new Set(properties.map((p) => p.name as string));
  const buggy = raw.buggy === undefined ? [] : raw.buggy;
  if (!Array.isArray(buggy) || !buggy.every((b) => isObject(b) && typeof b.id === 'string' && typeof b.source === 'string')) {
    throw new TaskFormatError(at, '"buggy" must be an array of {id, description, source}');
  }
  if (raw.generator !== undefined && !isObject(raw.generator)) throw new TaskFormatError(at, '"generator" must be an arbitrary description (an object)');
  if (raw.check !== undefined && (typeof raw.check !== 'string' || language !== 'python')) throw new TaskFormatError(at, '"check" must be Python source (language "python")');
  if (raw.helpers !== undefined && (typeof raw.helpers !== 'string' || raw.check === undefined)) throw new TaskFormatError(at, '"helpers" must be Python source, given with a "check"');
  const task: CodeTask = {
    id,
    language,
    spec: text(at, raw, 'spec'),
    entry,
    signature: typeof raw.signature === 'string' ? raw.signature : `${entry}(...)`,
    reference: text(at, raw, 'reference'),
    publicTests: tests(at, 'publicTests', raw.publicTests ?? [], names),
    hiddenTests: tests(at, 'hiddenTests', raw.hiddenTests ?? [], names),
    ...(raw.generator ? { generator: raw.generator as CodeTask['generator'] } : {}),
    ...(properties.length ? { properties: properties.map((p) => ({ name: p.name as string, description: String(p.description ?? ''), check: p.check as string })) } : {}),
    ...(buggy.length ? { buggy: buggy.map((b) => ({ id: b.id as string, description: String(b.description ?? ''), source: b.source as string })) } : {}),
    ...(typeof raw.check === 'string' ? { check: raw.check } : {}),
    ...(typeof raw.helpers === 'string' ? { helpers: raw.helpers } : {}),
  };
  if (!task.hiddenTests.length && !task.check) throw new TaskFormatError(at, 'needs hidden tests ("hiddenTests") or a "check" function');
  return task;
}

/**
 * A HumanEval line ({task_id, prompt, canonical_solution, test, entry_point}) as a python task:
 * the check is its hidden test, and the prompt is also its helpers (check() calls the prompt's
 * functions, e.g. `poly`, `encode_cyclic`: they come from the task, never from the program).
 */
export function humanEvalTask(raw: unknown, where: string): CodeTask {
  if (!isObject(raw)) throw new TaskFormatError(where, 'a HumanEval problem must be a JSON object');
  const id = text(where, raw, 'task_id');
  const at = `${where} (${id})`;
  const prompt = text(at, raw, 'prompt');
  const entry = text(at, raw, 'entry_point');
  return {
    id,
    language: 'python',
    spec: prompt,
    entry,
    signature: (/def\s+\w+\([^)]*\)[^:]*:/.exec(prompt.slice(prompt.lastIndexOf(`def ${entry}`)))?.[0] ?? `${entry}(...)`).replace(/:$/, ''),
    reference: prompt + text(at, raw, 'canonical_solution'),
    publicTests: [],
    hiddenTests: [],
    check: text(at, raw, 'test'),
    helpers: prompt,
  };
}

/** Task file formats. */
export type TaskFileFormat = 'arena' | 'humaneval';

/** Parses a JSONL text (blank lines skipped); throws TaskFormatError at the first bad line. */
export function parseTaskLines(content: string, file: string, format: TaskFileFormat = 'arena'): CodeTask[] {
  const out: CodeTask[] = [];
  const ids = new Set<string>();
  content.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file}:${i + 1}`;
    let raw: unknown;
    try {
      raw = parseJsonExact(line); // integers beyond 2^53 stay exact
    } catch (e) {
      throw new TaskFormatError(where, `not valid JSON (${(e as Error).message})`);
    }
    const task = format === 'humaneval' ? humanEvalTask(raw, where) : parseTask(raw, where);
    if (ids.has(task.id)) throw new TaskFormatError(where, `duplicate task id "${task.id}"`);
    ids.add(task.id);
    out.push(task);
  });
  if (!out.length) throw new TaskFormatError(file, 'holds no task');
  return out;
}
