/**
 * Hostile requests to the env server and the shared HTTP layer (app/server/http-kit.ts):
 * prototype names as params and agent options, bodies over the limit (413, not a reset
 * connection), what a client sees of server-side failures.
 */
import { createServer, type Server } from 'node:http';
import WebSocket from 'ws';
import type { AddressInfo } from 'node:net';
import { createRegistry } from '../../../app/catalog';
import { HttpError, MAX_JSON_DEPTH, nestedDeeperThan, publicMessage, readBody, readJson, sendJson } from '../../../app/server/http-kit';
import { MAX_BODY, startEnvServer, type EnvServer } from '../../../app/server/env-serve/env-server';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];
const registry = createRegistry();
const dond = registry.env('deal-or-no-deal-v1');

describe('env-serve', () => {
  let server: EnvServer;
  beforeAll(async () => (server = await startEnvServer({ env: dond, params: dond.resolveParams({}), registry, agents: ['fair-split'], clientAgents: ['greedy:{"toString":1}'], port: 0 })));
  afterAll(() => server.close());
  const post = async (path: string, raw: string, headers: Record<string, string> = {}) => {
    const r = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
    return { status: r.status, json: (await r.json()) as Record<string, any> };
  };

  test.each(PROTOTYPE_NAMES)('params.%s is an unknown param (422 naming it); nothing is created', async (name) => {
    const before = server.sessions();
    const r = await post('/reset', `{"params":{"${name}":1}}`);
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(new RegExp(`^params\\.${name}: is not a parameter \\(known: `));
    expect(r.json.detail).toEqual([{ loc: ['body', 'params', name], msg: expect.stringMatching(/^is not a parameter/), type: 'value_error' }]);
    expect(server.sessions()).toBe(before);
    // as a field of the request it is ignored like any other unknown field (upstream's extra="allow"), and reported
    const extra = await post('/reset', `{"seed":1,"${name}":{"seat":1}}`);
    expect(extra.status).toBe(200);
    expect(extra.json.metadata.ignored_fields).toEqual([name]);
    expect(extra.json.observation.seat).toBe(0);
  });

  test('a prototype name as an agent option is an unknown option, even when the operator admits the reference', async () => {
    const r = await post('/reset', JSON.stringify({ agents: ['greedy:{"toString":1}'] }));
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(/^agents\.0: agent "greedy": option "toString" is not an option/);
  });

  test('a deep body is a 400 over HTTP and a VALIDATION_ERROR over the socket, not a crash', async () => {
    const deep = `{"action":{"value":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    expect(await post('/step', deep)).toEqual({ status: 400, json: { detail: 'body: nested deeper than 64 levels', message: 'body: nested deeper than 64 levels' } });
    const ws = new WebSocket(server.url.replace('http', 'ws') + '/ws');
    const reply = new Promise<Record<string, any>>((r) => ws.once('message', (d) => r(JSON.parse(d.toString()) as Record<string, any>)));
    await new Promise((r, f) => (ws.once('open', r), ws.once('error', f)));
    ws.send(`{"type":"step","data":{"value":${'['.repeat(5000)}${']'.repeat(5000)}}}`);
    expect(await reply).toEqual({ type: 'error', data: { code: 'VALIDATION_ERROR', message: 'message: nested deeper than 64 levels' } });
    ws.close();
  });

  test('GET /sessions does not give away the ids that let a client play a session', async () => {
    const r = await post('/reset', '{"seed":3}');
    const id = r.json.metadata.session_id as string;
    const list = await (await fetch(server.url + '/sessions')).text();
    expect(list).not.toContain(id);
    expect(JSON.parse(list).sessions).toEqual(expect.arrayContaining([expect.objectContaining({ id_prefix: id.slice(0, 8), transport: 'http', seed: 3 })]));
  });

  test('a body over 1 MB gets 413 naming the limit (not a reset connection); the server goes on', async () => {
    const big = JSON.stringify({ seed: 1, episode_id: 'x'.repeat(MAX_BODY) });
    const r = await post('/reset', big);
    expect(r).toEqual({ status: 413, json: { detail: `body: larger than ${MAX_BODY} bytes`, message: `body: larger than ${MAX_BODY} bytes` } });
    const much = await post('/step', 'y'.repeat(5 * MAX_BODY));
    expect(much.status).toBe(413);
    expect((await fetch(server.url + '/health')).status).toBe(200);
  });
});

describe('http-kit', () => {
  let http: Server;
  let url: string;
  let handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>;
  beforeAll(async () => {
    http = createServer((req, res) => {
      handler(req, res).catch((e: unknown) => (e instanceof HttpError ? sendJson(res, e.status, { error: e.message }) : sendJson(res, 500, { error: String(e) })));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => http.close(() => r())));

  test('readBody under, at and over the limit; readJson: empty is undefined, broken JSON is a 400', async () => {
    handler = async (req, res) => sendJson(res, 200, { text: await readBody(req, 10) });
    const at = await fetch(url, { method: 'POST', body: '0123456789' });
    expect(await at.json()).toEqual({ text: '0123456789' });
    const over = await fetch(url, { method: 'POST', body: '01234567890' });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: 'body: larger than 10 bytes' });
    expect(over.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(over.headers.get('cache-control')).toBe('no-store');
    handler = async (req, res) => sendJson(res, 200, { value: (await readJson(req, 100)) ?? 'none' });
    expect(await (await fetch(url, { method: 'POST', body: '  ' })).json()).toEqual({ value: 'none' });
    expect(await (await fetch(url, { method: 'POST', body: '{"a":[1]}' })).json()).toEqual({ value: { a: [1] } });
    const broken = await fetch(url, { method: 'POST', body: '{"a":' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: 'body: not valid JSON' });
  });

  test('a body far over the limit is cut off without being read to the end', async () => {
    let seen = 0;
    handler = async (req, res) => {
      req.on('data', (c: Buffer) => (seen += c.length));
      sendJson(res, 200, { text: await readBody(req, 10) });
    };
    const r = await fetch(url, { method: 'POST', body: 'z'.repeat(9 << 20) }).then(
      (res) => [res.status, res.headers.get('connection')],
      () => 'cut', // the client may still be writing when the server closes
    );
    if (r !== 'cut') expect(r).toEqual([413, 'close']);
    expect(seen).toBeLessThan(9 << 20);
  });

  test('nestedDeeperThan counts levels of arrays and objects without recursion; readJson refuses deep bodies', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(nestedDeeperThan(deep)).toBe(true);
    let v: unknown = 0;
    for (let i = 0; i < 64; i++) v = [v];
    expect(nestedDeeperThan(v)).toBe(false);
    expect(nestedDeeperThan([v])).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: [2, { c: 'x' }] }, 3)).toBe(false); // three levels of containers
    expect(nestedDeeperThan({ a: 1, b: [2, { c: {} }] }, 3)).toBe(true);
    expect(nestedDeeperThan('text', 0)).toBe(false);
    handler = async (req, res) => sendJson(res, 200, { value: await readJson(req, 1 << 20) });
    const r = await fetch(url, { method: 'POST', body: '['.repeat(65) + ']'.repeat(65) });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: `body: nested deeper than ${MAX_JSON_DEPTH} levels` });
  });

  test('HttpError: status, field, message and problem', () => {
    const e = new HttpError(422, 'agents.1', 'not admitted');
    expect([e.status, e.field, e.message, e.problem, e.name]).toEqual([422, 'agents.1', 'agents.1: not admitted', 'not admitted', 'HttpError']);
  });

  test('publicMessage: first line, no absolute paths, at most 300 characters', () => {
    expect(publicMessage(new Error("Cannot find module '/srv/arena/agents/x.js'\nRequire stack:\n- /srv/arena/a.js"))).toBe("Cannot find module '<path>'");
    expect(publicMessage('bad file:///home/me/x.mjs here')).toBe('bad <path> here');
    expect(publicMessage('reading C:\\Users\\me\\ckpt.json failed')).toBe('reading <path> failed');
    expect(publicMessage('(at /tmp/a/b.js)')).toBe('(at <path>)');
    expect(publicMessage('must be 1/2 or a/b')).toBe('must be 1/2 or a/b');
    expect(publicMessage('x'.repeat(400))).toBe(`${'x'.repeat(300)}…`);
    expect(publicMessage(42)).toBe('42');
  });
});
