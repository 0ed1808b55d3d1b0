/**
 * The env server (OpenEnv interface): HTTP reset/step/state with sessions and per-session seeds,
 * the three action forms, rewards, 4xx errors naming the field, the session limit, idle expiry,
 * the WebSocket /ws route, and `arena env-serve` with the Python client of docs/env-server.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createRegistry } from '../../app/catalog';
import { deriveSeed } from '../../src/core/rng';
import { startEnvServer, type EnvServer, type EnvServerOptions } from '../../app/server/env-serve/env-server';
import { ROOT, arena } from '../cli/helpers';

const registry = createRegistry();
const dond = registry.env('deal-or-no-deal-v1');

async function serve(o: Partial<EnvServerOptions> = {}): Promise<EnvServer> {
  const env = o.env ?? dond;
  return startEnvServer({ env, params: env.resolveParams({}), registry, agents: ['fair-split'], port: 0, ...o });
}

async function call(server: EnvServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(server.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('HTTP', () => {
  let server: EnvServer;
  beforeAll(async () => (server = await serve({ seed: 5 })));
  afterAll(() => server.close());

  test('health, metadata and schema; bound to 127.0.0.1', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call(server, 'GET', '/health')).json).toMatchObject({ status: 'healthy' });
    const meta = (await call(server, 'GET', '/metadata')).json;
    expect(meta).toMatchObject({ name: 'deal-or-no-deal-v1', version: '1', default_agents: ['fair-split'] });
    const schema = (await call(server, 'GET', '/schema')).json;
    expect(Object.keys(schema).sort()).toEqual(['action', 'observation', 'state']);
  });

  test('a whole episode: reset creates a session, steps by name and by value, the return as the final reward', async () => {
    const r0 = await call(server, 'POST', '/reset', { seed: 3 });
    expect(r0.status).toBe(200);
    expect(r0.json).toMatchObject({ reward: null, done: false, observation: { seat: 0, role: 'negotiator', step: 0 } });
    const id = r0.json.metadata.session_id as string;
    expect(r0.json.observation.text).toMatch(/Your values/);
    expect(r0.json.observation.obs.allValues).toBeNull();
    let result = r0.json;
    let k = 0;
    while (!result.done) {
      const legal = result.observation.legal as { action: number; label: string }[];
      const action = legal.some((l) => l.label === 'agree') ? { label: 'agree' } : k % 2 ? { value: legal[legal.length - 1].action } : { label: legal[legal.length - 1].label };
      const r = await call(server, 'POST', '/step', { session_id: id, action });
      expect(r.status).toBe(200);
      result = r.json;
      k++;
      if (!result.done) expect(result.reward).toBeNull(); // DoND pays at the end only: null mid-episode, as docs/env-server.md says
    }
    expect(result.metadata).toMatchObject({ session_id: id, step_count: k, code: 'ok' });
    expect(result.reward).toBe(result.metadata.returns[0]);
    expect(result.observation.legal).toBeNull();
    const state = (await call(server, 'GET', `/state?session_id=${id}`)).json;
    expect(state).toMatchObject({ session_id: id, step_count: k, seed: 3, done: true, returns: result.metadata.returns });
    // the episode is over: another step is refused until a reset
    const again = await call(server, 'POST', '/step', { session_id: id, action: { value: 0 } });
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(/^action: the episode is over; call reset/);
    const r1 = await call(server, 'POST', '/reset', { session_id: id, seed: 3 });
    expect(r1.json.observation).toEqual(r0.json.observation);
    expect(r1.json.metadata.episode_id).not.toBe(r0.json.metadata.episode_id);
  });

  test('per-session seeds: without a seed, episode e of session k plays deriveSeed(seed, session, k, episode, e)', async () => {
    const before = Number((await call(server, 'GET', '/sessions')).json.sessions.length);
    const a = await call(server, 'POST', '/reset', {});
    const b = await call(server, 'POST', '/reset', {});
    const sa = (await call(server, 'GET', `/state?session_id=${a.json.metadata.session_id}`)).json.seed;
    const sb = (await call(server, 'GET', `/state?session_id=${b.json.metadata.session_id}`)).json.seed;
    expect(sa).toBe(deriveSeed(5, 'session', before, 'episode', 0));
    expect(sb).toBe(deriveSeed(5, 'session', before + 1, 'episode', 0));
    const a2 = await call(server, 'POST', '/reset', { session_id: a.json.metadata.session_id });
    expect((await call(server, 'GET', `/state?session_id=${a.json.metadata.session_id}`)).json.seed).toBe(deriveSeed(5, 'session', before, 'episode', 1));
    expect(a2.status).toBe(200);
  });

  test('errors are JSON, with the status and the field', async () => {
    const bad = async (method: string, path: string, body: unknown, status: number, message: RegExp) => {
      const r = await call(server, method, path, body);
      expect(r.status).toBe(status);
      expect(r.json.message).toMatch(message);
      expect(r.json.detail).toBeDefined();
    };
    await bad('POST', '/reset', '{"seed": 1', 400, /^body: not valid JSON/);
    await bad('POST', '/reset', { seed: -1 }, 422, /^seed: /);
    await bad('POST', '/reset', { role: 'king' }, 422, /^role: "king" is not a role/);
    await bad('POST', '/reset', { seat: 7 }, 422, /^seat: deal-or-no-deal-v1 has 2 seats/);
    await bad('POST', '/reset', { agents: ['no-such-agent'] }, 422, /^agents\.0: not an agent this server lets clients choose \(allowed: fair-split\)/);
    await bad('POST', '/reset', { params: { max_turns: 0 } }, 422, /^params\.max_turns: /);
    await bad('POST', '/step', { session_id: '7b0c0a34-8a1f-4b34-9c3e-2f3f6b7c9a10', action: { value: 1 } }, 404, /^session_id: no session/);
    await bad('POST', '/step', { session_id: 'nope', action: { value: 1 } }, 422, /session_id: must be a session id/);
    await bad('POST', '/step', { action: { value: 1 } }, 422, /^session_id: required: the session_id that reset returned/);
    await bad('GET', '/state', undefined, 422, /^session_id: required/);
    await bad('GET', '/nowhere', undefined, 404, /^path: no route/);
    await bad('GET', '/reset', undefined, 405, /^method: GET is not allowed/);
    const r = await call(server, 'POST', '/reset', { seed: 1 });
    const id = r.json.metadata.session_id;
    await bad('POST', '/reset', { session_id: id, agents: ['random'] }, 422, /^agents: can only be given when a session is created/);
    await bad('POST', '/step', { session_id: id, action: { label: 'agree' } }, 422, /^action\.label: "agree" is not one of the legal action names/);
    await bad('POST', '/step', { session_id: id, action: { value: 999 } }, 422, /^action: illegal action: /);
    await bad('POST', '/step', { session_id: id, action: { move: 1 } }, 422, /^action: must be \{"value"/);
    await bad('POST', '/step', { session_id: id, action: { value: 0, label: 'x' } }, 422, /^action: must be \{"value"/);
    // nothing changed: the same decision is still open
    expect((await call(server, 'GET', `/state?session_id=${id}`)).json.step_count).toBe(0);
    expect((await call(server, 'POST', '/step', { session_id: id, action: { value: 0 } })).status).toBe(200);
  });
});

test('per-decision rewards: a Countdown solver against a challenger, one reward per attempt', async () => {
  const cd = registry.env('countdown-v1');
  const server = await serve({ env: cd, params: cd.resolveParams({ roles: 'challenger-solver', attempts: 3 }), agents: ['random-valid'], role: 'solver' });
  try {
    const r = await call(server, 'POST', '/reset', { seed: 2 });
    expect(r.json.observation).toMatchObject({ seat: 1, role: 'solver', legal: null });
    expect(r.json.observation.answer_format.schema).toEqual({ type: 'string' });
    const numbers = r.json.observation.obs.numbers as number[];
    const id = r.json.metadata.session_id;
    const rewards: number[] = [];
    let res = r.json;
    for (const expr of [`${numbers[0]}`, `${numbers[0]} + ${numbers[1]}`, `${numbers[1]}`]) {
      res = (await call(server, 'POST', '/step', { session_id: id, action: { answer: expr } })).json;
      rewards.push(res.reward);
    }
    expect(res.done).toBe(true);
    const target = r.json.observation.obs.target as number;
    const score = (v: number) => (v === target ? 10 : Math.abs(v - target) <= 5 ? 7 : Math.abs(v - target) <= 10 ? 5 : 0);
    expect(rewards).toEqual([score(numbers[0]), score(numbers[0] + numbers[1]), score(numbers[1])]);
  } finally {
    await server.close();
  }
});

test('the session limit and idle expiry', async () => {
  const server = await serve({ maxSessions: 2, idleMs: 300 });
  try {
    const a = await call(server, 'POST', '/reset', {});
    await call(server, 'POST', '/reset', {});
    const c = await call(server, 'POST', '/reset', {});
    expect(c.status).toBe(429);
    expect(c.json.message).toMatch(/^session_id: the server holds its maximum of 2 sessions/);
    expect((await call(server, 'DELETE', `/sessions/${a.json.metadata.session_id}`)).status).toBe(200);
    expect((await call(server, 'POST', '/reset', {})).status).toBe(200);
    // left alone, every session expires
    for (let i = 0; i < 200 && server.sessions() > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(server.sessions()).toBe(0);
    expect((await call(server, 'GET', `/state?session_id=${a.json.metadata.session_id}`)).status).toBe(404);
  } finally {
    await server.close();
  }
});

describe('WebSocket /ws', () => {
  let server: EnvServer;
  beforeAll(async () => (server = await serve({ maxSessions: 1 })));
  afterAll(() => server.close());

  /** A connection with a queue of received messages. */
  async function connect(): Promise<{ ws: WebSocket; next(): Promise<Record<string, any>>; send(m: unknown): void; closed: Promise<number> }> {
    const ws = new WebSocket(server.url.replace('http', 'ws') + '/ws');
    const inbox: Record<string, any>[] = [];
    const waiting: ((m: Record<string, any>) => void)[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as Record<string, any>;
      const w = waiting.shift();
      if (w) w(m);
      else inbox.push(m);
    });
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    await new Promise((r, f) => (ws.once('open', r), ws.once('error', f)));
    return { ws, closed, send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)), next: () => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise((r) => waiting.push(r))) };
  }

  test('a whole episode over one connection; errors as messages; the session closes with the socket', async () => {
    const c = await connect();
    c.send({ type: 'step', data: { value: 0 } });
    expect(await c.next()).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR', message: 'action: no episode under way; call reset first' } });
    c.send('{oops');
    expect(await c.next()).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } });
    c.send({ type: 'dance' });
    expect(await c.next()).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
    c.send({ type: 'reset', data: { seed: 'three' } });
    expect(await c.next()).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', errors: [{ loc: ['data', 'seed'] }] } });
    c.send({ type: 'reset', data: { seed: 3, agents: ['random'] } });
    expect(await c.next()).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^agents\.0: not an agent this server lets clients choose/) } });
    c.send({ type: 'reset', data: { seed: 3, agents: ['fair-split'], seatt: 1 } });
    let m = await c.next();
    expect(m).toMatchObject({ type: 'observation', data: { done: false, reward: null, observation: { seat: 0 }, metadata: { ignored_fields: ['seatt'] } } });
    // the same seed over HTTP (another session) starts from the same observation: seeds are per session and explicit
    expect(server.sessions()).toBe(1);
    const full = await call(server, 'POST', '/reset', { seed: 3 });
    expect(full.status).toBe(429);
    while (!m.data.done) {
      const legal = m.data.observation.legal as { label: string }[];
      c.send({ type: 'step', data: { label: legal.find((l) => l.label === 'agree')?.label ?? legal[0].label } });
      m = await c.next();
      expect(m.type).toBe('observation');
    }
    expect(m.data.reward).toBe(m.data.metadata.returns[0]);
    c.send({ type: 'state' });
    expect(await c.next()).toMatchObject({ type: 'state', data: { done: true, seed: 3 } });
    c.send({ type: 'close' });
    expect(await c.closed).toBe(1000);
    for (let i = 0; i < 100 && server.sessions() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(server.sessions()).toBe(0);
  });
});

describe('arena env-serve', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'arena-env-serve-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('serves from the CLI; the Python client of docs/env-server.md (standard library) plays episodes', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'arena.js'), 'env-serve', 'deal-or-no-deal-v1', '--agents', 'fair-split', '--port', '0'], { cwd: ROOT });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    });
    try {
      const doc = readFileSync(join(ROOT, 'docs', 'env-server.md'), 'utf8');
      const file = join(dir, 'client.py');
      writeFileSync(file, /```python\n([\s\S]*?)```/.exec(doc)![1]);
      if (!existsSync('/usr/bin/python3')) throw new Error('Debian python3 is required (apt-get install python3)');
      const py = spawn('/usr/bin/python3', [file, url, '4']);
      let pyOut = '';
      let pyErr = '';
      py.stdout.on('data', (d: Buffer) => (pyOut += d.toString()));
      py.stderr.on('data', (d: Buffer) => (pyErr += d.toString()));
      const code = await new Promise<number>((r) => py.on('close', (c) => r(c ?? -1)));
      expect(pyErr).toBe('');
      expect(code).toBe(0);
      const summary = JSON.parse(pyOut) as { episodes: number; steps: number; mean_reward: number; session: string };
      expect(summary.episodes).toBe(4);
      expect(summary.steps).toBeGreaterThanOrEqual(4);
      expect(typeof summary.mean_reward).toBe('number');
      // the Python episodes ran in one session with the seeds 0..3 it asked for
      const state = (await (await fetch(`${url}/state?session_id=${summary.session}`)).json()) as { seed: number; done: boolean; step_count: number };
      expect(state).toMatchObject({ seed: 3, done: true });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('close', r));
    }
  });

  test('bad arguments are one-line usage errors', () => {
    const role = arena(['env-serve', 'deal-or-no-deal-v1', '--role', 'king', '--port', '0']);
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/^arena: --role: "king" is not a role of any seat/);
    const agents = arena(['env-serve', 'deal-or-no-deal-v1', '--agents', 'nobody', '--port', '0']);
    expect(agents.code).toBe(2);
    expect(agents.stderr).toMatch(/^arena: unknown agent "nobody"/);
    const port = arena(['env-serve', 'deal-or-no-deal-v1', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--port: expected 0-65535/);
  });
});
