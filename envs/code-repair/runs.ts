/**
 * The effects of code-repair-v1: which programs run against which tests. The env never runs
 * code; it asks for these runs (kind "code-runs") and reads their results back in `step`.
 */
import type { EffectRequest } from '../../src/core/env';
import { CODE_RUNS_EFFECT, type CodeRunRequest, type CodeTestCase } from '../../src/core/sandbox';
import type { TaskTest } from './task-format';
import type { CodeRepairState, RunsRequest } from './types';

/** The effect kind this env requests. */
export const EFFECT_KIND = CODE_RUNS_EFFECT;

function testCase(t: TaskTest, properties: CodeRepairState['task']['properties']): CodeTestCase {
  if ('property' in t) return { input: t.input, property: properties!.find((p) => p.name === t.property)!.check };
  return { input: t.input, expected: t.expected };
}

/** One run; `withCheck`: the task's check (and its helpers) run too. */
function run(s: CodeRepairState, program: string, tests: CodeTestCase[], withCheck = false): CodeRunRequest {
  const { check, helpers } = s.task;
  return { language: s.task.language, program, entry: s.task.entry, tests, ...(withCheck && check ? { check, ...(helpers ? { helpers } : {}) } : {}), limits: s.cfg.limits };
}

/** The current candidate against the public tests, the hidden tests (and check), and every valid audit test so far. */
export function candidateRuns(s: CodeRepairState): RunsRequest {
  const program = s.revisions[s.revisions.length - 1];
  const t = s.task;
  return {
    runs: [
      run(s, program, t.publicTests.map((x) => testCase(x, t.properties))),
      run(s, program, t.hiddenTests.map((x) => testCase(x, t.properties)), true),
      run(s, program, s.audit.filter((a) => a.valid).map((a) => ({ input: a.input, expected: a.reference ?? null }))),
    ],
  };
}

/** The reference and the candidate on the auditor's new tests (the reference decides validity). */
export function auditRuns(s: CodeRepairState): RunsRequest {
  const program = s.revisions[s.revisions.length - 1];
  return {
    runs: [
      run(s, s.task.reference, s.proposed.map((a) => ({ input: a.input, ...(a.expected !== undefined ? { expected: a.expected } : {}) }))),
      run(s, program, s.proposed.map((a) => ({ input: a.input }))),
    ],
  };
}

/** CURE: each program on the ground truth, the reference on the tests, each program on the tests. */
export function cureRuns(s: CodeRepairState): RunsRequest {
  const t = s.task;
  const truth = [...t.publicTests, ...t.hiddenTests].map((x) => testCase(x, t.properties));
  const inputs = s.tests.map((a) => ({ input: a.input }));
  return {
    runs: [
      ...s.programs.map((p) => run(s, p, truth, true)),
      run(s, t.reference, s.tests.map((a) => ({ input: a.input, ...(a.expected !== undefined ? { expected: a.expected } : {}) }))),
      ...s.programs.map((p) => run(s, p, inputs)),
    ],
  };
}

/** The effect a state waits for, or null. */
export function pendingEffect(s: CodeRepairState): EffectRequest | null {
  switch (s.phase) {
    case 'run-code':
      return { kind: EFFECT_KIND, request: candidateRuns(s) as never };
    case 'run-audit':
      return { kind: EFFECT_KIND, request: auditRuns(s) as never };
    case 'cure-judge':
      return { kind: EFFECT_KIND, request: cureRuns(s) as never };
    default:
      return null;
  }
}
