import type { AgentFactory } from '../../../src/core/agent';
import type { CodeRepairObservation } from '../types';
import { fuzzAuditor, randomAuditor } from './auditors';
import { echoFixer, mutationFixer } from './fixers';

/** Evaluator baseline: predicts the last run's hidden pass share (0.5 before any run). */
export const passRateEvaluator: AgentFactory = {
  name: 'pass-rate-evaluator',
  description: "predicts the last run's hidden-test pass share (0.5 before the first run)",
  envs: ['code-repair-v1'],
  roles: ['evaluator'],
  create: () => ({
    name: 'pass-rate-evaluator',
    act: (o: CodeRepairObservation) => (o.lastRun && o.lastRun.hidden.total ? o.lastRun.hidden.passed / o.lastRun.hidden.total : 0.5),
  }),
};

/** Baselines of code-repair-v1. */
export const codeRepairAgents: AgentFactory[] = [echoFixer, mutationFixer, randomAuditor, fuzzAuditor, passRateEvaluator];
