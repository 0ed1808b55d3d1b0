/**
 * The JS client SDK for remote seats: connect a bot to an arena's `/play` namespace with a seat
 * token and answer its decisions (protocol: docs/protocol.md).
 *
 * ```js
 * const { connectSeat } = require('selfplay-arena/client');
 * const seat = connectSeat({
 *   url: 'http://127.0.0.1:8080', token: process.env.SEAT_TOKEN,
 *   decide: (d) => d.legal ? { label: d.legal[0].label } : { answer: '100 + 6' },
 * });
 * await seat.ready;            // welcome received
 * ```
 *
 * The SDK reconnects by itself (socket.io's back-off); a reconnect within the decision's
 * deadline gets the pending decision again. Needs the `socket.io-client` package.
 */
import { io, type Socket } from 'socket.io-client';
import type { CancelMessage, DecideMessage, PlayErrorMessage, PlayEventMessage, PlayObsMessage, SeatMessage, WelcomeMessage } from '../server/play/play-protocol';
import { PLAY_NAMESPACE } from '../server/play/play-protocol';
import type { JsonValue } from '../../src/core/json';

/** An answer: the action itself, a legal action by name (with optional speech), or an open answer. */
export type SeatAnswer = { action: JsonValue } | { label: string; say?: string } | { answer: JsonValue };

/** The acknowledgement of an answer. */
export type ActReply = { ok: true; requestId: string } | PlayErrorMessage;

export interface SeatClientOptions {
  /** The arena server's base URL (http://host:port). */
  url: string;
  /** The seat token (from `arena play` / `arena league run --tokens`). */
  token: string;
  /** Chooses the answer of a decision. Throwing (or rejecting) sends nothing: the deadline then decides. */
  decide: (d: DecideMessage) => SeatAnswer | Promise<SeatAnswer>;
  /** Called with each answer's acknowledgement (ok, or why it was refused). */
  onReply?: (reply: ActReply, d: DecideMessage) => void;
  onWelcome?: (m: WelcomeMessage) => void;
  onSeat?: (m: SeatMessage) => void;
  onEvent?: (m: PlayEventMessage) => void;
  onObs?: (m: PlayObsMessage) => void;
  onCancel?: (m: CancelMessage) => void;
  /** Reconnect automatically (default true). */
  reconnection?: boolean;
  /** Transports (default websocket, then polling). */
  transports?: ('websocket' | 'polling')[];
}

/** A connected seat. */
export interface SeatClient {
  socket: Socket;
  /** Resolves with the first welcome; rejects when the token is refused. */
  ready: Promise<WelcomeMessage>;
  close(): void;
}

/** Connects a seat and answers its decisions with `decide`. */
export function connectSeat(o: SeatClientOptions): SeatClient {
  const base = o.url.replace(/\/+$/, '');
  const socket = io(base + PLAY_NAMESPACE, {
    auth: { token: o.token },
    transports: o.transports ?? ['websocket', 'polling'],
    reconnection: o.reconnection ?? true,
    forceNew: true,
  });
  const ready = new Promise<WelcomeMessage>((resolve, reject) => {
    socket.once('welcome', resolve);
    socket.on('connect_error', (e: Error) => {
      if (/unauthorized/.test(e.message)) {
        socket.close();
        reject(new Error(`seat refused: ${e.message}`));
      }
    });
  });
  ready.catch(() => {});
  socket.on('welcome', (m: WelcomeMessage) => o.onWelcome?.(m));
  socket.on('seat', (m: SeatMessage) => o.onSeat?.(m));
  socket.on('event', (m: PlayEventMessage) => o.onEvent?.(m));
  socket.on('obs', (m: PlayObsMessage) => o.onObs?.(m));
  socket.on('cancel', (m: CancelMessage) => o.onCancel?.(m));
  socket.on('decide', (d: DecideMessage) => {
    void (async () => {
      let answer: SeatAnswer;
      try {
        answer = await o.decide(d);
      } catch {
        return;
      }
      if (!socket.connected) return;
      const reply = (await socket.emitWithAck('act', { requestId: d.requestId, ...answer }).catch((e: Error) => ({ ok: false, code: 'bad-request', message: e.message }))) as ActReply;
      o.onReply?.(reply, d);
    })();
  });
  return { socket, ready, close: () => socket.close() };
}

export type { CancelMessage, DecideMessage, PlayEventMessage, PlayObsMessage, SeatMessage, WelcomeMessage } from '../server/play/play-protocol';
