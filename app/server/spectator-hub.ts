import type { Server, Socket } from 'socket.io';
import type { LeagueEvent, MatchEvent } from '../../src/core/events';
import type { Released } from '../../src/core/phase-release';
import { ViewSequence } from '../../src/core/view-stream';
import type { Store } from '../../src/store/store';
import type { LiveMatch, LiveMatches, LiveMatchListener, ObsRef } from './live-matches';
import { findMatch } from './match-source';
import {
  CLIENT_MESSAGES,
  JoinSchema,
  LeaveSchema,
  MAX_MESSAGE_BYTES,
  SubscribeSchema,
  describeZodError,
  viewKey,
  viewerOf,
  type ClientMessageName,
  type ErrorCode,
  type ErrorMessage,
  type EventMessage,
  type ObsMessage,
  type SubscribedMessage,
} from './protocol';
import { admitMessage } from './message-admission';
import { TokenBucket, type RateLimit } from './rate-limiter';
import { internalError, MAX_JSON_DEPTH, nestedDeeperThan } from './http-kit';
import type { EnvResolver, ObservationPoint } from './state-tracker';
import { authorizeView, type ViewPolicy } from './view-policy';
import { viewSnapshot } from './view-snapshot';

export interface SpectatorHubOptions {
  io: Server;
  live: LiveMatches;
  store?: Store;
  policy: ViewPolicy;
  rateLimit: RateLimit;
  /** Rooms (match views and channels) one connection may be in at once. */
  maxRoomsPerSocket: number;
  /** Env lookup for observations of stored matches. */
  resolveEnv?: EnvResolver;
}

type Ack = (reply: unknown) => void;

interface Connection {
  bucket: TokenBucket;
  rooms: Set<string>;
}

const ACT_NAMES = new Set(['act', 'action', 'move', 'play', 'step', 'say', 'vote']);
const KNOWN = new Set<string>(CLIENT_MESSAGES);

/** Room name of one view of one match. */
export const matchRoom = (matchId: string, key: string): string => `m:${matchId}|${key}`;

/**
 * The socket.io side of spectating. Each joined (match, view) pair is a room; every bus event
 * of a live match is projected once per view room and broadcast to that room, so each frame is
 * encoded once however many spectators watch.
 *
 * Every view has its own event numbering (src/core/view-stream.ts): a view sees its events
 * numbered 0, 1, 2... so no number reveals how many hidden events happened in between.
 *
 * Public rooms receive what the match's public view releases (LiveMatches: for a hidden-role
 * match per phase, when the phase is due — src/core/phase-release.ts — events and observations
 * together); seat and omniscient rooms receive every event as it happens (their own ViewSequence).
 *
 * Late join without gap or duplicate: `join` runs synchronously between two releases — it
 * enters the room and copies the match buffer in the same tick — so the snapshot holds exactly
 * the view's released events up to its number N and every later broadcast has a number > N. The
 * snapshot carries `upTo = N` so clients can also drop anything at or below it.
 */
export class SpectatorHub implements LiveMatchListener {
  /** matchId -> (view key -> the room's view sequence) for every joined seat or omniscient view. */
  private readonly views = new Map<string, Map<string, ViewSequence>>();
  private readonly detach: () => void;

  constructor(private readonly o: SpectatorHubOptions) {
    this.detach = o.live.addListener(this);
    o.io.on('connection', (socket) => this.connect(socket));
  }

  stop(): void {
    this.detach();
  }

  onMatchEvent(match: LiveMatch, event: MatchEvent, stepped: boolean): void {
    const views = this.views.get(match.id);
    if (!views) return;
    const rooms = this.o.io.sockets.adapter.rooms;
    for (const [key, seq] of views) {
      const room = matchRoom(match.id, key);
      if (!rooms.has(room)) {
        views.delete(key);
        continue;
      }
      // `stepped`: the previous step is complete; its observation goes out before this event.
      const point = stepped ? match.tracker?.latest(seq.viewer, seq.last) : null;
      if (point) this.emitObs(match, room, key, point);
      const visible = seq.next(event);
      if (visible) this.emitEvent(match, room, key, visible);
    }
    if (event.type === 'match.ended') this.views.delete(match.id);
  }

  onPublicRelease(match: LiveMatch, items: readonly Released<ObsRef>[]): void {
    const room = matchRoom(match.id, 'public');
    if (this.o.io.sockets.adapter.rooms.has(room)) {
      for (const r of items) {
        if (r.event) this.emitEvent(match, room, 'public', r.event);
        else {
          const point = match.tracker?.observeAt(r.extra.index, 'public', r.extra.seq);
          if (point) this.emitObs(match, room, 'public', point);
        }
      }
    }
    for (const r of items) {
      const type = r.event?.type;
      if (type === 'match.started' || type === 'match.ended') {
        this.o.io.to('lobby').emit('lobby', { kind: type === 'match.started' ? 'started' : 'ended', match: this.o.live.summary(match) });
      }
    }
  }

  private emitEvent(match: LiveMatch, room: string, key: string, event: MatchEvent): void {
    const msg: EventMessage = { matchId: match.id, view: key, event: match.captions ? match.captions.attach(event) : event };
    this.o.io.to(room).emit('event', msg);
  }

  private emitObs(match: LiveMatch, room: string, key: string, point: ObservationPoint): void {
    const obs: ObsMessage = { matchId: match.id, view: key, ...point };
    this.o.io.to(room).emit('obs', obs);
  }

  onLeagueEvent(event: LeagueEvent): void {
    const league = event.league;
    if (league === undefined) return; // a standalone training run: no league room
    this.o.io.to(`league:${league}`).emit('league', { league, event });
  }

  private connect(socket: Socket): void {
    const conn: Connection = { bucket: new TokenBucket(this.o.rateLimit), rooms: new Set() };
    socket.onAny((name: unknown, ...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args[args.length - 1] as Ack) : undefined;
      try {
        this.receive(socket, conn, name, args);
      } catch (e) {
        // A bug must not take the server down; the client gets a generic answer.
        const err = { ok: false, code: 'bad-request', message: internalError('spectator socket', e) };
        if (ack) ack(err);
        else socket.emit('error', err);
      }
    });
  }

  private receive(socket: Socket, conn: Connection, name: unknown, args: unknown[]): void {
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;
    const ref = typeof name === 'string' ? name.slice(0, 64) : undefined;
    const fail = (code: ErrorCode, message: string) => {
      const err: ErrorMessage = { ok: false, code, message, ...(ref !== undefined ? { ref } : {}) };
      if (ack) ack(err);
      else socket.emit('error', err);
    };
    if (!admitMessage(socket, conn.bucket, args, MAX_MESSAGE_BYTES, ack !== undefined, fail)) return;
    if (typeof name !== 'string' || !KNOWN.has(name)) {
      if (typeof name === 'string' && ACT_NAMES.has(name)) return fail('forbidden', 'spectators cannot act in games');
      return fail('unknown-message', `unknown message; expected one of ${CLIENT_MESSAGES.join(', ')}`);
    }
    if (args.length !== 1) return fail('bad-request', `${name}: expected exactly one argument (an object)`);
    if (nestedDeeperThan(args[0])) return fail('bad-request', `${name}: nested deeper than ${MAX_JSON_DEPTH} levels`);
    const reply = (event: string, payload: unknown) => (ack ? ack(payload) : socket.emit(event, payload));
    switch (name as ClientMessageName) {
      case 'join':
        return this.join(socket, conn, args[0], reply, fail);
      case 'leave':
        return this.leave(socket, conn, args[0], reply, fail);
      case 'subscribe':
      case 'unsubscribe':
        return this.subscribe(socket, conn, name === 'subscribe', args[0], reply, fail);
    }
  }

  private join(socket: Socket, conn: Connection, raw: unknown, reply: (e: string, p: unknown) => void, fail: (c: ErrorCode, m: string) => void): void {
    const parsed = JoinSchema.safeParse(raw);
    if (!parsed.success) return fail('bad-request', `join: ${describeZodError(parsed.error)}`);
    const { matchId } = parsed.data;
    const viewer = viewerOf(parsed.data.view);
    const key = viewKey(viewer);
    const src = findMatch(matchId, this.o.live, this.o.store, this.o.resolveEnv);
    if (!src) return fail('not-found', `join: no match "${matchId}" (neither live nor stored)`);
    const decision = authorizeView(viewer, { live: src.live, seats: src.seats }, this.o.policy);
    if (!decision.ok) return fail(decision.code, `join: ${decision.message}`);
    const room = matchRoom(matchId, key);
    const snapshot = viewSnapshot(src, viewer, this.o.policy);
    if (src.live) {
      if (!conn.rooms.has(room)) {
        if (conn.rooms.size >= this.o.maxRoomsPerSocket) return fail('too-many-rooms', `join: at most ${this.o.maxRoomsPerSocket} rooms per connection`);
        conn.rooms.add(room);
      }
      const live = src.liveMatch;
      // the public room follows the match's public view (LiveMatches); other views their own sequence
      if (key !== 'public' && src.events[src.events.length - 1]?.type !== 'match.ended') {
        let views = this.views.get(matchId);
        if (!views) this.views.set(matchId, (views = new Map()));
        if (!views.has(key)) views.set(key, new ViewSequence(viewer, (seat) => (live ? live.teamOf(seat) : src.teamOf(seat)), snapshot.events.length));
      }
      void socket.join(room); // synchronous with the in-memory adapter: no event can slip in before the copy above
    }
    reply('snapshot', snapshot);
  }

  private leave(socket: Socket, conn: Connection, raw: unknown, reply: (e: string, p: unknown) => void, fail: (c: ErrorCode, m: string) => void): void {
    const parsed = LeaveSchema.safeParse(raw);
    if (!parsed.success) return fail('bad-request', `leave: ${describeZodError(parsed.error)}`);
    const key = viewKey(viewerOf(parsed.data.view));
    const room = matchRoom(parsed.data.matchId, key);
    conn.rooms.delete(room);
    void socket.leave(room);
    reply('left', { ok: true, matchId: parsed.data.matchId, view: key });
  }

  private subscribe(
    socket: Socket,
    conn: Connection,
    on: boolean,
    raw: unknown,
    reply: (e: string, p: unknown) => void,
    fail: (c: ErrorCode, m: string) => void,
  ): void {
    const verb = on ? 'subscribe' : 'unsubscribe';
    const parsed = SubscribeSchema.safeParse(raw);
    if (!parsed.success) return fail('bad-request', `${verb}: ${describeZodError(parsed.error)}`);
    const room = parsed.data.channel === 'lobby' ? 'lobby' : `league:${parsed.data.league}`;
    if (!on) {
      conn.rooms.delete(room);
      void socket.leave(room);
      return reply('unsubscribed', { ok: true, channel: parsed.data.channel });
    }
    if (!conn.rooms.has(room)) {
      if (conn.rooms.size >= this.o.maxRoomsPerSocket) return fail('too-many-rooms', `${verb}: at most ${this.o.maxRoomsPerSocket} rooms per connection`);
      conn.rooms.add(room);
    }
    void socket.join(room);
    const live = parsed.data.channel === 'lobby' ? this.o.live.live().map((m) => this.o.live.summary(m)) : undefined;
    const msg: SubscribedMessage = { ok: true, channel: parsed.data.channel, ...(live ? { live } : {}) };
    reply('subscribed', msg);
  }
}
