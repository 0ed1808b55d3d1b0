/** The spectator server: `startServer` plus the types a caller (the demo, `arena serve`) needs. */
export { startServer, type ArenaServer, type ServerOptions } from './start-server';
export { rankRows, storeLeaderboard, type LeaderboardProvider, type LeaderboardQuery, type LeaderboardRow } from './leaderboard';
export type { RateLimit } from './rate-limiter';
export type { MatchSummary, SnapshotMessage, EventMessage, LobbyMessage, LeagueMessage, ErrorMessage } from './protocol';
