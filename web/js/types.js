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
/** @typedef {import('../../src/server/protocol').ViewEvent} ViewEvent */
/** @typedef {import('../../src/server/protocol').ViewOption} ViewOption */
/** @typedef {import('../../src/server/protocol').MatchSummary} MatchSummary */
/** @typedef {import('../../src/server/protocol').SnapshotMessage} SnapshotMessage */
/** @typedef {import('../../src/server/protocol').EventMessage} EventMessage */
/** @typedef {import('../../src/server/protocol').ObsMessage} ObsMessage */
/** @typedef {import('../../src/server/protocol').LobbyMessage} LobbyMessage */
/** @typedef {import('../../src/server/protocol').SubscribedMessage} SubscribedMessage */
/** @typedef {import('../../src/server/protocol').LeagueMessage} LeagueMessage */
/** @typedef {import('../../src/server/protocol').ErrorMessage} ErrorMessage */
/** @typedef {import('../../src/server/state-tracker').ObservationPoint} ObservationPoint */
/** @typedef {import('../../src/server/leaderboard').LeaderboardRow} LeaderboardRow */
/** @typedef {import('../../src/server/api-types').MatchListResponse} MatchListResponse */
/** @typedef {import('../../src/server/api-types').MatchResponse} MatchResponse */
/** @typedef {import('../../src/server/api-types').LeaguesResponse} LeaguesResponse */
/** @typedef {import('../../src/server/api-types').LeagueListing} LeagueListing */
/** @typedef {import('../../src/server/api-types').LeaderboardResponse} LeaderboardResponse */
/** @typedef {import('../../src/server/api-types').RatingsResponse} RatingsResponse */
/** @typedef {import('../../src/server/api-types').RatingSystemsResponse} RatingSystemsResponse */
/** @typedef {import('../../league/ratings/rating-system').RatingSystemInfo} RatingSystemInfo */
/** @typedef {import('../../src/server/api-types').TrainingResponse} TrainingResponse */
/** @typedef {import('../../src/server/api-types').TrainingRecord} TrainingRecord */
/** @typedef {import('../../src/server/api-types').OverviewResponse} OverviewResponse */
/** @typedef {import('../../src/server/api-types').TournamentsResponse} TournamentsResponse */
/** @typedef {import('../../src/server/api-types').TournamentResponse} TournamentResponse */
/** @typedef {import('../../src/server/api-types').PlayOptionsResponse} PlayOptionsResponse */
/** @typedef {import('../../src/server/api-types').PlayEnvOption} PlayEnvOption */
/** @typedef {import('../../src/server/api-types').PlayStartRequest} PlayStartRequest */
/** @typedef {import('../../src/server/api-types').PlayStartResponse} PlayStartResponse */
/** @typedef {import('../../league/league-overview').LearnerOverview} LearnerOverview */
/** @typedef {import('../../src/train/metrics-log').IterationMetrics} IterationMetrics */
/** @typedef {import('../../src/server/play/play-protocol').SeatMessage} SeatMessage */
/** @typedef {import('../../src/server/play/play-protocol').DecideMessage} DecideMessage */
/** @typedef {import('../../src/server/play/play-protocol').PlayEventMessage} PlayEventMessage */
/** @typedef {import('../../src/server/play/play-protocol').PlayObsMessage} PlayObsMessage */
/** @typedef {import('../../src/server/play/play-protocol').CancelMessage} CancelMessage */
/** @typedef {import('../../src/server/play/play-protocol').WelcomeMessage} WelcomeMessage */
/** @typedef {import('../../src/server/play/play-protocol').PlayErrorMessage} PlayErrorMessage */
/** @typedef {import('../../src/server/play/play-protocol').ActMessage} ActMessage */

/** Observations of the built-in envs (what their renderers draw from). */
/** @typedef {import('../../envs/werewolf/observation').WerewolfObservation} WerewolfObservation */
/** @typedef {import('../../envs/countdown/types').CountdownObservation} CountdownObservation */
/** @typedef {import('../../envs/deal-or-no-deal/observation').DondObservation} DondObservation */

export {};
