/**
 * League matchmaking: Elo-closeness, PFSP (AlphaStar), uncertainty-driven pairing, role-aware
 * seat filling and AlphaStar's exploiter rules. Every choice draws from a seeded Rng.
 */
export { closenessProbabilities, pairByCloseness, pickCloseOpponent, type ClosenessOptions, type RatedCandidate } from './elo-closeness';
export { HeadToHead, type HeadToHeadPrior, type HeadToHeadSnapshot } from './head-to-head';
export { fHard, fLinear, fVar, pfspProbabilities, pfspWeight, pickPfspOpponent, type PfspOptions, type PfspWeighting } from './pfsp';
export { pairUncertainty, pickUncertainOpponent, pickUncertainPair, uncertaintyProbabilities, type IntervalCandidate, type UncertaintyOptions } from './uncertainty';
export { canPlay, fillSeats, SeatFillError, type SeatCandidate, type SeatFillOptions, type SeatPickContext } from './seat-filling';
export {
  beatsAllTargets,
  leagueExploiterOpponent,
  mainAgentOpponent,
  mainExploiterOpponent,
  resetsAfterSnapshot,
  snapshotsOf,
  withoutMonotonicSuffix,
  type LeagueChoice,
  type LeagueView,
} from './alphastar-league';
export { normalize } from './pick';
