/**
 * Checking a task file: each task's reference against its own tests (a test is valid iff the
 * reference passes it), and each buggy variant against the hidden tests (it must fail one).
 * Programs run through the CodeRunner given (the sandbox), never here.
 */
import type { CodeRunRequest, CodeRunner, CodeTestCase } from '../../src/core/sandbox';
import type { CodeTask, TaskTest } from './task-format';

/** One task's verdict: `ok`, or the first failing result code; buggy variants that fail no hidden test are named. */
export interface TaskVerdict {
  id: string;
  status: string;
  passed: number;
  total: number;
  message?: string;
  buggy?: { total: number; failingHidden: number; passingAllHidden: string[] };
}

function cases(task: CodeTask, tests: readonly TaskTest[]): CodeTestCase[] {
  return tests.map((t) => ('property' in t ? { input: t.input, property: task.properties!.find((p) => p.name === t.property)!.check } : { input: t.input, expected: t.expected }));
}

function request(task: CodeTask, program: string, tests: CodeTestCase[]): CodeRunRequest {
  return { language: task.language, program, entry: task.entry, tests, ...(task.check ? { check: task.check, ...(task.helpers ? { helpers: task.helpers } : {}) } : {}), limits: { timeMs: 5000 } };
}

/** Runs one task's reference (and buggy variants) and judges them. */
export async function checkTask(task: CodeTask, runner: CodeRunner, signal?: AbortSignal): Promise<TaskVerdict> {
  const all = cases(task, [...task.publicTests, ...task.hiddenTests]);
  const ref = await runner.run(request(task, task.reference, all), signal);
  const verdict: TaskVerdict = { id: task.id, status: ref.code, passed: ref.passed, total: ref.total, ...(ref.code !== 'ok' && ref.message ? { message: ref.message } : {}) };
  if (task.buggy?.length) {
    const hidden = cases(task, task.hiddenTests);
    const runs = await Promise.all(task.buggy.map((b) => runner.run(request(task, b.source, hidden), signal)));
    const passingAllHidden = task.buggy.filter((_, i) => runs[i].passed === runs[i].total).map((b) => b.id);
    verdict.buggy = { total: task.buggy.length, failingHidden: task.buggy.length - passingAllHidden.length, passingAllHidden };
    if (verdict.status === 'ok' && passingAllHidden.length) {
      verdict.status = 'buggy-passes';
      verdict.message = `buggy variant(s) ${passingAllHidden.join(', ')} pass every hidden test`;
    }
  }
  return verdict;
}
