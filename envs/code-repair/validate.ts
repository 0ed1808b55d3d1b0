/** validateAction of code-repair-v1: seat actions by phase, and the shape of effect results. */
import { EFFECT_SEAT, type ActionCheck } from '../../src/core/env';
import { RUN_CODES, type CodeRunResult } from '../../src/core/sandbox';
import { asCheck, readProbability, readProgram, readTests } from './actions';
import { actingSeats } from './flow';
import { pendingEffect } from './runs';
import type { CodeRepairState, RunsRequest } from './types';

function resultProblem(r: unknown, tests: number, i: number): string | null {
  if (!r || typeof r !== 'object') return `runs[${i}] is not a run result`;
  const x = r as Partial<CodeRunResult>;
  if (!RUN_CODES.includes(x.code as never)) return `runs[${i}].code ${JSON.stringify(x.code)} is not a result code`;
  if (!Array.isArray(x.tests) || x.tests.length !== tests) return `runs[${i}] must have ${tests} test outcomes`;
  if (x.tests.some((t) => !t || !RUN_CODES.includes((t as { code: never }).code))) return `runs[${i}] has a test outcome without a result code`;
  if (typeof x.passed !== 'number' || typeof x.total !== 'number' || x.total !== tests || x.passed < 0 || x.passed > tests) return `runs[${i}] must count passed/total of its ${tests} tests`;
  if (x.tests.filter((t) => t.code === 'ok').length !== x.passed) return `runs[${i}].passed disagrees with its test outcomes`;
  return null;
}

/** Whether an effect result fits the pending request: one result per run, one outcome per test. */
function checkEffectResult(s: CodeRepairState, result: unknown): ActionCheck {
  const effect = pendingEffect(s);
  if (!effect) return { ok: false, reason: 'no effect is pending' };
  const req = effect.request as unknown as RunsRequest;
  const runs = (result as { runs?: unknown } | null)?.runs;
  if (!Array.isArray(runs) || runs.length !== req.runs.length) return { ok: false, reason: `the result must hold ${req.runs.length} runs` };
  for (let i = 0; i < runs.length; i++) {
    const p = resultProblem(runs[i], req.runs[i].tests.length + (req.runs[i].check ? 1 : 0), i);
    if (p) return { ok: false, reason: p };
  }
  return { ok: true };
}

export function validate(s: CodeRepairState, seat: number, action: unknown): ActionCheck {
  if (seat === EFFECT_SEAT) return checkEffectResult(s, action);
  if (!actingSeats(s).includes(seat)) return { ok: false, reason: `seat ${seat} is not to act now (${s.phase === 'done' ? 'the episode is over' : `phase ${s.phase}`})` };
  switch (s.phase) {
    case 'code':
    case 'cure-code':
      return asCheck(readProgram(action));
    case 'audit':
      return asCheck(readTests(action, s.cfg.testsPerRound));
    case 'cure-test':
      return asCheck(readTests(action, 1));
    case 'predict':
      return asCheck(readProbability(action));
    default:
      return { ok: false, reason: `nobody acts in phase ${s.phase}` };
  }
}
