/**
 * `arena env-serve`: any registered env for trainers outside the process, with OpenEnv's
 * interface (meta-pytorch/OpenEnv, src/openenv/core/env_server/http_server.py): `POST /reset`,
 * `POST /step`, `GET /state`, `GET /schema`, `GET /metadata`, `GET /health` and a WebSocket
 * `/ws` (one session per connection; messages `reset`, `step`, `state`, `close`). Responses are
 * OpenEnv's `{observation, reward, done, metadata}`. Over HTTP, sessions are explicit: a reset
 * without `session_id` creates one (its id is in `metadata.session_id`), later calls name it.
 * Each session has its own seeds, its trainer seat and the agents in the other seats. Bad
 * requests get 4xx JSON naming the field; sessions are limited in number and expire when idle.
 * Binds 127.0.0.1 unless told otherwise. See docs/env-server.md.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent } from '../../core/agent';
import type { Env } from '../../core/env';
import type { JsonObject } from '../../core/json';
import { ParamError, type Params } from '../../core/params';
import type { Registry } from '../../core/registry';
import { deriveSeed } from '../../core/rng';
import type { FaultPolicy } from '../../match/fault-policy';
import { SeatAgentError, seatAgents } from '../../match/seat-agents';
import { EnvSession, SessionError, type StepOutput } from './env-session';
import { ResetSchema, StepSchema, WsMessageSchema, fieldError, validationError, type ErrorBody, type ResetBody } from './env-protocol';
import { acceptWebSocket, type WebSocketConnection } from './websocket';

/** How to serve. */
export interface EnvServerOptions {
  env: Env;
  /** Default params of new sessions (resolved). */
  params: Params;
  registry: Registry;
  /** Default agent specs of the other seats: one for all or one per seat. */
  agents: string[];
  /** Default trainer seat, or role (its first seat). */
  seat?: number;
  role?: string;
  port?: number;
  host?: string;
  /** Sessions open at once (default 64). */
  maxSessions?: number;
  /** A session without a request for this long is closed (default 5 minutes). */
  idleMs?: number;
  /** Base seed: episode e of session k uses deriveSeed(seed, 'session', k, 'episode', e) unless the reset gives one. */
  seed?: number;
  deadlineMs?: number;
  faultPolicy?: FaultPolicy;
}

/** A running env server. */
export interface EnvServer {
  url: string;
  port: number;
  /** Open sessions. */
  sessions(): number;
  close(): Promise<void>;
}

const MAX_BODY = 1 << 20;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

interface Entry {
  session: EnvSession;
  index: number;
  episodes: number;
  onExpire?: () => void;
}

/** Starts the env server (see the module comment). */
export async function startEnvServer(o: EnvServerOptions): Promise<EnvServer> {
  const env = o.env;
  const maxSessions = o.maxSessions ?? 64;
  const idleMs = o.idleMs ?? 300_000;
  const baseSeed = o.seed ?? 0;
  const sessions = new Map<string, Entry>();
  let created = 0;

  function send(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(text);
  }

  function readBody(req: IncomingMessage): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) {
          reject(new HttpError(413, fieldError('body', `larger than ${MAX_BODY} bytes`)));
          req.destroy();
        } else chunks.push(c);
      });
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (!text.trim()) return resolve({});
        try {
          resolve(JSON.parse(text));
        } catch (e) {
          reject(new HttpError(400, fieldError('body', `not valid JSON (${(e as Error).message})`)));
        }
      });
      req.on('error', reject);
    });
  }

  /** A new session from a reset's creation fields (or the server's defaults). */
  async function createSession(b: Omit<ResetBody, 'session_id'>): Promise<Entry> {
    if (sessions.size >= maxSessions) throw new HttpError(429, fieldError('session_id', `the server holds its maximum of ${maxSessions} sessions; close one or wait for idle ones to expire`));
    let params: Params;
    try {
      params = b.params ? env.resolveParams(b.params) : o.params;
    } catch (e) {
      throw new HttpError(422, fieldError('params', e instanceof ParamError ? e.message : String(e)));
    }
    const seats = env.seats(env.init(params, 0));
    let seat = b.seat ?? o.seat ?? 0;
    const role = b.role ?? (b.seat === undefined ? o.role : undefined);
    if (role !== undefined) {
      const i = seats.findIndex((s) => s.role === role);
      if (i < 0) throw new HttpError(422, fieldError('role', `"${role}" is not a role of any seat (${seats.map((s) => s.role).join(', ')})`));
      seat = i;
    }
    if (seat >= seats.length) throw new HttpError(422, fieldError('seat', `${env.meta.id} has ${seats.length} seats (0-${seats.length - 1})`));
    const specs = b.agents ?? o.agents;
    if (seats.length > 1 && specs.length !== 1 && specs.length !== seats.length) {
      throw new HttpError(422, fieldError('agents', `give 1 agent (for every other seat) or ${seats.length} (one per seat), not ${specs.length}`));
    }
    let agents: (Agent | null)[];
    try {
      const refs = seats.map((_, i) => (i === seat ? null : specs.length === 1 ? specs[0] : specs[i]));
      agents = await seatAgents({ registry: o.registry, env, params, seats: refs, seedOf: (i) => deriveSeed(baseSeed, 'session', created, 'agent', i) });
    } catch (e) {
      if (!(e instanceof SeatAgentError)) throw e;
      throw new HttpError(422, fieldError(`agents.${specs.length === 1 ? 0 : e.seat}`, e.message));
    }
    const session = new EnvSession({ env, params, seat, agents, deadlineMs: o.deadlineMs, faultPolicy: o.faultPolicy, effects: o.registry.effects() });
    const entry: Entry = { session, index: created++, episodes: 0 };
    sessions.set(session.id, entry);
    return entry;
  }

  function lookup(id: string): Entry {
    const e = sessions.get(id);
    if (!e) throw new HttpError(404, fieldError('session_id', `no session "${id}" (closed, expired, or never created)`));
    e.session.lastActivity = Date.now();
    return e;
  }

  async function reset(entry: Entry, b: { seed?: number; episode_id?: string }): Promise<StepOutput> {
    const seed = b.seed ?? deriveSeed(baseSeed, 'session', entry.index, 'episode', entry.episodes);
    entry.episodes++;
    return sessionCall(() => entry.session.reset(seed, b.episode_id));
  }

  async function sessionCall<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      if (e instanceof SessionError) throw new HttpError(e.status, fieldError(e.field, e.message));
      throw e;
    }
  }

  async function close(id: string): Promise<void> {
    const e = sessions.get(id);
    if (!e) return;
    sessions.delete(id);
    await e.session.stop();
  }

  const metadata = (): JsonObject => ({
    name: env.meta.id,
    description: env.meta.description ?? '',
    version: env.meta.id.replace(/^.*-v/, ''),
    roles: env.meta.roles.map((r) => ({ name: r.name, count: r.count })),
    capabilities: { ...env.capabilities, effects: [...env.capabilities.effects] },
    default_agents: o.agents,
    max_sessions: maxSessions,
    idle_timeout_s: idleMs / 1000,
  });

  const schema = (): JsonObject => ({
    action: {
      description: 'One of: {"value": <env action>}, {"label": "<legal action name>"}, {"answer": <open answer, parsed by the env template>}',
      oneOf: [
        { type: 'object', properties: { value: {} }, required: ['value'], additionalProperties: false },
        { type: 'object', properties: { label: { type: 'string' } }, required: ['label'], additionalProperties: false },
        { type: 'object', properties: { answer: {} }, required: ['answer'], additionalProperties: false },
      ],
    },
    observation: {
      type: 'object',
      properties: {
        seat: { type: 'integer' },
        role: { type: 'string' },
        step: { type: 'integer' },
        obs: { description: `${env.meta.id}'s observation of the seat (env.observe)` },
        text: { type: 'string' },
        legal: { type: ['array', 'null'], items: { type: 'object', properties: { action: {}, label: { type: 'string' } } } },
        answer_format: { type: ['object', 'null'], properties: { format: { type: 'string' }, schema: { type: 'object' } } },
      },
    },
    state: { type: 'object', properties: { episode_id: { type: ['string', 'null'] }, step_count: { type: 'integer' }, session_id: { type: 'string' } } },
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/health') return send(res, 200, { status: 'healthy', sessions: sessions.size, max_sessions: maxSessions });
    if (method === 'GET' && path === '/metadata') return send(res, 200, metadata());
    if (method === 'GET' && path === '/schema') return send(res, 200, schema());
    if (method === 'POST' && path === '/reset') {
      const parsed = ResetSchema.safeParse(await readBody(req));
      if (!parsed.success) throw new HttpError(422, validationError('body', parsed.error));
      const { session_id, seed, episode_id, ...creation } = parsed.data;
      let entry: Entry;
      if (session_id) {
        const extra = Object.keys(creation).filter((k) => (creation as Record<string, unknown>)[k] !== undefined);
        if (extra.length) throw new HttpError(422, fieldError(extra[0], 'can only be given when a session is created (a reset without session_id)'));
        entry = lookup(session_id);
      } else entry = await createSession(creation);
      return send(res, 200, await reset(entry, { seed, episode_id }));
    }
    if (method === 'POST' && path === '/step') {
      const parsed = StepSchema.safeParse(await readBody(req));
      if (!parsed.success) throw new HttpError(422, validationError('body', parsed.error));
      const entry = lookup(parsed.data.session_id);
      return send(res, 200, await sessionCall(() => entry.session.step(parsed.data.action)));
    }
    if (method === 'GET' && path === '/state') {
      const id = url.searchParams.get('session_id');
      if (!id) throw new HttpError(422, fieldError('session_id', 'required (query parameter)'));
      return send(res, 200, lookup(id).session.state());
    }
    const del = /^\/sessions\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && del) {
      lookup(decodeURIComponent(del[1]));
      await close(decodeURIComponent(del[1]));
      return send(res, 200, { closed: true });
    }
    if (method === 'GET' && path === '/sessions') {
      return send(res, 200, { sessions: [...sessions.values()].map((e) => ({ ...e.session.state(), idle_s: Math.round((Date.now() - e.session.lastActivity) / 1000) })) });
    }
    const known = ['/health', '/metadata', '/schema', '/reset', '/step', '/state', '/sessions'];
    if (known.includes(path)) throw new HttpError(405, fieldError('method', `${method} is not allowed on ${path}`));
    throw new HttpError(404, fieldError('path', `no route ${path} (routes: ${known.join(', ')}, DELETE /sessions/<id>, WebSocket /ws)`));
  }

  const http: Server = createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof HttpError) send(res, e.status, e.body);
      else send(res, 500, { detail: `server error: ${e instanceof Error ? e.message : String(e)}`, message: 'server error' });
    });
  });
  http.keepAliveTimeout = 30_000;

  // WebSocket /ws: one session per connection (OpenEnv's persistent sessions).
  const sockets = new Set<WebSocketConnection>();
  http.on('upgrade', (req, socket) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"detail":"path: WebSocket only at /ws"}');
      return;
    }
    const ws = acceptWebSocket(req, socket, MAX_BODY);
    if (!ws) return;
    sockets.add(ws);
    let entry: Entry | null = null;
    let queue = Promise.resolve();
    const error = (message: string, code: string, extra: JsonObject = {}) => ws.send(JSON.stringify({ type: 'error', data: { message, code, ...extra } }));
    ws.onClose = () => {
      sockets.delete(ws);
      if (entry) void close(entry.session.id);
    };
    ws.onMessage = (text) => {
      // one message at a time, in order
      queue = queue.then(async () => {
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch (e) {
          return error(`Invalid JSON: ${(e as Error).message}`, 'INVALID_JSON');
        }
        const parsed = WsMessageSchema.safeParse(raw);
        if (!parsed.success) {
          const known = ['reset', 'step', 'state', 'close'].includes((raw as { type?: unknown })?.type as string);
          const v = validationError('message', parsed.error);
          return known ? error(v.message, 'VALIDATION_ERROR', { errors: v.detail as unknown as JsonObject[] }) : error(`Unknown message type: ${String((raw as { type?: unknown })?.type)}`, 'UNKNOWN_TYPE');
        }
        const m = parsed.data;
        try {
          if (m.type === 'close') return ws.close(1000, 'closed');
          if (m.type === 'reset') {
            const { seed, episode_id, ...creation } = m.data;
            if (!entry) {
              entry = await createSession(creation);
              entry.onExpire = () => ws.close(1000, 'session expired (idle)');
            } else {
              const extra = Object.keys(creation).filter((k) => (creation as Record<string, unknown>)[k] !== undefined);
              if (extra.length) return error(`${extra[0]}: can only be given in the connection's first reset`, 'VALIDATION_ERROR');
            }
            entry.session.lastActivity = Date.now();
            return ws.send(JSON.stringify({ type: 'observation', data: await reset(entry, { seed, episode_id }) }));
          }
          if (!entry) return error('no session yet: send a reset first', 'SESSION_ERROR');
          entry.session.lastActivity = Date.now();
          if (m.type === 'state') return ws.send(JSON.stringify({ type: 'state', data: entry.session.state() }));
          const session = entry.session;
          return ws.send(JSON.stringify({ type: 'observation', data: await sessionCall(() => session.step(m.data)) }));
        } catch (e) {
          if (e instanceof HttpError) return error(e.body.message, e.status === 429 ? 'CAPACITY_REACHED' : e.status === 422 ? 'VALIDATION_ERROR' : 'EXECUTION_ERROR');
          return error(e instanceof Error ? e.message : String(e), 'EXECUTION_ERROR');
        }
      });
    };
  });

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, e] of sessions) {
        if (now - e.session.lastActivity > idleMs) {
          void close(id);
          e.onExpire?.();
        }
      }
    },
    Math.max(50, Math.min(idleMs / 4, 30_000)),
  );
  sweep.unref();

  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port ?? 8000, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    port,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      for (const ws of [...sockets]) ws.close(1001, 'server stopping');
      await Promise.all([...sessions.keys()].map((id) => close(id)));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
