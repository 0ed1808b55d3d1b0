/**
 * kernel-speedup-v1's public index: the definition (env.ts), what tools, tests and the CLI may use of the
 * env, and its one registration object, which envs/index.ts registers by one line. The env's
 * own agents (agents/) import its modules, never this file (it imports them).
 */
import type { BuiltinEnv } from '../../src/core/builtin-env';
import { kernelSpeedupAgents } from './agents';
import { KERNEL_MEASURE_EFFECT, kernelMeasureHandler } from './measure/handler';
import { kernelSpeedupEnv } from './env';

export { kernelSpeedupEnv } from './env';

export { EFFECT_KIND } from './runs';
export { ENV_ID } from './config';
export { STOP } from './actions';
export { SCHEDULE_SLOTS, STOP_INDEX, NUM_ACTIONS } from './encoder';
export { OUTCOMES, TIERS, tierReward, logSpeedupReward, attackScore, predictionScore, outcomeClass } from './rewards';
export { scheduleTable, tableShape, tableSpeedup, expertCeiling, type ScheduleTable, type TableShape } from './table';
export { kernelTasks, kernelTask } from './tasks';
export { scheduleAt, scheduleIndex, scheduleCount, legalScheduleIndices, isLegalSchedule, scheduleText } from './tasks/schedule';
export type { KernelTask, Dims, Schedule } from './tasks/task';
export * from './measure';
export { kernelExploits, seedOracleKernel, AA_TOLERANCE } from './exploits';
export type { KernelObservation, KernelState, RevisionView, CandidateView, PublicTask, Role } from './types';

/**
 * kernel-speedup-v1 as it ships: the definition, its baselines and the handler of its kernel measurements
 * (built on the lab the catalog lends), registered by envs/index.ts (one line).
 */
export const kernelSpeedup: BuiltinEnv = {
  env: kernelSpeedupEnv,
  agents: kernelSpeedupAgents,
  effects: ({ kernels }) => ({ [KERNEL_MEASURE_EFFECT]: kernelMeasureHandler(kernels) }),
};
