/**
 * The /play namespace against hostile seats (issue 23's audit): wrong types, prototype keys,
 * two answer forms at once, answers to decisions that are not the seat's (another slot's,
 * replayed, inherited names), tokens that are unknown, of the wrong type or released, and
 * payloads deep or large. Each gets an error naming the field (or a refused connection), and
 * the seat can still answer its open decision.
 */
import { io as ioClient, type Socket } from 'socket.io-client';
import { EventBus } from '../../src/bus/event-bus';
import { defaultRegistry } from '../../app/catalog';
import { runMatch } from '../../src/match/runner';
import { parseAct, type DecideMessage } from '../../app/server/play/play-protocol';
import { RemoteAgent } from '../../app/server/play/remote-agent';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { randomAgent } from '../../agents/random';

let server: ArenaServer;
const bus = new EventBus();
beforeAll(async () => (server = await startServer({ bus, port: 0, play: { reconnectMs: 1500 } })));
afterAll(() => server.close());
const url = () => server.url.replace(/\/$/, '');
let n = 0;

function connect(token: unknown): Socket {
  return ioClient(url() + '/play', { auth: { token } as Record<string, unknown>, transports: ['websocket'], reconnection: false, forceNew: true });
}
const refusedAtConnect = (token: unknown) => {
  const socket = connect(token);
  return new Promise<string>((resolve) => {
    socket.once('connect_error', (e) => (socket.close(), resolve(e.message)));
    socket.once('welcome', () => (socket.close(), resolve('connected')));
  });
};

test('parseAct names the failing field', () => {
  const bad = (raw: unknown) => {
    const r = parseAct(raw);
    return r.ok ? 'ok' : r.message;
  };
  expect(bad({ requestId: 'r1', action: 2 })).toBe('ok');
  expect(bad(null)).toBe('act: expected an object {requestId, action | label | answer}');
  expect(bad([1])).toMatch(/^act: expected an object/);
  expect(bad({ requestId: 'r1' })).toBe('act: give exactly one of action, label or answer');
  expect(bad({ requestId: 'r1', action: 1, label: 'x' })).toBe('act: give exactly one of action, label or answer (got action and label)');
  expect(bad({ requestId: 42, action: 1 })).toMatch(/^act\.requestId: /);
  expect(bad({ requestId: 'bad id!', action: 1 })).toMatch(/^act\.requestId: letters, digits/);
  expect(bad({ requestId: 'r1', label: '' })).toMatch(/^act\.label: /);
  expect(bad({ requestId: 'r1', label: 'x', say: 5 })).toMatch(/^act\.say: /);
  expect(bad({ requestId: 'r1', answer: 'x', colour: 'red' })).toBe('act.colour: unknown key (an answer has requestId and answer)');
  expect(bad({ requestId: 'r1', label: 'x', colour: 'red' })).toBe('act.colour: unknown key (an answer by label has requestId, label and say)');
  for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
    expect(bad(JSON.parse(`{"requestId":"r1","action":1,"${name}":{"x":1}}`))).toBe(`act.${name}: unknown key (an answer by action has requestId and action)`);
  }
  // a prototype name is never a form: forms are own keys
  expect(bad(Object.create({ action: 1, requestId: 'r1' }))).toBe('act: give exactly one of action, label or answer');
});

test('tokens: unknown, of the wrong type, huge or released open nothing; the message never echoes them', async () => {
  for (const t of ['nope', 42, { token: 'x' }, ['a'], null, 'x'.repeat(10_000), '__proto__', 'constructor']) {
    const msg = await refusedAtConnect(t);
    expect(msg).toBe('unauthorized: unknown seat token');
  }
  const { slot, token } = server.play!.issue(`hostile-${++n}`, 'remote');
  expect(await refusedAtConnect(token)).toBe('connected');
  server.play!.release(slot);
  expect(await refusedAtConnect(token)).toBe('unauthorized: unknown seat token');
});

test("hostile answers during an open decision: each refused naming the field; another slot's, replayed and inherited request ids are stale", async () => {
  const env = defaultRegistry.env('deal-or-no-deal-v1');
  const params = env.resolveParams({});
  const a = server.play!.issue(`hostile-a-${++n}`, 'remote');
  const b = server.play!.issue(`hostile-b-${++n}`, 'remote');
  const agent = new RemoteAgent(server.play!, a.slot, 'remote', 'a');
  const sa = connect(a.token);
  const sb = connect(b.token);
  await Promise.all([new Promise((r) => sa.once('welcome', r)), new Promise((r) => sb.once('welcome', r))]);
  const decided = new Promise<DecideMessage>((r) => sa.once('decide', r));
  const match = runMatch({ env, params, seed: 3, agents: [agent, randomAgent.create({ env, params, seed: 1 })], bus, matchId: `hostile-${n}` });
  const d = await decided;
  const ask = (socket: Socket, ...args: unknown[]) => socket.timeout(5000).emitWithAck('act', ...args) as Promise<{ ok: boolean; code?: string; message?: string }>;
  const legal = d.legal![0];
  expect(await ask(sa, { requestId: d.requestId, action: legal.action, label: legal.label })).toMatchObject({ ok: false, code: 'bad-request', message: 'act: give exactly one of action, label or answer (got action and label)' });
  expect(await ask(sa, JSON.parse(`{"requestId":"${d.requestId}","action":${JSON.stringify(legal.action)},"__proto__":{"ok":true}}`))).toMatchObject({ ok: false, code: 'bad-request', message: 'act.__proto__: unknown key (an answer by action has requestId and action)' });
  expect(await ask(sa, { requestId: d.requestId, label: 12 })).toMatchObject({ ok: false, code: 'bad-request', message: expect.stringMatching(/^act\.label: /) });
  expect(await ask(sa, 'act', 'twice')).toMatchObject({ ok: false, code: 'bad-request', message: 'act: expected exactly one argument (an object)' });
  for (const id of ['constructor', '__proto__', 'toString']) expect(await ask(sa, { requestId: id, action: legal.action })).toMatchObject({ ok: false, code: 'stale' });
  let deep: unknown = 1;
  for (let i = 0; i < 3000; i++) deep = [deep];
  expect(await ask(sa, { requestId: d.requestId, answer: deep })).toEqual({ ok: false, code: 'bad-request', message: 'act: nested deeper than 64 levels', ref: 'act' });
  // another slot cannot answer this seat's decision
  expect(await ask(sb, { requestId: d.requestId, action: legal.action })).toMatchObject({ ok: false, code: 'stale', message: expect.stringMatching(/^act\.requestId: no open decision/) });
  // the seat still answers, once: a replay is stale
  expect(await ask(sa, { requestId: d.requestId, label: legal.label })).toEqual({ ok: true, requestId: d.requestId });
  expect(await ask(sa, { requestId: d.requestId, label: legal.label })).toMatchObject({ ok: false, code: 'stale' });
  server.play!.release(a.slot);
  server.play!.release(b.slot);
  await match;
  sa.close();
  sb.close();
}, 60_000);

test('the spectator namespace: deep and prototype-keyed payloads are refused naming the message, the connection lives', async () => {
  const socket = ioClient(url(), { transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((r) => socket.once('connect', () => r()));
  const ask = (name: string, arg: unknown) => socket.timeout(5000).emitWithAck(name, arg) as Promise<{ ok: boolean; code?: string; message?: string }>;
  let deep: unknown = 'public';
  for (let i = 0; i < 100; i++) deep = [deep]; // small (under the 4 KB message limit) but deep
  expect(await ask('join', { matchId: 'm1', view: deep })).toMatchObject({ ok: false, code: 'bad-request', message: 'join: nested deeper than 64 levels' });
  for (const name of ['__proto__', 'constructor', 'toString']) {
    expect(await ask('join', JSON.parse(`{"matchId":"m1","${name}":1}`))).toMatchObject({ ok: false, code: 'bad-request' });
    expect(await ask('join', { matchId: name })).toMatchObject({ ok: false, code: 'not-found' });
  }
  expect(await ask('subscribe', { channel: 'lobby' })).toMatchObject({ ok: true });
  socket.close();
});
