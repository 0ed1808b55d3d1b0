import type { AgentFactory } from '../src/core/agent';
import { randomAgent } from './random';
import { llmAgent } from './llm';

/**
 * The generic built-in agent kinds: they play every env (`random` through the env's legal
 * actions or sampleAction, `llm` through its prompt). Each env's own baselines live in its folder
 * (envs/<env>/agents/) and come with its registration (envs/index.ts); the `neural` agent lives
 * with the trainer (src/train/neural-agent.ts). The catalog (app/catalog.ts) registers all three.
 */
export const builtinAgents: AgentFactory[] = [randomAgent, llmAgent];
