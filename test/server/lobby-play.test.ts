/**
 * Lobby play: `GET /api/play` (what the lobby offers), `POST /api/play` (start a game with a
 * human seat): every field checked with a one-line 400 naming it, the cap on games at once
 * (429), the idle deadline, the link that opens the seat, and servers without --allow-play.
 */
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { defaultRegistry } from '../../app/catalog';
import type { MatchCreated, MatchEnded } from '../../src/core/events';
import { connectSeat } from '../../app/client/seat-client';
import { Registry } from '../../src/core/registry';
import type { AgentFactory } from '../../src/core/agent';
import { dealOrNoDealEnv } from '../../envs/deal-or-no-deal';
import { countdownEnv } from '../../envs/countdown';
import { randomAgent } from '../../agents/random';
import { LobbyPlay } from '../../app/server/play/lobby-play';
import type { PlayHub } from '../../app/server/play/play-hub';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import type { PlayOptionsResponse, PlayStartResponse } from '../../app/server/play/lobby-play';

let server: ArenaServer;
let bus: EventBus;
let rec: MemoryRecorder;
beforeAll(async () => {
  bus = new EventBus();
  rec = new MemoryRecorder(bus);
  server = await startServer({ bus, port: 0, lobbyPlay: { registry: defaultRegistry, maxMatches: 2, idleMs: 30_000 } });
});
afterAll(async () => {
  rec.stop();
  await server.close();
});

const base = () => server.url.replace(/\/$/, '');

async function post(body: unknown, o: { type?: string; raw?: string; on?: ArenaServer } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${(o.on ?? server).url.replace(/\/$/, '')}/api/play`, {
    method: 'POST',
    headers: { 'content-type': o.type ?? 'application/json' },
    body: o.raw ?? JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function get(path: string, on: ArenaServer = server): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${on.url.replace(/\/$/, '')}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Resolves with the match.ended of `matchId` (at once if it is already recorded). */
function ended(matchId: string): Promise<MatchEnded> {
  const find = () => rec.events(matchId).find((e): e is MatchEnded => e.type === 'match.ended');
  const now = find();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const sub = bus.events$.subscribe((e) => {
      if (e.type === 'match.ended' && 'matchId' in e && e.matchId === matchId) {
        sub.unsubscribe();
        resolve(e as MatchEnded);
      }
    });
  });
}

test('GET /api/play lists the envs without effects, each seat with its opponents and a default', async () => {
  const { status, body } = await get('/api/play');
  expect(status).toBe(200);
  const options = body as unknown as PlayOptionsResponse;
  expect(options.maxMatches).toBe(2);
  expect(options.idleMs).toBe(30_000);
  const ids = options.envs.map((e) => e.env);
  expect(ids).toEqual(expect.arrayContaining(['countdown-v1', 'deal-or-no-deal-v1', 'werewolf-v1']));
  // code-repair and kernel-speedup run code in the sandbox: not offered to visitors
  expect(ids.some((id) => /code-repair|kernel/.test(id))).toBe(false);
  const dond = options.envs.find((e) => e.env === 'deal-or-no-deal-v1')!;
  expect(dond.seats).toHaveLength(2);
  for (const s of dond.seats) {
    expect(s.agents).toEqual(expect.arrayContaining(['fair-split', 'greedy', 'random']));
    // never a seat that needs a person, a socket, an endpoint, a checkpoint, nor an unrated oracle
    for (const no of ['human', 'remote', 'llm', 'neural', 'nash-oracle']) expect(s.agents).not.toContain(no);
    // the env's own baselines come before the generic random, and the first is the default
    expect(s.agents[s.agents.length - 1]).toBe('random');
    expect(s.default).toBe(s.agents[0]);
  }
  const wolf = options.envs.find((e) => e.env === 'werewolf-v1')!;
  expect(wolf.seats[0].role).toBeNull(); // hidden roles are not told before the deal
});

test('GET /api/play?env=&params= gives the seats for those params; bad ones are named', async () => {
  const { status, body } = await get(`/api/play?env=countdown&params=${encodeURIComponent('{"roles":"challenger-solver","attempts":2}')}`);
  expect(status).toBe(200);
  const [cd] = (body as unknown as PlayOptionsResponse).envs;
  expect(cd.env).toBe('countdown-v1');
  expect(cd.seats.map((s) => s.role)).toEqual(['challenger', 'solver']);
  expect(cd.seats[0].agents).toContain('random-valid');
  expect(cd.seats[0].agents).not.toContain('greedy'); // a solver-only baseline cannot challenge
  expect(cd.seats[1].agents).toContain('greedy');
  expect(await get('/api/play?env=countdown&params={oops')).toEqual({ status: 400, body: { error: 'params: not valid JSON' } });
  expect(await get('/api/play?params={}')).toEqual({ status: 400, body: { error: 'params: give env= with params=' } });
  const bad = await get(`/api/play?env=countdown&params=${encodeURIComponent('{"roles":"king"}')}`);
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatch(/^params\.roles: /);
  expect((await get('/api/play?env=chess')).status).toBe(404);
});

test.each([
  ['not an object', [1, 2], 400, /^body: expected a JSON object/],
  ['an unknown field', { env: 'deal-or-no-deal', seats: 1 }, 400, /^seats: unknown field \(allowed: env, seat, opponents, params\)$/],
  ['no env', { seat: 0 }, 400, /^env: expected an env id/],
  ['an env not offered', { env: 'kernel-speedup' }, 404, /^env: "kernel-speedup" is not offered here \(offered: .*countdown-v1/],
  ['an unknown env', { env: 'chess' }, 404, /^env: "chess" is not offered here/],
  ['a seat out of range', { env: 'deal-or-no-deal', seat: 2 }, 400, /^seat: expected an integer 0-1 \(deal-or-no-deal-v1 has 2 seats\), got 2$/],
  ['a fractional seat', { env: 'deal-or-no-deal', seat: 0.5 }, 400, /^seat: expected an integer 0-1/],
  ['a seat as text', { env: 'deal-or-no-deal', seat: '0' }, 400, /^seat: expected an integer 0-1 .*got "0"$/],
  ['opponents not an array', { env: 'deal-or-no-deal', opponents: 'greedy' }, 400, /^opponents: expected an array of 1 agent names/],
  ['too many opponents', { env: 'deal-or-no-deal', opponents: ['greedy', 'greedy'] }, 400, /^opponents: deal-or-no-deal-v1 has 2 seats, so 1 opponent, not 2$/],
  ['an unknown opponent', { env: 'deal-or-no-deal', opponents: ['alphazero'] }, 400, /^opponents\[0\]: "alphazero" cannot play seat 1 .*of deal-or-no-deal-v1; choose from .*fair-split/],
  ['a human opponent', { env: 'deal-or-no-deal', opponents: ['human'] }, 400, /^opponents\[0\]: "human" cannot play seat 1/],
  ['an llm opponent', { env: 'deal-or-no-deal', opponents: ['llm'] }, 400, /^opponents\[0\]: "llm" cannot play/],
  ['an unrated oracle', { env: 'deal-or-no-deal', opponents: ['nash-oracle'] }, 400, /^opponents\[0\]: "nash-oracle" cannot play/],
  ['an opponent with options', { env: 'deal-or-no-deal', opponents: ['greedy:{"threshold":1}'] }, 400, /^opponents\[0\]: "greedy:\{\\"threshold\\":1\}" cannot play/],
  ['an opponent for the wrong role', { env: 'countdown', params: { roles: 'challenger-solver' }, seat: 1, opponents: ['greedy'] }, 400, /^opponents\[0\]: "greedy" cannot play seat 0 \(challenger\) of countdown-v1; choose from .*random-valid/],
  ['params not an object', { env: 'countdown', params: 'roles=solver' }, 400, /^params: expected a JSON object$/],
  ['a bad param', { env: 'countdown', params: { attempts: 0 } }, 400, /^params\.attempts: /],
])('POST /api/play refuses %s', async (_what, body, status, message) => {
  const before = server.lobbyPlay!.active;
  const r = await post(body);
  expect(r.status).toBe(status);
  expect(String(r.body.error)).toMatch(message);
  expect(String(r.body.error)).not.toContain('\n');
  expect(server.lobbyPlay!.active).toBe(before); // nothing was started
});

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

test.each(PROTOTYPE_NAMES)('POST /api/play: %s is an unknown param and an unknown field, not an inherited one', async (name) => {
  const before = server.lobbyPlay!.active;
  // JSON text, so "__proto__" arrives as an own key as a client sends it
  const params = await post(null, { raw: `{"env":"deal-or-no-deal","params":{"${name}":1}}` });
  expect(params.status).toBe(400);
  expect(params.body.error).toBe(`params.${name}: is not a parameter (known: ${Object.keys(defaultRegistry.env('deal-or-no-deal-v1').meta.params ?? {}).join(', ')})`);
  const field = await post(null, { raw: `{"env":"deal-or-no-deal","${name}":{"seat":1}}` });
  expect(field).toEqual({ status: 400, body: { error: `${name}: unknown field (allowed: env, seat, opponents, params)` } });
  const options = await get(`/api/play?env=deal-or-no-deal&params=${encodeURIComponent(`{"${name}":0}`)}`);
  expect(options.status).toBe(400);
  expect(String(options.body.error)).toMatch(new RegExp(`^params\\.${name}: is not a parameter`));
  expect(server.lobbyPlay!.active).toBe(before);
});

test('POST /api/play refuses a non-JSON content type, broken JSON and an oversized body', async () => {
  const form = await post(null, { type: 'text/plain', raw: '{"env":"countdown"}' });
  expect(form).toEqual({ status: 415, body: { error: 'content-type: expected application/json, got "text/plain"' } });
  expect(await post(null, { raw: '{"env":' })).toEqual({ status: 400, body: { error: 'body: not valid JSON' } });
  const big = await post(null, { raw: JSON.stringify({ env: 'countdown', params: { x: 'y'.repeat(20_000) } }) });
  expect(big).toEqual({ status: 413, body: { error: 'body: larger than 16384 bytes' } });
  const put = await fetch(`${base()}/api/play`, { method: 'PUT' });
  expect(put.status).toBe(405);
  expect(server.lobbyPlay!.active).toBe(0);
});

test('a started game: its link opens the seat, the visitor plays it to the end, spectators see it live', async () => {
  const r = await post({ env: 'countdown', seat: 1, opponents: ['random-valid'], params: { roles: 'challenger-solver', attempts: 1 } });
  expect(r.status).toBe(201);
  const started = r.body as unknown as PlayStartResponse;
  expect(started.url).toBe(`#/play/${started.token}`);
  expect(started.seat).toBe(1);
  expect(started.agents).toEqual(['random-valid', expect.stringMatching(/^human:lobby-\d+$/)]);
  // it is live for spectators, under the id we were given
  const live = await get('/api/matches/live');
  expect((live.body.matches as { id: string }[]).map((m) => m.id)).toContain(started.matchId);
  const done = ended(started.matchId);
  const client = connectSeat({ url: base(), token: started.token, transports: ['websocket'], decide: (d) => ({ answer: d.observation && typeof d.observation === 'object' ? `${(d.observation as { numbers: number[] }).numbers[0]}` : '1' }) });
  await client.ready;
  const end = await done;
  client.close();
  expect(end.code).toBe('ok');
  expect(end.faults).toBe(0);
  const summary = (await get(`/api/matches/${started.matchId}`)).body.match as { agents: string[]; live: boolean };
  expect(summary.agents).toEqual(started.agents);
});

test('the game runs with every param given, the secret ones too (the lobby shows only the public ones); stop() ends the games', async () => {
  const bus5 = new EventBus();
  const rec5 = new MemoryRecorder(bus5);
  const s5 = await startServer({ bus: bus5, port: 0, lobbyPlay: { registry: defaultRegistry } });
  try {
    const instance = '1,2,3 8,1,0 4,0,2';
    const shown = (await get(`/api/play?env=deal-or-no-deal&params=${encodeURIComponent(JSON.stringify({ instance }))}`, s5)).body as unknown as PlayOptionsResponse;
    expect(shown.envs[0].params.instance).toBe('hidden');
    const r = await post({ env: 'deal-or-no-deal', params: { instance } }, { on: s5 });
    expect(r.status).toBe(201);
    const id = (r.body as unknown as PlayStartResponse).matchId;
    const created = rec5.events(id).find((e): e is MatchCreated => e.type === 'match.created')!;
    expect(created.params.instance).toBe(instance);
    await s5.lobbyPlay!.stop();
    expect(rec5.events(id).find((e): e is MatchEnded => e.type === 'match.ended')?.code).toBe('aborted');
    expect(s5.lobbyPlay!.active).toBe(0);
    expect(await post({ env: 'deal-or-no-deal' }, { on: s5 })).toEqual({ status: 503, body: { error: 'play: the server is stopping' } });
  } finally {
    await s5.close();
    rec5.stop();
  }
});

test('at most maxMatches games at once: the next is refused with 429 until one ends', async () => {
  const a = await post({ env: 'deal-or-no-deal' });
  const b = await post({ env: 'deal-or-no-deal', seat: 1, opponents: ['greedy'] });
  expect([a.status, b.status]).toEqual([201, 201]);
  expect(server.lobbyPlay!.active).toBe(2);
  const c = await post({ env: 'deal-or-no-deal' });
  expect(c).toEqual({ status: 429, body: { error: 'play: 2 games are being played (the limit is 2); try again when one ends' } });
  expect((await get('/api/play')).body.running).toBe(2);
  // the first visitor plays theirs out (asking for everything, then agreeing): a place opens
  const first = a.body as unknown as PlayStartResponse;
  const done = ended(first.matchId);
  let asked = 0;
  const client = connectSeat({
    url: base(),
    token: first.token,
    transports: ['websocket'],
    decide: (d) => ({ label: d.legal!.some((l) => l.label === 'agree') && asked++ > 0 ? 'agree' : d.legal![d.legal!.length - 1].label }),
  });
  await done;
  client.close();
  await waitFor(() => server.lobbyPlay!.active === 1);
  const d = await post({ env: 'deal-or-no-deal' });
  expect(d.status).toBe(201);
});

test('a visitor who never opens the link forfeits after the idle deadline', async () => {
  const bus2 = new EventBus();
  const rec2 = new MemoryRecorder(bus2);
  const s2 = await startServer({ bus: bus2, port: 0, lobbyPlay: { registry: defaultRegistry, maxMatches: 1, idleMs: 300 } });
  try {
    const r = await post({ env: 'deal-or-no-deal' }, { on: s2 });
    expect(r.status).toBe(201);
    const id = (r.body as unknown as PlayStartResponse).matchId;
    const endOf = () => rec2.events(id).find((e): e is MatchEnded => e.type === 'match.ended');
    await waitFor(() => !!endOf());
    expect(endOf()).toMatchObject({ code: 'forfeit', forfeitedBy: 0, faults: 1 });
    await waitFor(() => s2.lobbyPlay!.active === 0);
    expect((await post({ env: 'deal-or-no-deal' }, { on: s2 })).status).toBe(201); // the place is free again
  } finally {
    await s2.close(); // aborts the game still running
    rec2.stop();
  }
  expect(s2.lobbyPlay!.active).toBe(0);
});

test('without lobby play the API says how to turn it on, and /play serves no one', async () => {
  const s3 = await startServer({ bus: new EventBus(), port: 0 });
  try {
    const g = await get('/api/play', s3);
    expect(g).toEqual({ status: 404, body: { error: 'play: this server does not offer games to visitors (start it with --allow-play)' } });
    expect((await post({ env: 'countdown' }, { on: s3 })).status).toBe(404);
    expect(s3.play).toBeNull();
  } finally {
    await s3.close();
  }
});

test('opponents that need options, unrated ones and role-bound ones are not offered; envs can be restricted', () => {
  const registry = new Registry();
  registry.registerEnv(dealOrNoDealEnv);
  registry.registerEnv(countdownEnv);
  registry.registerAgent(randomAgent);
  const fake = (f: Partial<AgentFactory> & { name: string }): AgentFactory => ({ description: f.name, create: () => ({ name: f.name, act: () => 0 }), ...f });
  registry.registerAgent(fake({ name: 'needs-key', create: () => { throw new Error('needs an API key'); } }));
  registry.registerAgent(fake({ name: 'peeker', rated: false }));
  registry.registerAgent(fake({ name: 'only-judge', roles: ['judge'] }));
  registry.registerAgent(fake({ name: 'dond-bot', envs: ['deal-or-no-deal-v1'] }));
  const lobby = new LobbyPlay({} as PlayHub, bus, { registry, envs: ['deal-or-no-deal-v1'] });
  const offered = lobby.options();
  expect(offered.envs.map((e) => e.env)).toEqual(['deal-or-no-deal-v1']);
  for (const s of offered.envs[0].seats) expect(s.agents).toEqual(['dond-bot', 'random']);
  expect(() => lobby.options('countdown')).toThrow(/^env: "countdown" is not offered here \(offered: deal-or-no-deal-v1\)$/);
  expect(() => lobby.start({ env: 'deal-or-no-deal', opponents: ['needs-key'] })).toThrow(/^opponents\[0\]: "needs-key" cannot play/);
});

test('finished seats past keepFinished are released: their links no longer open, the newest still do', async () => {
  const bus4 = new EventBus();
  const s4 = await startServer({ bus: bus4, port: 0, lobbyPlay: { registry: defaultRegistry, maxMatches: 2, idleMs: 200, keepFinished: 1 } });
  try {
    const first = (await post({ env: 'deal-or-no-deal' }, { on: s4 })).body as unknown as PlayStartResponse;
    await waitFor(() => s4.lobbyPlay!.active === 0); // forfeited: nobody came
    expect(await opens(s4, first.token)).toBe(true); // kept: a reload still shows how it ended
    const second = (await post({ env: 'deal-or-no-deal' }, { on: s4 })).body as unknown as PlayStartResponse;
    await waitFor(() => s4.lobbyPlay!.active === 0);
    expect(await opens(s4, first.token)).toBe(false);
    expect(await opens(s4, second.token)).toBe(true);
  } finally {
    await s4.close();
  }
});

/** Whether a seat token still opens a connection to `/play`. */
function opens(on: ArenaServer, token: string): Promise<boolean> {
  const client = connectSeat({ url: on.url, token, transports: ['websocket'], reconnection: false, decide: () => ({ answer: null }) });
  return client.ready.then(
    () => (client.close(), true),
    () => (client.close(), false),
  );
}

/** Polls a condition on the event loop (no fixed sleep decides a result); fails after 20 s. */
async function waitFor(cond: () => boolean): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > 20_000) throw new Error('condition not met in 20 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}
