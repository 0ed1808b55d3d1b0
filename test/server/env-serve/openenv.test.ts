/**
 * OpenEnv compatibility (issue 28 item 7), checked with clients written here from upstream's
 * source (meta-pytorch/OpenEnv at 685de411): the six checks of `openenv validate --url`
 * (src/openenv/cli/_validation.py), the WebSocket client `EnvClient`/`GenericEnvClient`
 * (env_client.py, generic_client.py: `{"type": "reset"|"step"|"state"|"close", "data"}`, a
 * session per connection, typed actions carrying `"metadata": {}`), and the older
 * `HTTPEnvClient` (http_env_client.py before 402d144e: a `requests.Session` — keep-alive and a
 * cookie jar — posting `/reset` with the reset kwargs, `/step` with `{action, **kwargs}` and
 * `GET /state`, never a session id).
 */
import WebSocket from 'ws';
import { createRegistry } from '../../../app/catalog';
import { startEnvServer, type EnvServer, type EnvServerOptions } from '../../../app/server/env-serve/env-server';

const registry = createRegistry();
const dond = registry.env('deal-or-no-deal-v1');
type Json = Record<string, any>;

async function serve(o: Partial<EnvServerOptions> = {}): Promise<EnvServer> {
  return startEnvServer({ env: dond, params: dond.resolveParams({}), registry, agents: ['fair-split'], port: 0, ...o });
}

/** `openenv validate --url`'s runtime criteria, as _validation.py computes them. */
async function validateRunning(base: string): Promise<{ passed: boolean; mode: string; criteria: Record<string, boolean> }> {
  const criteria: Record<string, boolean> = {};
  const getJson = async (path: string, init?: RequestInit) => {
    const r = await fetch(base + path, init);
    let body: unknown = null;
    try {
      body = await r.json();
    } catch {
      body = null;
    }
    return { status: r.status, body: body as Json | null };
  };
  const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  const openapi = await getJson('/openapi.json');
  criteria.openapi_version_available = openapi.status === 200 && isObj(openapi.body) && isObj(openapi.body.info) && typeof openapi.body.info.version === 'string';
  const paths: Json = criteria.openapi_version_available && isObj(openapi.body!.paths) ? openapi.body!.paths : {};
  const health = await getJson('/health');
  criteria.health_endpoint = health.status === 200 && isObj(health.body) && health.body.status === 'healthy';
  const meta = await getJson('/metadata');
  criteria.metadata_endpoint = meta.status === 200 && isObj(meta.body) && typeof meta.body.name === 'string' && typeof meta.body.description === 'string';
  const schema = await getJson('/schema');
  criteria.schema_endpoint = schema.status === 200 && isObj(schema.body) && isObj(schema.body.action) && isObj(schema.body.observation) && isObj(schema.body.state);
  const mcp = await getJson('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  criteria.mcp_endpoint = mcp.status === 200 && isObj(mcp.body) && mcp.body.jsonrpc === '2.0';
  let mode = 'unknown';
  if (Object.keys(paths).length) {
    const [r, s, st] = ['/reset', '/step', '/state'].map((p) => p in paths);
    mode = r ? 'simulation' : 'production';
    criteria.mode_endpoint_consistency = r ? s && st : !s && !st;
  } else criteria.mode_endpoint_consistency = false;
  return { passed: Object.values(criteria).every(Boolean), mode, criteria };
}

describe('openenv validate --url', () => {
  let server: EnvServer;
  beforeAll(async () => (server = await serve()));
  afterAll(() => server.close());

  test('passes all six runtime checks in simulation mode', async () => {
    const report = await validateRunning(server.url);
    expect(report.criteria).toEqual({
      openapi_version_available: true,
      health_endpoint: true,
      metadata_endpoint: true,
      schema_endpoint: true,
      mcp_endpoint: true,
      mode_endpoint_consistency: true,
    });
    expect(report).toMatchObject({ passed: true, mode: 'simulation' });
  });

  test('/openapi.json is an OpenAPI 3.1 document: every operation answers, every reference resolves', async () => {
    const doc = (await (await fetch(server.url + '/openapi.json')).json()) as Json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.stringContaining('deal-or-no-deal-v1'), version: '1.0.0' });
    const methods = ['get', 'post', 'delete'];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      expect(path.startsWith('/')).toBe(true);
      const ops = Object.keys(item as Json);
      expect(ops.length).toBeGreaterThan(0);
      for (const m of ops) {
        expect(methods).toContain(m);
        expect(Object.keys((item as Json)[m].responses).length).toBeGreaterThan(0);
      }
    }
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(5);
    for (const r of refs) {
      const name = /#\/components\/schemas\/(\w+)/.exec(r)![1];
      expect(doc.components.schemas[name]).toBeDefined();
    }
    // every route the server answers is in the document
    for (const p of ['/reset', '/step', '/state', '/health', '/metadata', '/schema', '/mcp', '/sessions', '/openapi.json']) expect(doc.paths[p]).toBeDefined();
  });

  test('/mcp answers JSON-RPC honestly: no tools, method not found, parse and request errors', async () => {
    const rpc = async (body: string) => {
      const r = await fetch(server.url + '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(r.status).toBe(200);
      return (await r.json()) as Json;
    };
    expect(await rpc('{"jsonrpc":"2.0","method":"tools/list","id":1}')).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(await rpc('{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"},"id":"a"}')).toMatchObject({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: expect.stringMatching(/no MCP tools/) } });
    expect(await rpc('{oops')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await rpc('{}')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await rpc('[1]')).toMatchObject({ error: { code: -32600 } });
    expect(await rpc('{"jsonrpc":"1.0","method":"tools/list","id":2}')).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(await rpc('{"jsonrpc":"2.0","method":7,"id":3}')).toMatchObject({ id: 3, error: { code: -32600 } });
    expect(await rpc('{"jsonrpc":"2.0","method":"tools/list","params":[1],"id":4}')).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(await rpc('{"jsonrpc":"2.0","method":"tools/list","id":{"x":1}}')).toMatchObject({ id: null, result: { tools: [] } });
    expect(await rpc('{"jsonrpc":"2.0","method":"tools/list","extra":1}')).toMatchObject({ error: { code: -32600, message: expect.stringContaining('"extra"') } });
  });
});

/** A WebSocket client as upstream's EnvClient speaks: one JSON message out, one in. */
class WsEnvClient {
  private inbox: Json[] = [];
  private waiting: ((m: Json) => void)[] = [];
  readonly closed: Promise<number>;
  /** Listens before the connection opens: the server may speak first (a capacity refusal). */
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as Json;
      const w = this.waiting.shift();
      if (w) w(m);
      else this.inbox.push(m);
    });
    this.closed = new Promise((r) => ws.on('close', (code) => r(code)));
  }
  static async connect(base: string): Promise<WsEnvClient> {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + '/ws');
    const client = new WsEnvClient(ws);
    await new Promise((r, f) => (ws.once('open', r), ws.once('error', f)));
    return client;
  }
  next(): Promise<Json> {
    return this.inbox.length ? Promise.resolve(this.inbox.shift()!) : new Promise((r) => this.waiting.push(r));
  }
  async send(message: Json): Promise<Json> {
    this.ws.send(JSON.stringify(message));
    return this.next();
  }
  /** `_send_and_receive` + `_parse_result`: errors raise. */
  async result(message: Json): Promise<{ observation: Json; reward: number | null; done: boolean; metadata: Json }> {
    const r = await this.send(message);
    if (r.type === 'error') throw new Error(`Server error: ${r.data.message} (code: ${r.data.code})`);
    return { observation: r.data.observation ?? {}, reward: r.data.reward ?? null, done: r.data.done ?? false, metadata: r.data.metadata };
  }
  reset(kwargs: Json = {}) {
    return this.result({ type: 'reset', data: kwargs });
  }
  step(action: Json) {
    return this.result({ type: 'step', data: action });
  }
  async disconnect(): Promise<number> {
    this.ws.send(JSON.stringify({ type: 'close' }));
    this.ws.close();
    return this.closed;
  }
}

/** A typed OpenEnv action as `Action.model_dump()` sends it: its fields plus `metadata`. */
const typed = (fields: Json): Json => ({ ...fields, metadata: {} });

function choose(obs: Json): Json {
  const legal = obs.legal as { label: string }[];
  return typed({ label: legal.some((l) => l.label === 'agree') ? 'agree' : legal[legal.length - 1].label });
}

describe('the WebSocket client (EnvClient / GenericEnvClient)', () => {
  test('the session opens at connect; typed actions with metadata play a whole episode; close ends it', async () => {
    const server = await serve({ seed: 4 });
    try {
      const c = await WsEnvClient.connect(server.url);
      // before any reset the connection already has its session
      const st = await c.send({ type: 'state' });
      expect(st).toMatchObject({ type: 'state', data: { episode_id: null, step_count: 0, session_id: expect.any(String) } });
      expect(server.sessions()).toBe(1);
      let r = await c.reset({ seed: 3 });
      expect(r).toMatchObject({ reward: null, done: false, observation: { seat: 0 } });
      let steps = 0;
      while (!r.done) {
        r = await c.step(choose(r.observation));
        steps++;
        if (!r.done) expect(r.reward).toBeNull();
      }
      expect(typeof r.reward).toBe('number');
      expect(r.metadata).toMatchObject({ step_count: steps, code: 'ok' });
      const again = await c.reset({ seed: 3 });
      expect(again.observation.text).toBeDefined();
      expect(await c.send({ type: 'mcp', data: { jsonrpc: '2.0', method: 'tools/list', id: 9 } })).toEqual({ type: 'mcp', data: { jsonrpc: '2.0', id: 9, result: { tools: [] } } });
      await c.disconnect();
      expect(await waitFor(() => server.sessions() === 0)).toBe(true);
    } finally {
      await server.close();
    }
  });

  test('errors are messages with upstream codes; a full server refuses the connection with CAPACITY_REACHED', async () => {
    const server = await serve({ maxSessions: 1 });
    try {
      const c = await WsEnvClient.connect(server.url);
      expect(await c.send({ type: 'dance' })).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
      c.ws.send('{oops');
      expect(await c.next()).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } });
      expect(await c.send({ type: 'reset', data: {}, extra: 1 })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', errors: [{ loc: ['message', 'extra'] }] } });
      expect(await c.send({ type: 'state', data: {} })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
      expect(await c.send({ type: 'step', data: typed({ value: 0 }) })).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR' } });
      await c.reset({ seed: 1 });
      expect(await c.send({ type: 'step', data: { value: 0, colour: 'red' } })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', errors: [{ loc: ['data'] }] } });
      expect(await c.send({ type: 'reset', data: { agents: ['fair-split'] } })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', message: "agents: can only be given in the connection's first reset" } });
      const d = await WsEnvClient.connect(server.url);
      expect(await d.next()).toMatchObject({ type: 'error', data: { code: 'CAPACITY_REACHED', active_sessions: 1, max_sessions: 1 } });
      expect(await d.closed).toBe(1013);
      // an oversized message closes the connection with 1009
      c.ws.send(JSON.stringify({ type: 'reset', data: { episode_id: 'x'.repeat((1 << 20) + 10) } }));
      expect(await c.closed).toBe(1009);
    } finally {
      await server.close();
    }
  });

  test('WebSocket sessions have no idle limit by default while HTTP sessions expire; --ws-idle-timeout sets one', async () => {
    const server = await serve({ idleMs: 150 });
    try {
      const c = await WsEnvClient.connect(server.url);
      await c.reset({ seed: 2 });
      const http = await (await fetch(server.url + '/reset', { method: 'POST', body: '{}' })).json();
      expect(http.metadata.session_id).toBeDefined();
      expect(server.sessions()).toBe(2);
      // the HTTP session expires; the idle WebSocket one stays and plays on
      expect(await waitFor(() => server.sessions() === 1, 30_000)).toBe(true);
      const r0 = await c.reset({ seed: 2 });
      const r = await c.step(choose(r0.observation));
      expect(r.observation).toBeDefined();
      await c.disconnect();
    } finally {
      await server.close();
    }
    const strict = await serve({ idleMs: 60_000, wsIdleMs: 150 });
    try {
      const c = await WsEnvClient.connect(strict.url);
      await c.reset({});
      expect(await c.closed).toBe(1000);
      expect(strict.sessions()).toBe(0);
    } finally {
      await strict.close();
    }
  });
});

/** The older HTTPEnvClient over a requests.Session: cookies kept, no session id ever sent. */
class HttpEnvClient {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}
  private async call(method: string, path: string, body?: Json): Promise<{ status: number; json: Json }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const r = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return { status: r.status, json: (await r.json()) as Json };
  }
  private ok(r: { status: number; json: Json }): Json {
    if (r.status >= 400) throw new Error(`${r.status}: ${JSON.stringify(r.json)}`); // raise_for_status
    return r.json;
  }
  async reset(kwargs: Json = {}) {
    return this.ok(await this.call('POST', '/reset', kwargs));
  }
  async step(action: Json, kwargs: Json = {}) {
    return this.ok(await this.call('POST', '/step', { action, ...kwargs }));
  }
  async state() {
    return this.ok(await this.call('GET', '/state'));
  }
}

describe('the HTTP client (HTTPEnvClient over a requests.Session)', () => {
  test('reset, step and state without a session id; upstream extras accepted; repeated resets reuse one session', async () => {
    const server = await serve({ maxSessions: 3 });
    try {
      const env = new HttpEnvClient(server.url);
      for (let episode = 0; episode < 6; episode++) {
        let r = await env.reset({ seed: episode, episode_id: `ep-${episode}` });
        expect(r.metadata.episode_id).toBe(`ep-${episode}`);
        while (!r.done) r = await env.step(choose(r.observation), { timeout_s: 30.0, request_id: 'req-1', render: true });
        expect(r.metadata.ignored_fields).toEqual(['render']);
        const state = await env.state();
        expect(state).toMatchObject({ episode_id: `ep-${episode}`, seed: episode, done: true });
      }
      expect(server.sessions()).toBe(1);
      // a second client (its own cookie jar) gets its own session
      const other = new HttpEnvClient(server.url);
      const o = await other.reset({ seed: 0 });
      expect(server.sessions()).toBe(2);
      expect((await other.state()).session_id).toBe(o.metadata.session_id);
      // new settings replace the cookie's session instead of adding one
      await other.reset({ seed: 0, role: 'negotiator', render: false });
      expect(server.sessions()).toBe(2);
    } finally {
      await server.close();
    }
  });

  test('422 detail is always a list of {loc, msg, type}, whatever the failing check', async () => {
    const server = await serve();
    try {
      const post = async (path: string, body: unknown) => {
        const r = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: r.status, json: (await r.json()) as Json };
      };
      const id = (await post('/reset', { seed: 1 })).json.metadata.session_id as string;
      const cases: [string, unknown, string][] = [
        ['/reset', { seed: -1 }, 'seed'],
        ['/reset', { seed: 'x' }, 'seed'],
        ['/reset', [1], 'body'],
        ['/reset', { role: 'king' }, 'role'],
        ['/reset', { seat: 5 }, 'seat'],
        ['/reset', { agents: ['nobody'] }, 'agents.0'],
        ['/reset', { agents: ['fair-split', 'fair-split', 'fair-split'] }, 'agents'],
        ['/reset', { params: { nope: 1 } }, 'params.nope'],
        ['/reset', { params: [] }, 'params'],
        ['/reset', { session_id: id, seat: 1 }, 'seat'],
        ['/step', { action: { value: 0 } }, 'session_id'],
        ['/step', { session_id: id, action: { value: 9999 } }, 'action'],
        ['/step', { session_id: id, action: { label: 'fly' } }, 'action.label'],
        ['/step', { session_id: id, action: 'agree' }, 'action'],
        ['/step', { session_id: id }, 'action'],
      ];
      for (const [path, body, field] of cases) {
        const r = await post(path, body);
        expect([path, body, r.status]).toEqual([path, body, 422]);
        expect(Array.isArray(r.json.detail)).toBe(true);
        for (const d of r.json.detail as Json[]) {
          expect(Object.keys(d).sort()).toEqual(['loc', 'msg', 'type']);
          expect(Array.isArray(d.loc)).toBe(true);
          expect(typeof d.msg).toBe('string');
        }
        expect(r.json.message.startsWith(`${field}: `)).toBe(true);
      }
    } finally {
      await server.close();
    }
  });
});

async function waitFor(cond: () => boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
