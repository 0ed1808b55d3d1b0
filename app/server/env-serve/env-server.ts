/**
 * `arena env-serve`: any registered env for trainers outside the process, with OpenEnv's
 * interface (meta-pytorch/OpenEnv, src/openenv/core/env_server/http_server.py): `POST /reset`,
 * `POST /step`, `GET /state`, `GET /schema`, `GET /metadata`, `GET /health`, `GET /openapi.json`,
 * `POST /mcp` (an honest JSON-RPC refusal: no MCP tools) and a WebSocket `/ws` (env-ws.ts).
 * Responses are OpenEnv's `{observation, reward, done}` plus `metadata`.
 *
 * HTTP sessions: a reset without `session_id` creates one (its id in `metadata.session_id`) and
 * sets the `arena_session` cookie, so a client that keeps cookies (upstream's HTTP client, a
 * `requests.Session`) steps, reads the state and resets again without naming it — its resets
 * reuse the session instead of piling up new ones. Each session has its own seeds, its trainer
 * seat and the agents in the other seats, which a client may choose only among those the
 * operator admitted (admission.ts). Bad requests get 4xx JSON naming the field (422: FastAPI's
 * `detail` list); sessions are limited in number and HTTP ones expire when idle. Binds
 * 127.0.0.1 unless told otherwise. See docs/env-server.md and docs/trust.md.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Env } from '../../../src/core/env';
import type { JsonObject } from '../../../src/core/json';
import type { Params } from '../../../src/core/params';
import type { Registry } from '../../../src/core/registry';
import type { FaultPolicy } from '../../../src/match/fault-policy';
import { HttpError, internalError, readBody, readJson, sendJson } from '../http-kit';
import { admissionOf } from './admission';
import { CREATION_FIELDS, errorBody, parseReset, parseStep } from './env-protocol';
import type { StepOutput } from './env-session';
import { attachWebSockets } from './env-ws';
import { mcpAnswer } from './mcp';
import { OPENENV_API_VERSION, envSchemas, openApiDocument } from './openapi';
import { SessionTable, type Entry } from './session-table';

/** How to serve. */
export interface EnvServerOptions {
  env: Env;
  /** Default params of new sessions (resolved). */
  params: Params;
  registry: Registry;
  /** Default agent references of the other seats: one for all or one per seat (the operator's `--agents`). */
  agents: string[];
  /** More agent references clients may choose (`--client-agents`); clients may always name the defaults. */
  clientAgents?: string[];
  /** Default trainer seat, or role (its first seat). */
  seat?: number;
  role?: string;
  port?: number;
  host?: string;
  /** Sessions open at once (default 64). */
  maxSessions?: number;
  /** An HTTP session without a request for this long is closed (default 5 minutes). */
  idleMs?: number;
  /** A WebSocket session without a message for this long is closed (default 0: never; it ends with its connection). */
  wsIdleMs?: number;
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
  /** Closes every connection and session; resolves to the number of sessions closed. */
  close(): Promise<number>;
}

/** Largest request body (and WebSocket message). */
export const MAX_BODY = 1 << 20;

/** The cookie that names a client's HTTP session. */
export const SESSION_COOKIE = 'arena_session';

/** Starts the env server (see the module comment). */
export async function startEnvServer(o: EnvServerOptions): Promise<EnvServer> {
  const env = o.env;
  const maxSessions = o.maxSessions ?? 64;
  const idleMs = o.idleMs ?? 300_000;
  const wsIdleMs = o.wsIdleMs ?? 0;
  const admission = admissionOf(o.agents, o.clientAgents);
  const table = new SessionTable({
    env,
    params: o.params,
    registry: o.registry,
    agents: o.agents,
    admission,
    seat: o.seat,
    role: o.role,
    maxSessions,
    idleMs,
    wsIdleMs,
    seed: o.seed ?? 0,
    deadlineMs: o.deadlineMs,
    faultPolicy: o.faultPolicy,
  });

  const metadata = (): JsonObject => ({
    name: env.meta.id,
    description: env.meta.description ?? '',
    version: env.meta.id.replace(/^.*-v/, ''),
    openenv_api_version: OPENENV_API_VERSION,
    roles: env.meta.roles.map((r) => ({ name: r.name, count: r.count })),
    capabilities: { ...env.capabilities, effects: [...env.capabilities.effects] },
    default_agents: o.agents,
    client_agents: admission.allowed as string[],
    max_sessions: maxSessions,
    idle_timeout_s: idleMs / 1000,
    ws_idle_timeout_s: wsIdleMs > 0 ? wsIdleMs / 1000 : null,
  });

  /** The HTTP session a request names: `session_id` (body or query), else its cookie. */
  function named(id: string | undefined, req: IncomingMessage): Entry {
    if (id !== undefined) return table.lookup(id, 'http');
    const fromCookie = table.find(cookieOf(req), 'http');
    if (fromCookie) {
      fromCookie.session.lastActivity = Date.now();
      return fromCookie;
    }
    throw new HttpError(422, 'session_id', `required: the session_id that reset returned (metadata.session_id), or the ${SESSION_COOKIE} cookie it set`);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'healthy', sessions: table.size, max_sessions: maxSessions });
    if (method === 'GET' && path === '/metadata') return sendJson(res, 200, metadata());
    if (method === 'GET' && path === '/schema') return sendJson(res, 200, envSchemas(env));
    if (method === 'GET' && path === '/openapi.json') return sendJson(res, 200, openApiDocument(env, MAX_BODY));
    if (method === 'POST' && path === '/mcp') {
      const text = await readBody(req, MAX_BODY);
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        return sendJson(res, 200, mcpAnswer(undefined, false));
      }
      return sendJson(res, 200, mcpAnswer(raw));
    }
    if (method === 'POST' && path === '/reset') {
      const { body, ignored } = parseReset(await readJson(req, MAX_BODY));
      const given = CREATION_FIELDS.filter((k) => body[k] !== undefined);
      let entry: Entry;
      if (body.session_id) {
        if (given.length) throw new HttpError(422, given[0], 'can only be given when a session is created (a reset without session_id)');
        entry = table.lookup(body.session_id, 'http');
      } else {
        const cookie = table.find(cookieOf(req), 'http');
        if (cookie && !given.length) entry = cookie;
        else {
          // new settings replace the cookie's session (the client can no longer reach it by cookie)
          if (cookie) await table.close(cookie.session.id);
          entry = await table.create(body, 'http');
        }
      }
      const out = withIgnored(await table.reset(entry, body), ignored);
      return sendJson(res, 200, out, { 'set-cookie': `${SESSION_COOKIE}=${entry.session.id}; Path=/; HttpOnly; SameSite=Strict` });
    }
    if (method === 'POST' && path === '/step') {
      const { body, ignored } = parseStep(await readJson(req, MAX_BODY));
      const entry = named(body.session_id, req);
      return sendJson(res, 200, withIgnored(await table.step(entry, body.action), ignored));
    }
    if (method === 'GET' && path === '/state') {
      return sendJson(res, 200, named(url.searchParams.get('session_id') ?? undefined, req).session.state());
    }
    const del = /^\/sessions\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && del) {
      const id = decode(del[1]);
      table.lookup(id, 'http');
      await table.close(id);
      return sendJson(res, 200, { closed: true });
    }
    if (method === 'GET' && path === '/sessions') {
      // without their ids: an id is what lets a client play a session, and another client's is not this one's to know
      return sendJson(res, 200, {
        sessions: table.entries().map((e) => {
          const { session_id, ...state } = e.session.state();
          return { ...state, id_prefix: String(session_id).slice(0, 8), transport: e.kind, idle_s: Math.round((Date.now() - e.session.lastActivity) / 1000) };
        }),
      });
    }
    const known = ['/health', '/metadata', '/schema', '/openapi.json', '/mcp', '/reset', '/step', '/state', '/sessions'];
    if (known.includes(path)) throw new HttpError(405, 'method', `${method} is not allowed on ${path}`);
    throw new HttpError(404, 'path', `no route ${path.slice(0, 100)} (routes: ${known.join(', ')}, DELETE /sessions/<id>, WebSocket /ws)`);
  }

  const http: Server = createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof HttpError) sendJson(res, e.status, errorBody(e));
      else {
        const message = internalError('env-serve', e);
        sendJson(res, 500, { detail: message, message });
      }
    });
  });
  http.keepAliveTimeout = 30_000;
  const sockets = attachWebSockets(http, table, { maxMessageBytes: MAX_BODY, maxSessions, withIgnored });

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
    sessions: () => table.size,
    close: async () => {
      sockets.close();
      const n = await table.closeAll();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return n;
    },
  };
}

/** `metadata.ignored_fields` when a request had fields the server does not use. */
function withIgnored(out: StepOutput, ignored: string[]): StepOutput {
  return ignored.length ? { ...out, metadata: { ...out.metadata, ignored_fields: ignored } } : out;
}

/** The session id of the request's `arena_session` cookie. */
function cookieOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, 'session_id', 'not valid URL encoding');
  }
}
