/**
 * The typed events of the arena's one stream. Match events carry their match id, a sequence
 * number (per match, from 0, no gaps), a wall-clock time and a visibility; league and training
 * events carry their league (or training run) instead of a match id. Events are immutable once
 * published.
 */
import type { JsonValue } from './json';
import type { Params } from './params';
import type { Visibility } from './visibility';

export interface EventBase {
  matchId: string;
  seq: number;
  time: number;
  visibility: Visibility;
}

/** How a seat misbehaved. */
export type FaultKind = 'illegal' | 'error' | 'timeout';

/** How a match ended: normally, by a forfeit, or stopped from outside. */
export type MatchCode = 'ok' | 'forfeit' | 'aborted';

/** Omniscient: everything needed to reproduce the match (seed, hidden seat roles). */
export interface MatchCreated extends EventBase {
  type: 'match.created';
  env: string;
  params: Params;
  seed: number;
  seats: { role: string; team: string; agent: string }[];
}
/**
 * Public: the match begins; who plays. `agents` is the agent name per seat, or — when the env
 * has hidden roles (`meta.hiddenRoles`) — each name once, sorted, without seats or counts
 * (`seatsHidden: true`, and `seats` the number of seats): how many seats an agent holds would
 * say which team it fills.
 */
export interface MatchStarted extends EventBase {
  type: 'match.started';
  env: string;
  params: Params;
  agents: string[];
  seatsHidden?: boolean;
  /** Number of seats, when `seatsHidden` (the agents list no longer tells it). */
  seats?: number;
}
/**
 * Public: which seats must act at this step, and the game's public phase when the env names
 * one (`env.phase(state)`: "night 2"); public views of hidden-role matches are released per
 * phase (src/core/phase-release.ts).
 */
export interface TurnEvent extends EventBase {
  type: 'turn';
  step: number;
  toAct: number[];
  phase?: string;
}
/** An accepted action (visibility chosen by the env; private to the actor by default). */
export interface ActionEvent extends EventBase {
  type: 'action';
  step: number;
  seat: number;
  action: JsonValue;
}
/** An env event from `step` (visibility chosen by the env). */
export interface EnvStepEvent extends EventBase {
  type: 'env';
  step: number;
  name: string;
  data: { [key: string]: JsonValue };
}
/** Free text spoken by a seat (an env event named "message"). */
export interface MessageEvent extends EventBase {
  type: 'message';
  step: number;
  seat: number | null;
  text: string;
  data: { [key: string]: JsonValue };
}
/** One recorded misbehaviour of a seat: illegal action, thrown error or timeout, and what the fault policy did. */
export interface FaultRecord {
  step: number;
  seat: number;
  kind: FaultKind;
  reason: string;
  attempt: number;
  resolution: 'retry' | 'default-action' | 'forfeit';
}

/**
 * Something an agent recorded about its own decision (an LLM attempt: its answer, the verdict,
 * tokens); visible to the seat and omniscient views (see `AgentContext.note`).
 */
export interface AgentNoteEvent extends EventBase {
  type: 'agent';
  step: number;
  seat: number;
  name: string;
  data: { [key: string]: JsonValue };
}

/** A fault, on the stream (private to the seat). */
export interface FaultEvent extends EventBase, FaultRecord {
  type: 'fault';
}
/** Public: final returns, one per seat. */
export interface RewardEvent extends EventBase {
  type: 'reward';
  returns: number[];
}
/** Public: the match is over. */
export interface MatchEnded extends EventBase {
  type: 'match.ended';
  returns: number[];
  outcome: string;
  code: MatchCode;
  length: number;
  faults: number;
  /** Seat that forfeited, when code is "forfeit". */
  forfeitedBy?: number;
}

/** League- and training-level events: no match id; `seq` counts per league or run. Payload is free JSON. */
interface LeagueEventBase {
  seq: number;
  time: number;
  visibility: Visibility;
  data: { [key: string]: JsonValue };
}
/** Ratings changed after a league match (`seq`: the match's index; `data.match`: its id). */
export interface RatingUpdated extends LeagueEventBase {
  type: 'rating.updated';
  league: string;
}
/** A learner's frozen snapshot joined the league (`seq`: the learner's iteration). */
export interface SnapshotAdded extends LeagueEventBase {
  type: 'snapshot.added';
  league: string;
}
/** One training iteration's metrics (`seq`: the iteration). */
export interface TrainingIteration extends LeagueEventBase {
  type: 'training.iteration';
  /** The training run. */
  run: string;
  /** The league whose learner trains, when the run belongs to one. */
  league?: string;
}
export type LeagueEvent = RatingUpdated | SnapshotAdded | TrainingIteration;

export type MatchEvent =
  | MatchCreated
  | MatchStarted
  | TurnEvent
  | ActionEvent
  | EnvStepEvent
  | MessageEvent
  | AgentNoteEvent
  | FaultEvent
  | RewardEvent
  | MatchEnded;

export type ArenaEvent = MatchEvent | LeagueEvent;

const LEAGUE_TYPES = new Set<string>(['rating.updated', 'snapshot.added', 'training.iteration']);

/** True for events that belong to one match (as opposed to league/training events). */
export function isMatchEvent(e: ArenaEvent): e is MatchEvent {
  return !LEAGUE_TYPES.has(e.type);
}
