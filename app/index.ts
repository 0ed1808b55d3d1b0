/**
 * Public API of selfplay-arena (`require('selfplay-arena')` / `import ... from 'selfplay-arena'`):
 * everything of the light entry `selfplay-arena/core` (src/core/index.ts: the env and agent
 * contracts, `defineEnv` / `defineAgent`, `Rng`, the conformance kit), plus the built-in
 * agents, the match runner, the store, leagues and the server. Modules loaded by the `arena` command resolve 'selfplay-arena' to the running
 * package even where it is not installed beside them (app/cli/self-resolve.ts).
 */
export * from '../src/core/index';
export { EventBus, ofType } from '../src/bus/event-bus';
export { visibleTo, filterForViewer, teamsFromCreated } from '../src/bus/view-filter';
export { MemoryRecorder } from '../src/bus/recorder';
export { runMatch, type MatchOptions, type MatchResult, type Decision } from '../src/match/runner';
export { checkExploits, playFixture, EXPLOITS_CHECK, type ExploitCheckOptions } from '../src/match/exploit-check';
export * from '../src/match/fault-policy';
export { scriptedAgent, scriptedFactory, type Policy } from '../agents/scripted';
export { randomAgent } from '../agents/random';
export { builtinAgents } from '../agents';
export { createRegistry, defaultRegistry, make } from './catalog';
export { Store, type MatchRecord, type PlayerRecord } from '../src/store/store';
export { startServer, type ArenaServer, type ServerOptions } from './server/start-server';
export { leagueLeaderboardProvider } from './server/league-leaderboard';
export { parseLeagueConfig, type LeagueConfig } from '../league/config';
export { runLeague, type LeagueRunOptions, type LeagueRunResult } from '../league/league-run';
export { leaderboard, type LeaderboardRow } from '../league/leaderboard';
export { selectBackend } from '../src/train/backend';
export { llmAgent } from '../agents/llm';
export { collectRollouts, type RolloutRecord, type RolloutOptions } from '../src/rollouts/collect';
export { startEnvServer, type EnvServer, type EnvServerOptions } from './server/env-serve/env-server';
