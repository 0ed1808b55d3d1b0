import type { AgentFactory } from '../src/core/agent';
import { randomAgent } from './random';
import { codeRepairAgents } from './code-repair';
import { countdownAgents } from './countdown';
import { dealOrNoDealAgents } from './deal-or-no-deal';
import { kernelSpeedupAgents } from './kernel-speedup';
import { werewolfAgents } from './werewolf';
import { llmAgent } from './llm';

/**
 * Built-in agent kinds (generic ones here; env-specific baselines are added by each env's
 * agents module). The `neural` agent lives with the trainer (src/train/neural-agent.ts) and is
 * registered by the catalog.
 */
export const builtinAgents: AgentFactory[] = [randomAgent, ...countdownAgents, ...dealOrNoDealAgents, ...werewolfAgents, ...codeRepairAgents, ...kernelSpeedupAgents, llmAgent];
