import type { AgentFactory } from '../../../src/core/agent';
import { ruleBasedAgent } from './rule-based';

/** werewolf-v1 baselines (the generic `random` agent plays it too, speech acts included). */
export const werewolfAgents: AgentFactory[] = [ruleBasedAgent];
