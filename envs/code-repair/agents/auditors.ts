/**
 * Auditor baselines for code-repair-v1. Tests they propose give the input only: the env judges
 * the candidate against the reference's output, so an input on which the candidate goes wrong
 * scores +1.
 * - random-auditor: inputs drawn from the task's generator (or the public tests' inputs);
 * - fuzz-auditor: property-based search with fast-check: runs the candidate (in the sandbox lent
 *   by the host) on generated inputs and keeps a shrunk input where it throws, times out or
 *   violates one of the task's public properties; random inputs fill the rest.
 */
import fc from 'fast-check';
import type { AgentFactory } from '../../../src/core/agent';
import { countOption, runnerOf } from './lent';
import type { JsonValue } from '../../../src/core/json';
import type { Rng } from '../../../src/core/rng';
import type { CodeRunner } from '../../../src/core/sandbox';
import type { CodeRepairObservation } from '../types';
import { argumentsArbitrary } from './arbitrary';

const ENVS = ['code-repair-v1'];

/** How many tests to propose now (one per decision in CURE). */
function wanted(o: CodeRepairObservation, max: number): number {
  return o.phase === 'cure-test' ? 1 : max;
}

/** Random argument lists: from the generator when the task has one, else the public inputs. */
export function randomInputs(o: CodeRepairObservation, n: number, rng: Rng): JsonValue[][] {
  if (o.task.generator) return fc.sample(argumentsArbitrary(o.task.generator), { numRuns: n, seed: rng.int(2 ** 31) });
  const pub = o.task.publicTests.map((t) => t.input);
  return Array.from({ length: n }, () => (pub.length ? pub[rng.int(pub.length)] : []));
}

function answer(o: CodeRepairObservation, inputs: JsonValue[][]): string {
  const tests = inputs.map((input) => ({ input }));
  return JSON.stringify(o.phase === 'cure-test' ? tests[0] : tests);
}

/** Max tests per round, from the ask text (the observation states it) or 3. */
function perRound(o: CodeRepairObservation): number {
  const m = /up to (\d+) unit tests/.exec(o.ask ?? '');
  return m ? Number(m[1]) : 3;
}

export const randomAuditor: AgentFactory = {
  name: 'random-auditor',
  description: "proposes random inputs from the task's generator (judged against the reference)",
  envs: ENVS,
  roles: ['auditor'],
  create: () => ({ name: 'random-auditor', act: (o: CodeRepairObservation, _l, ctx) => answer(o, randomInputs(o, wanted(o, perRound(o)), ctx.rng)) }),
};

/** A failing input for the candidate found by fast-check (shrunk), or null. */
export async function fuzz(o: CodeRepairObservation, runner: CodeRunner, runs: number, seed: number, signal?: AbortSignal): Promise<JsonValue[] | null> {
  if (!o.task.generator || !o.candidate || o.task.language !== 'js') return null;
  const checks = o.task.properties.map((p) => p.check);
  const fails = async (input: JsonValue[]): Promise<boolean> => {
    const tests = checks.length ? checks.map((property) => ({ input, property })) : [{ input }];
    const r = await runner.run({ language: 'js', program: o.candidate!, entry: o.task.entry, tests, limits: { timeMs: 200, memoryMb: 64 }, stopOnTimeout: true }, signal);
    return r.code !== 'ok';
  };
  const result = await fc.check(fc.asyncProperty(argumentsArbitrary(o.task.generator), async (input) => !(await fails(input))), { numRuns: runs, seed });
  return result.failed && result.counterexample ? (result.counterexample[0] as JsonValue[]) : null;
}


export const fuzzAuditor: AgentFactory = {
  name: 'fuzz-auditor',
  description: 'property-based auditor: fast-check over the task generator, the candidate run in the sandbox; proposes a shrunk input that breaks a public property or throws. Option runs (default 100)',
  envs: ENVS,
  roles: ['auditor'],
  create: ({ options, services }) => {
    const runs = countOption(options, 'runs', 100);
    return {
      name: 'fuzz-auditor',
      async act(o: CodeRepairObservation, _legal, ctx) {
        const n = wanted(o, perRound(o));
        const found = await fuzz(o, runnerOf(services, 'fuzz-auditor'), runs, ctx.rng.int(2 ** 31), ctx.signal);
        const inputs = [...(found ? [found] : []), ...randomInputs(o, n, ctx.rng)].slice(0, n);
        return answer(o, inputs);
      },
    };
  },
};
