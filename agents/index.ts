import type { AgentFactory } from '../src/core/agent';
import { randomAgent } from './random';

/** Built-in agent kinds (generic ones here; env-specific baselines are added by each env's agents module). */
export const builtinAgents: AgentFactory[] = [randomAgent];
