/** Baselines for deal-or-no-deal-v1 (`random` is the generic agent of agents/random.ts). */
import type { AgentFactory } from '../../../src/core/agent';
import { fairSplitAgent } from './fair-split';
import { greedyAgent } from './greedy';
import { nashOracleAgent } from './nash-oracle';

export { fairSplitAgent, greedyAgent, nashOracleAgent };
export { negotiate, negotiatorAgent, type NegotiationView, type Strategy } from './negotiator';

/** Every deal-or-no-deal baseline, for agents/index.ts. */
export const dealOrNoDealAgents: AgentFactory[] = [greedyAgent, fairSplitAgent, nashOracleAgent];
