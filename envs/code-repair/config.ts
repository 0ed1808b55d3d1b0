/** Parameters of code-repair-v1 and the resolved episode configuration. */
import { ParamError, type ParamSchema, type Params } from '../../src/core/params';
import type { Config, Role } from './types';

export const ENV_ID = 'code-repair-v1';

export const PARAMS: ParamSchema = {
  mode: { type: 'enum', values: ['repair', 'generate'], default: 'repair', description: 'repair: the fixer starts from a buggy variant; generate: the coder writes from the spec' },
  reward: { type: 'enum', values: ['fixaudit', 'cure'], default: 'fixaudit', description: 'fixaudit: fixer vs auditor over rounds; cure: k programs x k tests judged together (CURE)' },
  tasks: { type: 'enum', values: ['js', 'humaneval'], default: 'js', description: 'bundled task set: js (46 tasks with buggy variants) or humaneval (164 Python problems; generate mode)' },
  taskFile: { type: 'string', description: 'a JSONL task file of your own (docs: envs/code-repair/README.md); overrides "tasks"' },
  task: { type: 'string', description: 'task id (default: drawn by the seed)' },
  variant: { type: 'integer', min: 0, description: 'buggy variant index for repair (default: drawn by the seed)' },
  rounds: { type: 'integer', min: 1, max: 10, default: 2, description: 'fixaudit: audit -> run -> revise rounds' },
  testsPerRound: { type: 'integer', min: 1, max: 20, default: 3, description: 'most tests an auditor proposes per round' },
  auditPenalty: { type: 'number', min: 0, max: 1, default: 0.1, description: "fixaudit: fixer's penalty per valid auditor test its final program fails" },
  k: { type: 'integer', min: 2, max: 8, default: 4, description: 'cure: programs and tests per episode' },
  zscore: { type: 'boolean', default: false, description: "cure: z-score each role's per-try rewards within the episode" },
  evaluator: { type: 'boolean', default: false, description: 'fixaudit: add an evaluator seat predicting whether each revision passes the hidden tests' },
  timeMs: { type: 'integer', min: 10, max: 60000, default: 2000, description: 'sandbox time limit per test, ms' },
  memoryMb: { type: 'integer', min: 16, max: 2048, default: 256, description: 'sandbox memory limit, MB' },
};

/** Resolved params -> the episode configuration; cross-field problems are ParamErrors. */
export function resolveConfig(p: Params): Config {
  const reward = p.reward as Config['reward'];
  const mode = p.mode as Config['mode'];
  if (reward === 'cure' && mode !== 'generate') throw new ParamError(ENV_ID, 'mode', 'must be "generate" with reward "cure" (CURE co-evolves a coder and a unit tester)');
  if (reward === 'cure' && p.evaluator) throw new ParamError(ENV_ID, 'evaluator', 'is only available with reward "fixaudit"');
  const seats: Role[] = ['coder', 'auditor', ...(p.evaluator ? (['evaluator'] as Role[]) : [])];
  return {
    mode,
    reward,
    rounds: p.rounds as number,
    testsPerRound: p.testsPerRound as number,
    auditPenalty: p.auditPenalty as number,
    k: p.k as number,
    zscore: p.zscore as boolean,
    seats,
    limits: { timeMs: p.timeMs as number, memoryMb: p.memoryMb as number },
  };
}

/** Most env steps: fixaudit: 2 at the start + 5 per round; cure: 2k + 1. */
export function maxLength(p: Params): number {
  return p.reward === 'cure' ? 2 * (p.k as number) + 2 : 3 + 5 * (p.rounds as number);
}
