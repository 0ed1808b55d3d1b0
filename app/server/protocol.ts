/**
 * The spectator protocol over socket.io: what a client may send, what the server answers.
 * Every client message is validated here; anything else gets an `error` and changes nothing.
 *
 * Client -> server (each may carry a socket.io acknowledgement callback as its last argument;
 * the reply then goes to the callback instead of being emitted as an event):
 * - `join`   `{ matchId, view? }` -> `snapshot` (the match so far for that view, then live `event`s)
 * - `leave`  `{ matchId, view? }` -> `left`
 * - `subscribe` / `unsubscribe` `{ channel: "lobby" }` or `{ channel: "league", league }` -> {@link SubscribedMessage}
 *
 * Server -> client:
 * - `snapshot` {@link SnapshotMessage}; `event` {@link EventMessage}; `obs` {@link ObsMessage}; `left` `{ matchId, view }`
 * - `lobby` {@link LobbyMessage}; `league` `{ league, event }`; `error` {@link ErrorMessage}
 *
 * Spectators cannot act: there is no message that reaches a match.
 */
import { z } from 'zod';
import type { ArenaEvent, MatchEvent } from '../../src/core/events';
import type { Viewer } from '../../src/core/visibility';
import type { ObservationPoint } from './state-tracker';

/** Largest accepted client message (JSON text of its arguments), in bytes. */
export const MAX_MESSAGE_BYTES = 4096;

const matchId = z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');
const leagueId = z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');

/** A view as a client writes it: "public", "omniscient", "seat:N", or `{ seat: N }`. */
export const ViewSchema = z.union([
  z.enum(['public', 'omniscient']),
  z.string().regex(/^seat:\d{1,3}$/, 'use "public", "omniscient" or "seat:N"'),
  z.object({ seat: z.number().int().min(0).max(999) }).strict(),
]);
export type ViewInput = z.infer<typeof ViewSchema>;

export const JoinSchema = z.object({ matchId, view: ViewSchema.default('public') }).strict();
export const LeaveSchema = JoinSchema;
export const SubscribeSchema = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('lobby') }).strict(),
  z.object({ channel: z.literal('league'), league: leagueId }).strict(),
]);

/** Names of the messages a client may send. */
export const CLIENT_MESSAGES = ['join', 'leave', 'subscribe', 'unsubscribe'] as const;
export type ClientMessageName = (typeof CLIENT_MESSAGES)[number];

/** Machine-readable error codes. */
export type ErrorCode =
  | 'bad-request'
  | 'too-large'
  | 'rate-limited'
  | 'unknown-message'
  | 'forbidden'
  | 'not-found'
  | 'too-many-rooms';

/** An error reply; `ref` names the client message it answers. */
export interface ErrorMessage {
  ok: false;
  code: ErrorCode;
  message: string;
  ref?: string;
}

/**
 * An event as a view receives it: numbered in the view's own sequence, with the env's words for
 * it where the env has them (`caption`: an action named as the env names it, "P3: accuse P2",
 * or an env event in its words). See app/server/event-captions.ts.
 */
export type ViewEvent = MatchEvent & { caption?: string };

/**
 * One view of a match and whether this server lets a spectator watch it now. A refused view
 * says why (`reason`, the server's own message) and whether it opens once the match has
 * ended (`afterEnd`).
 */
export interface ViewOption {
  /** "public", "omniscient" or "seat:N". */
  view: string;
  allowed: boolean;
  reason?: string;
  /** True when a refused view becomes allowed once the match has ended. */
  afterEnd?: boolean;
}

/** A public summary of a match (never the hidden roles of a live match). */
export interface MatchSummary {
  id: string;
  env: string;
  agents: string[];
  live: boolean;
  startedAt: number;
  endedAt: number | null;
  /** Env steps so far (or the final length). */
  step: number;
  outcome: string | null;
  returns: number[] | null;
  league?: string;
}

/** Reply to `join`: the events this view may see up to `upTo`; live `event`s follow with seq > upTo. */
export interface SnapshotMessage {
  ok: true;
  matchId: string;
  /** Canonical view key: "public", "omniscient" or "seat:N". */
  view: string;
  live: boolean;
  /** Highest seq covered (of all the match's events, visible or not); -1 when none yet. */
  upTo: number;
  events: ViewEvent[];
  /**
   * `env.observe(state, view)` after each step up to `upTo` (the first is the initial state);
   * empty when the server does not know the env. Live `obs` messages follow.
   */
  observations: ObservationPoint[];
  match: MatchSummary;
  /** Every view of the match and whether this server allows it (the view policy). */
  views: ViewOption[];
  /** The rules in force, in the env's words (`prompt.rules`); null when the env states none or is unknown here. */
  rules: string | null;
}

/** The view's observation after a step, sent right after the event that completed it. */
export interface ObsMessage extends ObservationPoint {
  matchId: string;
  view: string;
}

/** One live event for one joined view. */
export interface EventMessage {
  matchId: string;
  view: string;
  event: ViewEvent;
}

/** Reply to `subscribe`: the lobby channel comes with the matches live now. */
export interface SubscribedMessage {
  ok: true;
  channel: 'lobby' | 'league';
  live?: MatchSummary[];
}

/** A lobby change: a match started or ended. */
export interface LobbyMessage {
  kind: 'started' | 'ended';
  match: MatchSummary;
}

/** A league-level event (rating.updated, snapshot.added, training.iteration). */
export interface LeagueMessage {
  league: string;
  event: ArenaEvent;
}

/** Canonical text key of a viewer ("public", "omniscient", "seat:N"). */
export function viewKey(viewer: Viewer): string {
  return typeof viewer === 'number' ? `seat:${viewer}` : viewer;
}

/** The viewer a validated view input stands for. */
export function viewerOf(view: ViewInput): Viewer {
  if (typeof view === 'object') return view.seat;
  if (view === 'public' || view === 'omniscient') return view;
  return Number(view.slice(5));
}

/** One line naming each invalid field of a zod error. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(message)'}: ${i.message}`).join('; ');
}
