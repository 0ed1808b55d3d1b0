/**
 * Checking a CodeRunRequest before anything runs: every field of the right type, test inputs
 * and expected values plain JSON within a depth and a size (so that no later step — copying to
 * a worker, JSON on the host, comparison — can overflow the stack or run out of string length),
 * and the run's limits; no field the request, a test or the limits do not have (`signal` is
 * `run`'s second argument; `limits.timeout` would leave the default). Whoever sends the request
 * gets one line naming the bad field.
 */
import type { CodeRunRequest } from '../core/sandbox';
import { nearestName } from '../core/edit-distance';
import { MAX_OUTPUT_DEPTH } from '../core/output-match';

/** Longest program (characters). */
export const MAX_PROGRAM_CHARS = 1_000_000;
/** Most tests in one run. */
export const MAX_TESTS = 10_000;
/** Deepest nesting of a test's input or expected value (arrays and objects), as for outputs. */
export const MAX_VALUE_DEPTH = MAX_OUTPUT_DEPTH;
/** Characters all test values of a request may hold in all (strings, keys, one per other value). */
export const MAX_VALUE_CHARS = 64_000_000;

/** The fields of a request, of each test, and of the limits: any other is refused (a typo would otherwise change nothing). */
const REQUEST_FIELDS = ['language', 'program', 'entry', 'tests', 'check', 'helpers', 'limits', 'stopOnTimeout'];
const TEST_FIELDS = ['input', 'expected', 'property'];
const LIMIT_FIELDS = ['timeMs', 'memoryMb', 'outputBytes'];

/** The first own key of `o` not in `fields`, as a problem naming it and where (with the nearest field, if one is near), or null. */
function unknownField(o: object, fields: readonly string[], where: string): string | null {
  const key = Object.keys(o).find((k) => !fields.includes(k));
  if (key === undefined) return null;
  const near = nearestName(key, fields);
  const hint = key === 'signal' && where === 'the request' ? " (an abort signal is run()'s second argument)" : near ? `; did you mean "${near}"?` : ` (fields: ${fields.join(', ')})`;
  return `unknown field ${JSON.stringify(key).slice(0, 60)} in ${where}${hint}`;
}

/** A budget of characters shared by every value of one request. */
interface Budget {
  left: number;
}

/** Why `v` is not a JSON value within the depth and the budget (naming the field `at` it is in), or null. */
function jsonProblem(v: unknown, at: string, depth: number, budget: Budget): string | null {
  if (depth > MAX_VALUE_DEPTH) return `${at} is nested deeper than ${MAX_VALUE_DEPTH} levels`;
  if (--budget.left < 0) return `the tests' values hold more than ${MAX_VALUE_CHARS} characters`;
  if (v === null || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${at} holds a number that is not finite`;
  if (typeof v === 'string') {
    budget.left -= v.length;
    return budget.left < 0 ? `the tests' values hold more than ${MAX_VALUE_CHARS} characters` : null;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = jsonProblem(v[i], at, depth + 1, budget);
      if (p) return p;
    }
    return null;
  }
  if (typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
    for (const k of Object.keys(v)) {
      budget.left -= k.length;
      const p = jsonProblem((v as Record<string, unknown>)[k], at, depth + 1, budget);
      if (p) return p;
    }
    return null;
  }
  return `${at} holds a value that is not JSON (${typeof v})`;
}

/** Why a request is malformed (naming the field), or null. */
export function requestProblem(req: unknown): string | null {
  if (!req || typeof req !== 'object') return 'the request is not an object';
  const r = req as Partial<CodeRunRequest>;
  const extra = unknownField(r, REQUEST_FIELDS, 'the request');
  if (extra) return extra;
  if (r.language !== 'js' && r.language !== 'python') return `language must be "js" or "python", got ${String(JSON.stringify(r.language)).slice(0, 60)}`;
  if (typeof r.program !== 'string') return 'program must be a string';
  if (r.program.length > MAX_PROGRAM_CHARS) return `program is longer than ${MAX_PROGRAM_CHARS} characters`;
  if (typeof r.entry !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(r.entry)) return `entry must be a function name, got ${String(JSON.stringify(r.entry)).slice(0, 60)}`;
  if (!Array.isArray(r.tests) || r.tests.length > MAX_TESTS) return `tests must be an array of at most ${MAX_TESTS}`;
  const budget: Budget = { left: MAX_VALUE_CHARS };
  for (let i = 0; i < r.tests.length; i++) {
    const t = r.tests[i] as unknown;
    if (!t || typeof t !== 'object' || !Array.isArray((t as { input?: unknown }).input)) return `tests[${i}].input must be an array of arguments`;
    const extraTest = unknownField(t, TEST_FIELDS, `tests[${i}]`);
    if (extraTest) return extraTest;
    const { input, expected, property } = t as { input: unknown[]; expected?: unknown; property?: unknown };
    const p = jsonProblem(input, `tests[${i}].input`, 0, budget) ?? (expected === undefined ? null : jsonProblem(expected, `tests[${i}].expected`, 0, budget));
    if (p) return p;
    if (property !== undefined && typeof property !== 'string') return `tests[${i}].property must be a function's source`;
    if (property !== undefined && r.language !== 'js') return `tests[${i}].property: properties are JavaScript and run only with language "js"`;
    if (typeof property === 'string' && property.length > MAX_PROGRAM_CHARS) return `tests[${i}].property is longer than ${MAX_PROGRAM_CHARS} characters`;
  }
  if (r.check !== undefined && (typeof r.check !== 'string' || r.language !== 'python')) return 'check must be Python source (language "python")';
  if (r.helpers !== undefined && (typeof r.helpers !== 'string' || r.check === undefined)) return 'helpers must be Python source, given with a check';
  if ((r.check?.length ?? 0) + (r.helpers?.length ?? 0) > MAX_PROGRAM_CHARS) return `check and helpers are longer than ${MAX_PROGRAM_CHARS} characters`;
  if (r.stopOnTimeout !== undefined && typeof r.stopOnTimeout !== 'boolean') return 'stopOnTimeout must be a boolean';
  if (r.limits !== undefined && (r.limits === null || typeof r.limits !== 'object' || Array.isArray(r.limits))) return 'limits must be an object';
  return r.limits === undefined ? null : unknownField(r.limits, LIMIT_FIELDS, 'limits');
}
