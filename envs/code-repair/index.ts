/**
 * code-repair-v1's public index: the definition (env.ts), what tools, tests and the CLI may use of the
 * env, and its one registration object, which envs/index.ts registers by one line. The env's
 * own agents (agents/) import its modules, never this file (it imports them).
 */
import type { BuiltinEnv } from '../../src/core/builtin-env';
import { codeRepairAgents } from './agents';
import { codeRepairEnv } from './env';

export { codeRepairEnv } from './env';

export { EFFECT_KIND } from './runs';
export type { CodeRepairObservation, CodeRepairState, AuditTest, PublicTask, Role } from './types';
export type { CodeTask, TaskTest, ArbitraryDescription, TaskProperty, BuggyVariant } from './task-format';
export { parseTaskLines, parseTask, humanEvalTask, TaskFormatError, type TaskFileFormat } from './task-parse';
export { bundledTasks, fileTasks } from './task-store';
export { checkTask, type TaskVerdict } from './task-check';
export { readTests, readProgram } from './actions';

/** code-repair-v1 as it ships: the definition and its baselines, registered by envs/index.ts (one line). */
export const codeRepair: BuiltinEnv = { env: codeRepairEnv, agents: codeRepairAgents };
