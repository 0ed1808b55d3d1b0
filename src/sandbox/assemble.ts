/** Turns a runner's raw outputs into the run's result: each output compared on the host. */
import type { JsonValue } from '../core/json';
import type { CodeRunRequest, CodeRunResult, RunCode, TestOutcome } from '../core/sandbox';
import { parseJsonExact } from '../core/exact-json';
import { MAX_OUTPUT_DEPTH, integerSemantics, jsonDepth, outputMatches } from '../core/output-match';
import type { RawOutcome, RawRun } from './raw-run';

const UNDEFINED = '\u0000undefined';

function judge(raw: RawOutcome | undefined, test: CodeRunRequest['tests'][number], language: CodeRunRequest['language']): TestOutcome {
  if (!raw) return { code: 'sandbox-error', message: 'no outcome for this test' };
  if (raw.code !== 'ok') return { code: raw.code, ...(raw.message ? { message: raw.message } : {}) };
  let actual: JsonValue | undefined;
  if (raw.text !== undefined && raw.text !== UNDEFINED) {
    if (jsonDepth(raw.text) > MAX_OUTPUT_DEPTH) return { code: 'runtime-error', message: `the output is nested deeper than ${MAX_OUTPUT_DEPTH} levels` };
    try {
      // Python's integers beyond 2^53 stay exact; JavaScript's numbers are doubles
      actual = language === 'python' ? parseJsonExact(raw.text) : (JSON.parse(raw.text) as JsonValue);
    } catch {
      // the harnesses write valid JSON; only a result line the program forged holds anything else
      return { code: 'runtime-error', message: 'the output is not readable JSON' };
    }
  }
  const shown = actual === undefined ? {} : { actual };
  if (test.property !== undefined) {
    return raw.property === true ? { code: 'ok', ...shown } : { code: 'wrong-answer', ...shown, message: 'the property does not hold' };
  }
  if (test.expected === undefined) return { code: 'ok', ...shown };
  return outputMatches(actual, test.expected, integerSemantics(language)) ? { code: 'ok', ...shown } : { code: 'wrong-answer', ...shown, message: actual === undefined ? 'returned undefined' : undefined };
}

/**
 * The result of a run: a program that did not load gives every test the load's code; otherwise
 * each test is judged; the run's code is the first failing test's (or the check's), else ok.
 */
export function assemble(req: CodeRunRequest, raw: RawRun, ms: number): CodeRunResult {
  let tests: TestOutcome[];
  if (raw.code !== 'ok') {
    tests = req.tests.map(() => ({ code: raw.code, ...(raw.message ? { message: raw.message } : {}) }));
    if (req.check) tests.push({ code: raw.code, ...(raw.message ? { message: raw.message } : {}) });
  } else {
    tests = req.tests.map((t, i) => judge(raw.outputs[i], t, req.language));
    if (req.check) tests.push(raw.check ? { code: raw.check.code, ...(raw.check.message ? { message: raw.check.message } : {}) } : { code: 'sandbox-error', message: 'the check did not run' });
  }
  for (const t of tests) if (t.message === undefined) delete t.message;
  const failing = tests.find((t) => t.code !== 'ok');
  const code: RunCode = raw.code !== 'ok' ? raw.code : (failing?.code ?? 'ok');
  const message = raw.code !== 'ok' ? raw.message : failing?.message;
  return { code, ...(message ? { message } : {}), tests, passed: tests.filter((t) => t.code === 'ok').length, total: tests.length, ms };
}
