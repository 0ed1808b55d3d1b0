/**
 * Random play without running anything: a random (plausible) action from a seat's observation,
 * and a random effect result (test outcomes drawn at random) for the conformance kit and quick
 * rollouts. Neither ever sees the reference or the hidden tests.
 */
import type { EffectRequest } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Rng } from '../../src/core/rng';
import type { CodeRunResult, RunCode, TestOutcome } from '../../src/core/sandbox';
import type { CodeRepairObservation, CodeRepairState, RunsRequest } from './types';

const CODES: RunCode[] = ['ok', 'ok', 'ok', 'wrong-answer', 'wrong-answer', 'runtime-error', 'timeout', 'exited', 'killed-by-signal'];

function trivialProgram(o: CodeRepairObservation): string {
  return o.task.language === 'js' ? `function ${o.task.entry}(...args) { return null; }` : `def ${o.task.entry}(*args):\n    return None`;
}

function randomTest(o: CodeRepairObservation, rng: Rng): { input: JsonValue[]; expected?: JsonValue } {
  const pub = o.task.publicTests;
  const input = pub.length ? pub[rng.int(pub.length)].input : [rng.int(10)];
  return rng.next() < 0.5 ? { input } : { input, expected: rng.int(3) };
}

/** The kit's random agent for every seat. */
export function sampleAction(o: CodeRepairObservation, rng: Rng): unknown {
  switch (o.phase) {
    case 'code':
    case 'cure-code':
      return rng.next() < 0.5 && o.candidate ? o.candidate : trivialProgram(o);
    case 'audit':
      return JSON.stringify(Array.from({ length: 1 + rng.int(2) }, () => randomTest(o, rng)));
    case 'cure-test':
      return JSON.stringify(randomTest(o, rng));
    case 'predict':
      return Math.round(rng.next() * 100) / 100;
    default:
      return '';
  }
}

/** Random outcomes with the right shape for each requested run. */
export function sampleEffectResult(_s: CodeRepairState, effect: EffectRequest, rng: Rng): JsonValue {
  const req = effect.request as unknown as RunsRequest;
  const runs: CodeRunResult[] = req.runs.map((run) => {
    const n = run.tests.length + (run.check ? 1 : 0);
    const tests: TestOutcome[] = Array.from({ length: n }, () => {
      const code = CODES[rng.int(CODES.length)];
      return code === 'ok' || code === 'wrong-answer' ? { code, actual: rng.int(3) } : { code, message: 'sampled' };
    });
    const passed = tests.filter((t) => t.code === 'ok').length;
    return { code: tests.find((t) => t.code !== 'ok')?.code ?? 'ok', tests, passed, total: n, ms: 0 };
  });
  return { runs } as unknown as JsonValue;
}
