/**
 * Fixer (coder) baselines for code-repair-v1: the echo fixer (returns the program unchanged) and
 * the mutation-search fixer (tries single mutations of the current JavaScript program against
 * the tests it can see — public tests and the auditor's valid tests — in the sandbox lent by the
 * host, keeps the first mutant that passes them all, else climbs on the best one).
 */
import type { AgentFactory } from '../../../src/core/agent';
import { countOption, runnerOf } from './lent';
import type { CodeRunRequest, CodeRunner, CodeTestCase } from '../../../src/core/sandbox';
import type { CodeRepairObservation } from '../types';
import { mutants } from './mutations';

const ENVS = ['code-repair-v1'];

function trivial(o: CodeRepairObservation): string {
  return o.task.language === 'js' ? `function ${o.task.entry}(...args) {\n  return null;\n}` : `def ${o.task.entry}(*args):\n    return None`;
}

/** The tests a coder can see: public tests and the auditor's valid tests (with the expected in force). */
export function visibleTests(o: CodeRepairObservation): CodeTestCase[] {
  const props = new Map(o.task.properties.map((p) => [p.name, p.check]));
  const pub = o.task.publicTests.map((t): CodeTestCase => ('property' in t ? { input: t.input, property: props.get(t.property)! } : { input: t.input, expected: t.expected }));
  const audit = o.audit.filter((t) => t.valid).map((t): CodeTestCase => ({ input: t.input, expected: t.reference ?? null }));
  return [...pub, ...audit];
}

export const echoFixer: AgentFactory = {
  name: 'echo-fixer',
  description: 'returns the current program unchanged (a trivial stub before the first)',
  envs: ENVS,
  roles: ['coder'],
  create: () => ({ name: 'echo-fixer', act: (o: CodeRepairObservation) => o.candidate ?? trivial(o) }),
};


/** Searches mutants; returns the best program found (the candidate itself when nothing beats it). */
export async function mutationSearch(o: CodeRepairObservation, runner: CodeRunner, budget: number, signal?: AbortSignal): Promise<{ program: string; passed: number; total: number; tried: number }> {
  const current = o.candidate!;
  const tests = visibleTests(o);
  const request = (program: string): CodeRunRequest => ({ language: 'js', program, entry: o.task.entry, tests, limits: { timeMs: 100, memoryMb: 64 }, stopOnTimeout: true });
  const first = await runner.run(request(current), signal);
  let best = { program: current, passed: first.passed, total: first.total, tried: 0 };
  if (first.passed === first.total) return best;
  let frontier = [current];
  let tried = 0;
  while (tried < budget && frontier.length) {
    const next: string[] = [];
    for (const base of frontier) {
      const candidates = mutants(base).slice(0, budget - tried);
      tried += candidates.length;
      const results = await Promise.all(candidates.map((p) => runner.run(request(p), signal)));
      results.forEach((r, i) => {
        if (r.passed > best.passed) best = { program: candidates[i], passed: r.passed, total: r.total, tried };
      });
      if (best.passed === best.total) return { ...best, tried };
      if (tried >= budget) break;
    }
    if (best.program !== current && !frontier.includes(best.program)) next.push(best.program);
    frontier = next;
  }
  return { ...best, tried };
}

export const mutationFixer: AgentFactory = {
  name: 'mutation-fixer',
  description: 'mutation search (acorn + astring: operator swaps, off-by-one, negated conditions, swapped operands) guided by the visible tests, run in the sandbox; JavaScript tasks (others: echo). Option budget (default 400 runs per decision)',
  envs: ENVS,
  roles: ['coder'],
  create: ({ options, services }) => {
    const budget = countOption(options, 'budget', 400);
    return {
      name: 'mutation-fixer',
      async act(o: CodeRepairObservation, _legal, ctx) {
        if (!o.candidate || o.task.language !== 'js') return o.candidate ?? trivial(o);
        return (await mutationSearch(o, runnerOf(services, 'mutation-fixer'), budget, ctx.signal)).program;
      },
    };
  },
};
