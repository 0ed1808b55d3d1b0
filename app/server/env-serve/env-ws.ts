/**
 * The env server's WebSocket `/ws` (OpenEnv's persistent sessions, upstream's
 * `websocket_endpoint`), on the maintained `ws` library: one session per connection, opened
 * when the connection opens (with the server's defaults; a connection refused for capacity gets
 * a `CAPACITY_REACHED` error and is closed). The connection's first reset may still choose
 * `seat`/`role`, `agents` (admitted ones only) and `params`: the fresh session is replaced
 * before any episode. Messages are handled one at a time, in order. A session ends with its
 * connection; it has no idle limit unless the operator sets one (`--ws-idle-timeout`), since a
 * trainer may spend long between steps optimising. TCP keep-alive finds peers that vanished.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { JsonObject } from '../../../src/core/json';
import { HttpError, internalError, MAX_JSON_DEPTH, nestedDeeperThan, publicMessage } from '../http-kit';
import { CREATION_FIELDS, ValidationFailure, errorBody, parseAction, parseEnvelope, parseReset } from './env-protocol';
import type { StepOutput } from './env-session';
import { mcpAnswer } from './mcp';
import type { Entry, SessionTable } from './session-table';

/** OpenEnv's WebSocket error codes. */
type WsErrorCode = 'INVALID_JSON' | 'UNKNOWN_TYPE' | 'VALIDATION_ERROR' | 'EXECUTION_ERROR' | 'CAPACITY_REACHED' | 'SESSION_ERROR';

interface WsOptions {
  maxMessageBytes: number;
  maxSessions: number;
  /** Adds `metadata.ignored_fields` to an answer. */
  withIgnored: (out: StepOutput, ignored: string[]) => StepOutput;
}

/** The WebSocket side of a server: attach it to the HTTP server's upgrades; `close` ends every connection. */
export interface EnvWebSockets {
  close(): void;
}

/** Serves `/ws` on `http` (other upgrade paths get 404). */
export function attachWebSockets(http: Server, table: SessionTable, o: WsOptions): EnvWebSockets {
  const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxMessageBytes });
  const sockets = new Set<WebSocket>();

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"detail":"path: WebSocket only at /ws","message":"path: WebSocket only at /ws"}');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const raw = (ws as unknown as { _socket?: { setKeepAlive?(on: boolean, ms: number): void } })._socket;
      raw?.setKeepAlive?.(true, 60_000);
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      serve(ws, table, o);
    });
  });

  return {
    close() {
      for (const ws of sockets) ws.close(1001, 'server stopping');
      wss.close();
    },
  };
}

function serve(ws: WebSocket, table: SessionTable, o: WsOptions): void {
  let entry: Entry | null = null;
  let fresh = true; // no reset yet: the first may replace the session with its own settings
  let closed = false;
  const send = (m: JsonObject) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const error = (code: WsErrorCode, message: string, extra: JsonObject = {}) => send({ type: 'error', data: { message, code, ...extra } });
  const attach = (e: Entry) => {
    entry = e;
    e.onExpire = () => ws.close(1000, 'session expired (idle)');
  };

  // The session opens with the connection.
  let queue: Promise<void> = table.create({}, 'ws').then(attach, (e: unknown) => {
    if (e instanceof HttpError && e.status === 429) error('CAPACITY_REACHED', e.message, { active_sessions: table.size, max_sessions: o.maxSessions });
    else error('SESSION_ERROR', e instanceof HttpError ? e.message : publicMessage(e));
    ws.close(1013, 'no session');
  });

  // protocol faults (a frame over the size limit, a bad opcode): ws closes the connection itself
  // (1009, 1002...); without a listener the 'error' event would end the server
  ws.on('error', () => undefined);
  ws.on('close', () => {
    closed = true;
    void queue.then(() => entry && table.close(entry.session.id));
  });

  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) return ws.close(1003, 'text messages only');
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    queue = queue.then(() => (closed ? undefined : handle(text)));
  });

  async function handle(text: string): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return error('INVALID_JSON', `Invalid JSON: ${(e as Error).message}`);
    }
    if (nestedDeeperThan(raw)) return error('VALIDATION_ERROR', `message: nested deeper than ${MAX_JSON_DEPTH} levels`);
    try {
      const m = parseEnvelope(raw);
      if ('unknown' in m) return error('UNKNOWN_TYPE', `Unknown message type: ${m.unknown}`);
      if (m.type === 'mcp') return send({ type: 'mcp', data: mcpAnswer(m.data) });
      if ((m.type === 'state' || m.type === 'close') && m.data !== undefined) {
        throw new ValidationFailure([{ loc: ['message', 'data'], msg: `a "${m.type}" message has no data`, type: 'extra_forbidden' }]);
      }
      if (m.type === 'close') return ws.close(1000, 'closed');
      if (!entry) return error('SESSION_ERROR', 'this connection has no session');
      if (m.type === 'reset') {
        const { body, ignored } = parseReset(m.data, 'data');
        const given = CREATION_FIELDS.filter((k) => body[k] !== undefined);
        if (given.length && !fresh) throw new HttpError(422, given[0], "can only be given in the connection's first reset");
        if (given.length) await replace({ seat: body.seat, role: body.role, agents: body.agents, params: body.params });
        fresh = false;
        const current: Entry = entry;
        return send({ type: 'observation', data: o.withIgnored(await table.reset(current, { seed: body.seed, episode_id: body.episode_id }), ignored) as unknown as JsonObject });
      }
      const current: Entry = entry;
      current.session.lastActivity = Date.now();
      if (m.type === 'state') return send({ type: 'state', data: current.session.state() });
      const action = parseAction(m.data);
      return send({ type: 'observation', data: (await table.step(current, action)) as unknown as JsonObject });
    } catch (e) {
      if (e instanceof HttpError) {
        const body = errorBody(e);
        const code: WsErrorCode = e.status === 429 ? 'CAPACITY_REACHED' : e.status === 422 || e.status === 400 ? 'VALIDATION_ERROR' : e.status === 404 || e.status === 409 ? 'SESSION_ERROR' : 'EXECUTION_ERROR';
        return error(code, body.message, Array.isArray(body.detail) ? { errors: body.detail as unknown as JsonObject[] } : {});
      }
      return error('EXECUTION_ERROR', internalError('env-serve /ws', e));
    }
  }

  /** Replaces the fresh session with one of the reset's settings (the old one is closed first, so the limit holds; on a refusal the connection gets a default session again). */
  async function replace(creation: Parameters<SessionTable['create']>[0]): Promise<void> {
    const old = entry!;
    entry = null;
    await table.close(old.session.id);
    try {
      attach(await table.create(creation, 'ws'));
    } catch (e) {
      attach(await table.create({}, 'ws'));
      throw e;
    }
  }
}
