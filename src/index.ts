/**
 * Public API of selfplay-arena (`require('selfplay-arena')` / `import ... from 'selfplay-arena'`):
 * everything of the light entry `selfplay-arena/core` (src/core/index.ts: the env and agent
 * contracts, `defineEnv` / `defineAgent`, `Rng`, the conformance kit), plus the built-in
 * agents, the match runner, the store, leagues and the server. Modules loaded by the `arena` command resolve 'selfplay-arena' to the running
 * package even where it is not installed beside them (src/cli/self-resolve.ts).
 */
export * from './core/index';
export { EventBus, ofType } from './bus/event-bus';
export { visibleTo, filterForViewer, teamsFromCreated } from './bus/view-filter';
export { MemoryRecorder } from './bus/recorder';
export { runMatch, type MatchOptions, type MatchResult, type Decision } from './match/runner';
export { checkExploits, playFixture, EXPLOITS_CHECK, type ExploitCheckOptions } from './match/exploit-check';
export * from './match/fault-policy';
export { scriptedAgent, scriptedFactory, type Policy } from '../agents/scripted';
export { randomAgent } from '../agents/random';
export { builtinAgents } from '../agents';
export { createRegistry, defaultRegistry, make } from './catalog';
export { Store, type MatchRecord, type PlayerRecord } from './store/store';
export { startServer, type ArenaServer, type ServerOptions } from './server/start-server';
export { leagueLeaderboardProvider } from './server/league-leaderboard';
export { parseLeagueConfig, type LeagueConfig } from '../league/config';
export { runLeague, type LeagueRunOptions, type LeagueRunResult } from '../league/league-run';
export { leaderboard, type LeaderboardRow } from '../league/leaderboard';
export { selectBackend } from './train/backend';
export { llmAgent } from '../agents/llm';
export { collectRollouts, type RolloutRecord, type RolloutOptions } from './rollouts/collect';
export { startEnvServer, type EnvServer, type EnvServerOptions } from './server/env-serve/env-server';
