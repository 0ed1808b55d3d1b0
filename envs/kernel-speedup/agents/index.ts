import type { AgentFactory } from '../../../src/core/agent';
import { boundaryAttacker } from './attackers';
import { autotunerDefender, expertDefender, referenceDefender } from './defenders';
import { featureEvaluator } from './evaluator';

export { autotune, searchSchedules, neighbours, type Tried, type AutotuneOptions } from './autotune';
export { boundaryAttack } from './attackers';
export { forecast } from './evaluator';

/** Baselines of kernel-speedup-v1. */
export const kernelSpeedupAgents: AgentFactory[] = [autotunerDefender, expertDefender, referenceDefender, boundaryAttacker, featureEvaluator];
