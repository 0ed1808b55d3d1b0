/**
 * The `/play` namespace: remote bots and human players fill seats (protocol in
 * play-protocol.ts and docs/protocol.md). A *slot* is what a token opens: one seat of
 * `arena play`, or one league player (who may sit in many matches, several seats at once).
 *
 * - Authentication: the socket.io handshake's `auth.token`, checked against the slots' token
 *   digests in constant time; tokens are never stored, logged or echoed.
 * - What a seat sees is its own view only: every event of the match goes through a
 *   ViewSequence for that seat (the same projection as spectators; effect steps, which no seat
 *   answers, are left out), observations are `env.observe(state, seat)`.
 * - Decisions: the remote agent's `act` becomes a `decide`; the answer comes back as `act`.
 *   Deadlines and the fault policy are the runner's. A seat that is disconnected while a
 *   decision waits has `reconnectMs` (or until the deadline) to come back — the decision is then
 *   re-sent — else the decision fails ("disconnected"), a fault like any other.
 * - Abuse: messages validated with zod, a size limit and the spectators' per-connection rate limit.
 */
import { randomUUID } from 'node:crypto';
import type { Namespace, Socket } from 'socket.io';
import type { AgentContext } from '../../../src/core/agent';
import type { Env } from '../../../src/core/env';
import type { MatchEvent } from '../../../src/core/events';
import type { JsonValue } from '../../../src/core/json';
import { actionNote, labelActions, observationText, openAnswer, type LabelledAction, type PromptContext } from '../../../src/core/prompt';
import { ViewSequence } from '../../../src/core/view-stream';
import type { LiveMatch, LiveMatches, LiveMatchListener } from '../live-matches';
import { admitMessage } from '../message-admission';
import { TokenBucket, type RateLimit } from '../rate-limiter';
import { internalError, MAX_JSON_DEPTH, nestedDeeperThan } from '../http-kit';
import {
  MAX_PLAY_MESSAGE_BYTES,
  type CancelMessage,
  type DecideMessage,
  type PlayErrorCode,
  type PlayErrorMessage,
  type SeatInfoMessage,
  type SeatKind,
  type SeatMessage,
  type WelcomeMessage,
  parseAct,
} from './play-protocol';
import { findByToken, newToken, tokenDigest } from './seat-tokens';
import { answerToAction, isEffectTurn, renderFor, seatEvents, seatSnapshot } from './seat-view';

/** Options of the hub. */
export interface PlayHubOptions {
  nsp: Namespace;
  live: LiveMatches;
  rateLimit: RateLimit;
  /** How long a decision waits for a disconnected seat to come back (default 10 s; the deadline also applies). */
  reconnectMs?: number;
}

interface Binding {
  matchId: string;
  seat: number;
  env: Env;
  role: string;
  team: string;
  prompt: PromptContext;
  /** The seat's view sequence (null until the match is known to the server). */
  seq: ViewSequence | null;
  ended: boolean;
}

interface Pending {
  message: DecideMessage;
  binding: Binding;
  obs: unknown;
  labels: LabelledAction[] | null;
  ctx: AgentContext;
  resolve: (action: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | null;
  cleanup: () => void;
}

interface Slot {
  id: string;
  label: string;
  kind: SeatKind;
  digest: Buffer;
  socket: Socket | null;
  /** When the last connection dropped (null: connected, or never connected). */
  disconnectedAt: number | null;
  everConnected: boolean;
  bindings: Binding[];
  pending: Map<string, Pending>;
  waiters: (() => void)[];
  /** Answers the seat may send beyond the rate limit: one per decision sent (a fast bot is never throttled for answering). */
  credits: number;
}

/** A slot as the hub reports it (no token). */
export interface SlotInfo {
  id: string;
  label: string;
  kind: SeatKind;
  connected: boolean;
}

const KEEP_ENDED = 4;

/** A legal action with the env's note for the seat choosing it, where it has one. */
function withNote(env: Env, obs: unknown, l: LabelledAction): LabelledAction & { note?: string } {
  const note = actionNote(env, obs, l.action);
  return note === null ? l : { ...l, note };
}


/** The `/play` hub (see the module comment). */
export class PlayHub implements LiveMatchListener {
  private readonly slots = new Map<string, Slot>();
  private readonly byMatch = new Map<string, Binding[]>();
  private readonly detach: () => void;
  private readonly reconnectMs: number;
  private issued = 0;

  constructor(private readonly o: PlayHubOptions) {
    this.reconnectMs = o.reconnectMs ?? 10_000;
    this.detach = o.live.addListener(this);
    o.nsp.use((socket, next) => {
      const slot = findByToken(this.slots.values(), (socket.handshake.auth as { token?: unknown } | undefined)?.token);
      if (!slot) return next(new Error('unauthorized: unknown seat token'));
      (socket.data as { slot?: string }).slot = slot.id;
      next();
    });
    o.nsp.on('connection', (socket) => this.connect(socket));
  }

  /**
   * Issues a slot and its token (returned once: the hub keeps only its digest). `label` names
   * the slot (a league player id, "seat 0"); it must be new.
   */
  issue(label: string, kind: SeatKind): { slot: string; token: string } {
    if ([...this.slots.values()].some((s) => s.label === label)) throw new Error(`a seat slot named "${label}" already exists`);
    const token = newToken();
    const id = `${kind}-${++this.issued}`;
    this.slots.set(id, { id, label, kind, digest: tokenDigest(token), socket: null, disconnectedAt: null, everConnected: false, bindings: [], pending: new Map(), waiters: [], credits: 0 });
    return { slot: id, token };
  }

  /**
   * Forgets a slot: its token opens nothing from now on (a page reloaded later is told the
   * link is not valid) and its seats leave the stream. A connection still open keeps what it
   * was sent but gets no new seats. Open decisions fail first. Unknown ids are ignored.
   */
  release(slotId: string): void {
    const s = this.slots.get(slotId);
    if (!s) return;
    for (const p of [...s.pending.values()]) this.fail(s, p, 'the seat was released');
    for (const b of s.bindings) this.dropBinding(b);
    s.bindings = [];
    this.slots.delete(slotId);
  }

  /** The slot named `label`, if issued. */
  slotByLabel(label: string): SlotInfo | null {
    const s = [...this.slots.values()].find((x) => x.label === label);
    return s ? this.info(s) : null;
  }

  slotsInfo(): SlotInfo[] {
    return [...this.slots.values()].map((s) => this.info(s));
  }

  private info(s: Slot): SlotInfo {
    return { id: s.id, label: s.label, kind: s.kind, connected: s.socket !== null };
  }

  /** Resolves once the slot has a connection. */
  whenConnected(slotId: string): Promise<void> {
    const s = this.mustSlot(slotId);
    if (s.socket) return Promise.resolve();
    return new Promise((resolve) => s.waiters.push(resolve));
  }

  private mustSlot(id: string): Slot {
    const s = this.slots.get(id);
    if (!s) throw new Error(`no seat slot "${id}"`);
    return s;
  }

  /**
   * Waits (up to `timeoutMs`) until every seat connection has flushed what it was sent — a
   * long-polling client fetches its last events with its next request — so closing the server
   * right after a match does not cut the seats off before they see how it ended.
   */
  async drain(timeoutMs = 2000): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const socket of this.o.nsp.sockets.values()) {
      const conn = socket.conn as unknown as { writeBuffer?: unknown[]; once(e: 'drain' | 'close', f: () => void): void };
      if (conn.writeBuffer?.length) waits.push(new Promise<void>((resolve) => (conn.once('drain', resolve), conn.once('close', resolve))));
    }
    if (!waits.length) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(waits), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  stop(): void {
    this.detach();
    for (const s of this.slots.values()) for (const p of [...s.pending.values()]) this.fail(s, p, 'the server is stopping');
  }

  // ---- the agent side ---------------------------------------------------------------

  /** A match began for the slot's seat (the remote agent's `start`). */
  bind(slotId: string, ctx: AgentContext): void {
    const s = this.mustSlot(slotId);
    const env = ctx.env;
    const seats = env.seats(env.init(ctx.params, 0)).length;
    const binding: Binding = {
      matchId: ctx.matchId,
      seat: ctx.seat,
      env,
      role: ctx.role,
      team: ctx.team,
      prompt: { env: env.meta.id, role: ctx.role, team: ctx.team, seat: ctx.seat, seats, params: ctx.params },
      seq: null,
      ended: false,
    };
    const match = this.o.live.get(ctx.matchId);
    if (match) binding.seq = new ViewSequence(ctx.seat, match.teamOf, seatEvents(match, ctx.seat).length);
    // Forget the oldest ended seats; keep the live ones.
    const ended = s.bindings.filter((b) => b.ended);
    if (ended.length >= KEEP_ENDED) s.bindings = s.bindings.filter((b) => !b.ended || ended.slice(-KEEP_ENDED + 1).includes(b));
    s.bindings.push(binding);
    let list = this.byMatch.get(ctx.matchId);
    if (!list) this.byMatch.set(ctx.matchId, (list = []));
    list.push(binding);
    if (s.socket) s.socket.emit('seat', this.seatMessage(binding));
  }

  /**
   * The match is over for the slot's seat (the remote agent's `end`, called just before the
   * match's closing events): the seat still gets those, then the binding leaves the stream.
   */
  unbind(slotId: string, matchId: string, seat: number): void {
    const s = this.slots.get(slotId);
    const b = s?.bindings.find((x) => x.matchId === matchId && x.seat === seat);
    if (!b) return;
    b.ended = true;
    // Without a match on this server's bus no closing event will come: drop it now.
    if (!this.o.live.get(matchId) || this.o.live.get(matchId)!.ended) this.dropBinding(b);
  }

  private dropBinding(b: Binding): void {
    const list = this.byMatch.get(b.matchId)?.filter((x) => x !== b);
    if (list?.length) this.byMatch.set(b.matchId, list);
    else this.byMatch.delete(b.matchId);
  }

  /** Asks the slot's occupant for this decision's action (the remote agent's `act`). */
  ask(slotId: string, obs: unknown, legal: readonly unknown[] | null, ctx: AgentContext): Promise<unknown> {
    const s = this.mustSlot(slotId);
    const binding = s.bindings.find((b) => b.matchId === ctx.matchId && b.seat === ctx.seat && !b.ended);
    if (!binding) return Promise.reject(new Error(`seat ${ctx.seat} of match ${ctx.matchId} is not bound to slot ${s.label}`));
    const env = binding.env;
    const labels = legal ? labelActions(env, obs, legal) : null;
    const speak = env.prompt?.speech;
    const message: DecideMessage = {
      requestId: randomUUID(),
      matchId: ctx.matchId,
      env: env.meta.id,
      seat: ctx.seat,
      role: ctx.role,
      step: ctx.step,
      deadline: Number.isFinite(ctx.deadline) ? ctx.deadline : null,
      observation: obs as JsonValue,
      text: observationText(env, obs, binding.prompt),
      legal: labels && labels.map((l) => withNote(env, obs, l)),
      open: legal ? null : openAnswer(env, obs, binding.prompt),
      speech: !!speak && !!legal && legal.some((a) => speak(a, 'x', obs) !== null),
      bounce: s.kind === 'human',
    };
    return new Promise((resolve, reject) => {
      const signal = ctx.signal;
      const onAbort = () => this.fail(s, pending, signal.reason instanceof Error ? signal.reason.message : 'aborted');
      const pending: Pending = {
        message,
        binding,
        obs,
        labels,
        ctx,
        resolve,
        reject,
        timer: null,
        cleanup: () => signal.removeEventListener('abort', onAbort),
      };
      if (signal.aborted) return reject(new Error('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      s.pending.set(message.requestId, pending);
      if (s.socket) this.sendDecide(s, s.socket, message);
      else this.armReconnect(s, pending);
    });
  }

  private sendDecide(s: Slot, socket: Socket, message: DecideMessage): void {
    s.credits = Math.min(s.credits + 1, s.pending.size + 4);
    socket.emit('decide', message);
  }

  /** A decision waiting on a disconnected seat fails once the reconnect window closes (never-connected seats wait for the deadline). */
  private armReconnect(s: Slot, p: Pending): void {
    if (!s.everConnected || s.disconnectedAt === null) return;
    const left = Math.max(0, s.disconnectedAt + this.reconnectMs - Date.now());
    p.timer = setTimeout(() => this.fail(s, p, `remote seat disconnected (no reconnect within ${this.reconnectMs} ms)`), left);
  }

  private settle(s: Slot, p: Pending): void {
    s.pending.delete(p.message.requestId);
    if (p.timer) clearTimeout(p.timer);
    p.cleanup();
  }

  private fail(s: Slot, p: Pending, reason: string): void {
    if (!s.pending.has(p.message.requestId)) return;
    this.settle(s, p);
    const cancel: CancelMessage = { requestId: p.message.requestId, matchId: p.message.matchId, seat: p.message.seat, reason };
    s.socket?.emit('cancel', cancel);
    p.reject(new Error(reason));
  }

  // ---- the socket side --------------------------------------------------------------

  private connect(socket: Socket): void {
    const s = this.slots.get((socket.data as { slot: string }).slot);
    if (!s) return void socket.disconnect(true);
    if (s.socket && s.socket !== socket) {
      s.socket.emit('error', { ok: false, code: 'bad-request', message: 'replaced by a newer connection for this seat' } satisfies PlayErrorMessage);
      s.socket.disconnect(true);
    }
    s.socket = socket;
    s.everConnected = true;
    s.disconnectedAt = null;
    const bucket = new TokenBucket(this.o.rateLimit);
    socket.on('disconnect', () => {
      if (s.socket !== socket) return;
      s.socket = null;
      s.disconnectedAt = Date.now();
      for (const p of s.pending.values()) this.armReconnect(s, p);
    });
    socket.onAny((name: unknown, ...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args[args.length - 1] as (reply: unknown) => void) : undefined;
      try {
        this.receive(s, socket, bucket, name, args);
      } catch (e) {
        const err: PlayErrorMessage = { ok: false, code: 'bad-request', message: internalError('/play socket', e) };
        if (ack) ack(err);
        else socket.emit('error', err);
      }
    });
    const welcome: WelcomeMessage = { slot: s.id, label: s.label, kind: s.kind, seats: s.bindings.map((b) => this.seatInfo(b)) };
    socket.emit('welcome', welcome);
    for (const b of s.bindings) socket.emit('seat', this.seatMessage(b));
    for (const p of s.pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.timer = null;
      this.sendDecide(s, socket, p.message);
    }
    for (const w of s.waiters.splice(0)) w();
  }

  private receive(s: Slot, socket: Socket, bucket: TokenBucket, name: unknown, args: unknown[]): void {
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (reply: unknown) => void) : undefined;
    const fail = (code: PlayErrorCode, message: string) => {
      const err: PlayErrorMessage = { ok: false, code, message, ...(typeof name === 'string' ? { ref: name.slice(0, 64) } : {}) };
      if (ack) ack(err);
      else socket.emit('error', err);
    };
    // an expected `act` spends one of the seat's credits instead of a token (see sendDecide)
    const free = name === 'act' && s.credits > 0;
    if (free) s.credits--;
    if (!admitMessage(socket, free ? null : bucket, args, MAX_PLAY_MESSAGE_BYTES, ack !== undefined, fail)) return;
    if (name !== 'act') return fail('unknown-message', 'unknown message; the only message a seat sends is "act"');
    if (args.length !== 1) return fail('bad-request', 'act: expected exactly one argument (an object)');
    if (nestedDeeperThan(args[0])) return fail('bad-request', `act: nested deeper than ${MAX_JSON_DEPTH} levels`);
    const parsed = parseAct(args[0]);
    if (!parsed.ok) return fail('bad-request', parsed.message);
    const act = parsed.value;
    const p = s.pending.get(act.requestId);
    if (!p) return fail('stale', `act.requestId: no open decision "${act.requestId}" (answered, cancelled or never asked)`);
    let action: unknown;
    try {
      action = answerToAction(p.binding.env, p.obs, p.labels, p.message.speech, act);
    } catch (e) {
      return fail('invalid-answer', `act: ${(e as Error).message}`);
    }
    if (p.message.bounce && p.ctx.validate) {
      const check = p.ctx.validate(action);
      if (!check.ok) return fail('invalid-answer', `act: ${check.reason}`);
    }
    this.settle(s, p);
    ack?.({ ok: true, requestId: p.message.requestId });
    p.resolve(action);
  }

  // ---- the match stream -------------------------------------------------------------

  onMatchEvent(match: LiveMatch, event: MatchEvent, stepped: boolean): void {
    const list = this.byMatch.get(match.id);
    if (!list) return;
    for (const b of list) {
      if (!b.seq) b.seq = new ViewSequence(b.seat, match.teamOf, 0);
      const socket = this.socketOf(b);
      if (stepped && socket) {
        const point = match.tracker?.latest(b.seat, b.seq.last);
        if (point) socket.emit('obs', { matchId: b.matchId, seat: b.seat, ...point, text: renderFor(b.env, point.obs, b.prompt) });
      }
      if (isEffectTurn(event)) continue;
      const visible = b.seq.next(event);
      if (visible && socket) socket.emit('event', { matchId: b.matchId, seat: b.seat, event: match.captions ? match.captions.attach(visible) : visible });
      if (event.type === 'match.ended') {
        b.ended = true;
        this.dropBinding(b);
      }
    }
  }

  private socketOf(b: Binding): Socket | null {
    for (const s of this.slots.values()) if (s.bindings.includes(b)) return s.socket;
    return null;
  }

  private seatInfo(b: Binding): SeatInfoMessage {
    return { matchId: b.matchId, env: b.env.meta.id, seat: b.seat, role: b.role, team: b.team, ended: b.ended };
  }

  private seatMessage(b: Binding): SeatMessage {
    return seatSnapshot(this.o.live.get(b.matchId), this.seatInfo(b), b.env, b.prompt);
  }
}
