/**
 * Scripted baselines of countdown-v1 (the generic `random` plays it too, through the env's
 * sampleAction): exact-solver, greedy (solvers), random-valid, difficulty-targeting
 * (challengers). exact-solver also plays the evaluator (an exact judge) and the challenger.
 */
import type { AgentFactory } from '../../../src/core/agent';
import { difficultyTargetingAgent } from './difficulty-targeting';
import { exactSolverAgent } from './exact-solver';
import { greedyAgent } from './greedy';
import { randomValidAgent } from './random-valid';

export const countdownAgents: AgentFactory[] = [exactSolverAgent, greedyAgent, randomValidAgent, difficultyTargetingAgent];
