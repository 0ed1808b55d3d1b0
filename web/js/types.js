// @ts-check
/**
 * The page's types, taken from the server's own sources (never copied): a protocol or API change
 * that the page does not follow fails `npm test`'s type check of web/ (web/tsconfig.json).
 * This module has no runtime content; other modules import its typedefs with
 * `@typedef {import('./types.js').Name} Name`.
 */

/** @typedef {import('../../src/core/events').MatchEvent} MatchEvent */
/** @typedef {import('../../src/core/events').MatchCreated} MatchCreated */
/** @typedef {import('../../src/core/events').MatchStarted} MatchStarted */
/** @typedef {import('../../src/core/events').MatchEnded} MatchEnded */
/** @typedef {import('../../src/core/events').RewardEvent} RewardEvent */
/** @typedef {import('../../src/core/events').TurnEvent} TurnEvent */
/** @typedef {import('../../src/core/events').EnvStepEvent} EnvStepEvent */
/** @typedef {import('../../src/core/events').LeagueEvent} LeagueEvent */
/** @typedef {import('../../src/core/json').JsonValue} JsonValue */
/** @typedef {import('../../app/server/protocol').ViewEvent} ViewEvent */
/** @typedef {import('../../app/server/protocol').ViewOption} ViewOption */
/** @typedef {import('../../app/server/protocol').MatchSummary} MatchSummary */
/** @typedef {import('../../app/server/protocol').SnapshotMessage} SnapshotMessage */
/** @typedef {import('../../app/server/protocol').EventMessage} EventMessage */
/** @typedef {import('../../app/server/protocol').ObsMessage} ObsMessage */
/** @typedef {import('../../app/server/protocol').LobbyMessage} LobbyMessage */
/** @typedef {import('../../app/server/protocol').SubscribedMessage} SubscribedMessage */
/** @typedef {import('../../app/server/protocol').LeagueMessage} LeagueMessage */
/** @typedef {import('../../app/server/protocol').ErrorMessage} ErrorMessage */
/** @typedef {import('../../app/server/state-tracker').ObservationPoint} ObservationPoint */
/** @typedef {import('../../app/server/leaderboard').LeaderboardRow} LeaderboardRow */
/** @typedef {import('../../app/server/api-types').MatchListResponse} MatchListResponse */
/** @typedef {import('../../app/server/api-types').MatchResponse} MatchResponse */
/** @typedef {import('../../app/server/api-types').LeaguesResponse} LeaguesResponse */
/** @typedef {import('../../app/server/api-types').LeagueListing} LeagueListing */
/** @typedef {import('../../app/server/api-types').LeaderboardResponse} LeaderboardResponse */
/** @typedef {import('../../app/server/api-types').RatingsResponse} RatingsResponse */
/** @typedef {import('../../app/server/api-types').RatingSystemsResponse} RatingSystemsResponse */
/** @typedef {import('../../league/ratings/rating-system').RatingSystemInfo} RatingSystemInfo */
/** @typedef {import('../../app/server/api-types').TrainingResponse} TrainingResponse */
/** @typedef {import('../../app/server/api-types').TrainingRecord} TrainingRecord */
/** @typedef {import('../../app/server/api-types').OverviewResponse} OverviewResponse */
/** @typedef {import('../../app/server/api-types').TournamentsResponse} TournamentsResponse */
/** @typedef {import('../../app/server/api-types').TournamentResponse} TournamentResponse */
/** @typedef {import('../../app/server/api-types').PlayOptionsResponse} PlayOptionsResponse */
/** @typedef {import('../../app/server/api-types').PlayEnvOption} PlayEnvOption */
/** @typedef {import('../../app/server/api-types').PlayStartRequest} PlayStartRequest */
/** @typedef {import('../../app/server/api-types').PlayStartResponse} PlayStartResponse */
/** @typedef {import('../../league/league-overview').LearnerOverview} LearnerOverview */
/** @typedef {import('../../src/train/metrics-log').IterationMetrics} IterationMetrics */
/** @typedef {import('../../app/server/play/play-protocol').SeatMessage} SeatMessage */
/** @typedef {import('../../app/server/play/play-protocol').DecideMessage} DecideMessage */
/** @typedef {import('../../app/server/play/play-protocol').PlayEventMessage} PlayEventMessage */
/** @typedef {import('../../app/server/play/play-protocol').PlayObsMessage} PlayObsMessage */
/** @typedef {import('../../app/server/play/play-protocol').CancelMessage} CancelMessage */
/** @typedef {import('../../app/server/play/play-protocol').WelcomeMessage} WelcomeMessage */
/** @typedef {import('../../app/server/play/play-protocol').PlayErrorMessage} PlayErrorMessage */
/** @typedef {import('../../app/server/play/play-protocol').ActMessage} ActMessage */

export {};
