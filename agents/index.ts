import type { AgentFactory } from '../src/core/agent';
import { randomAgent } from './random';
import { codeRepairAgents } from './code-repair';
import { countdownAgents } from './countdown';
import { neuralAgent } from './neural';
import { dealOrNoDealAgents } from './deal-or-no-deal';
import { kernelSpeedupAgents } from './kernel-speedup';
import { werewolfAgents } from './werewolf';

/** Built-in agent kinds (generic ones here; env-specific baselines are added by each env's agents module). */
export const builtinAgents: AgentFactory[] = [randomAgent, ...countdownAgents, neuralAgent, ...dealOrNoDealAgents, ...werewolfAgents, ...codeRepairAgents, ...kernelSpeedupAgents];
