/**
 * The /play namespace: token auth, a remote bot (the JS SDK) playing whole matches with only
 * its own view, the three answer forms, deadlines, disconnect and reconnect, human bounce, abuse.
 */
import { io as ioClient } from 'socket.io-client';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { teamsFromCreated } from '../../src/bus/view-filter';
import { defaultRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { MatchCreated, MatchEvent } from '../../src/core/events';
import { projectEvents } from '../../src/core/view-stream';
import type { FaultPolicy } from '../../src/match/fault-policy';
import { runMatch, type MatchResult } from '../../src/match/runner';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { RemoteAgent } from '../../app/server/play/remote-agent';
import type { DecideMessage, PlayEventMessage } from '../../app/server/play/play-protocol';
import { connectSeat, type SeatAnswer } from '../../app/client/seat-client';
import { findByToken, tokenDigest, tokenMatches } from '../../app/server/play/seat-tokens';
import { randomAgent } from '../../agents/random';
import { EventCaptions } from '../../app/server/event-captions';
import { trackLog } from '../../app/server/state-tracker';

let server: ArenaServer;
let bus: EventBus;
let rec: MemoryRecorder;
beforeAll(async () => {
  bus = new EventBus();
  rec = new MemoryRecorder(bus);
  server = await startServer({ bus, port: 0, play: { reconnectMs: 1500 } });
});
afterAll(async () => {
  rec.stop();
  await server.close();
});

const hub = () => server.play!;
const url = () => server.url.replace(/\/$/, '');
let n = 0;

/** A remote seat: its agent, and its token. */
function seat(kind: 'remote' | 'human' = 'remote'): { agent: Agent; token: string } {
  const { slot, token } = hub().issue(`test-${kind}-${++n}`, kind);
  return { agent: new RemoteAgent(hub(), slot, kind, `t${n}`), token };
}

function playMatch(envId: string, params: unknown, agents: Agent[], o: { deadlineMs?: number; faultPolicy?: FaultPolicy; seed?: number } = {}): Promise<MatchResult> {
  const env = defaultRegistry.env(envId);
  const p = env.resolveParams(params);
  return runMatch({ env, params: p, seed: o.seed ?? 2, agents, bus, matchId: `play-${++n}`, deadlineMs: o.deadlineMs, faultPolicy: o.faultPolicy });
}

const rnd = (envId: string, seed = 1) => {
  const env = defaultRegistry.env(envId);
  return randomAgent.create({ env, params: env.resolveParams({}), seed });
};

const teamOf = (events: MatchEvent[]) => teamsFromCreated(events.find((e): e is MatchCreated => e.type === 'match.created'));

/** A seat's events with the env's words, as the server captions them for every view. */
function withCaptions(envId: string, log: MatchEvent[], events: MatchEvent[]): MatchEvent[] {
  const env = defaultRegistry.env(envId);
  const captions = new EventCaptions(env, trackLog(log, () => env));
  return events.map((e) => captions.attach(e));
}

test('a bad token is refused at connect; the message does not echo it', async () => {
  const socket = ioClient(url() + '/play', { auth: { token: 'not-a-token-123' }, transports: ['websocket'], reconnection: false, forceNew: true });
  const err = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
  socket.close();
  expect(err.message).toMatch(/unauthorized/);
  expect(err.message).not.toContain('not-a-token-123');
});

test('a remote bot plays a whole Deal-or-No-Deal: named legal actions, only its own view, numbered 0, 1, 2...', async () => {
  const { agent, token } = seat();
  const decisions: DecideMessage[] = [];
  const events: PlayEventMessage[] = [];
  let ended!: () => void;
  const endedSeen = new Promise<void>((r) => (ended = r));
  const seatEvents: MatchEvent[] = [];
  const client = connectSeat({
    onSeat: (m) => seatEvents.push(...m.events),
    url: url(),
    token,
    decide: (d) => {
      decisions.push(d);
      const agree = d.legal!.find((l) => l.label === 'agree');
      return agree ? { label: 'AGREE' } : { label: d.legal![d.legal!.length - 1].label };
    },
    onEvent: (m) => {
      events.push(m);
      if (m.event.type === 'match.ended') ended();
    },
  });
  const welcome = await client.ready;
  expect(welcome).toMatchObject({ kind: 'remote', seats: [] });
  expect(JSON.stringify(welcome)).not.toContain(token);
  const dond = 'deal-or-no-deal-v1';
  const result = await playMatch(dond, {}, [agent, rnd(dond)]);
  expect(result.code).toBe('ok');
  expect(result.faults).toEqual([]);
  expect(decisions.length).toBeGreaterThan(0);
  expect(decisions[0]).toMatchObject({ env: dond, seat: 0, role: 'negotiator', bounce: false, open: null });
  // each legal action: its name, and the env's note for this seat (what it is worth to it)
  expect(decisions[0].legal![0]).toEqual({ action: 0, label: 'keep 0 books, 0 hats and 0 balls', note: 'worth 0 to you' });
  for (const l of decisions[0].legal!) expect(l.note).toMatch(/^worth \d+ to you$/);
  expect(decisions[0].text).toMatch(/Your values/);
  // what the seat received is exactly its view of the log, in its own numbering
  const log = rec.events(result.matchId);
  const mine = withCaptions(dond, log, projectEvents(log, 0, teamOf(log)));
  await endedSeen;
  // the events before the seat was bound (match.started) came in the seat message, the rest live
  const got = [...seatEvents, ...events.filter((m) => m.matchId === result.matchId).map((m) => m.event)];
  expect(got.map((e) => e.seq)).toEqual(mine.map((_, i) => i));
  expect(got).toEqual(JSON.parse(JSON.stringify(mine)));
  // in the env's words, as spectators get them: actions by name, offers as the env says them
  expect(got.filter((e) => e.type === 'action').every((e) => /^P[01]: (agree|keep .*)$/.test((e as { caption?: string }).caption ?? ''))).toBe(true);
  for (const e of got) expect(e.visibility === 'public' || JSON.stringify(e.visibility) === '{"seat":0}').toBe(true);
  client.close();
});

test('Werewolf: a remote seat never receives another seat\'s private events, and its numbering has no gaps', async () => {
  const { agent, token } = seat();
  const got: MatchEvent[] = [];
  const seatMsgs: MatchEvent[][] = [];
  const client = connectSeat({ url: url(), token, decide: (d) => ({ action: d.legal![0].action }), onEvent: (m) => got.push(m.event), onSeat: (m) => seatMsgs.push(m.events) });
  await client.ready;
  const ww = 'werewolf-v1';
  const env = defaultRegistry.env(ww);
  const params = env.resolveParams({ preset: 'arena' });
  const result = await runMatch({ env, params, seed: 5, bus, matchId: `ww-${++n}`, agents: (seats) => seats.map((_, i) => (i === 2 ? agent : randomAgent.create({ env, params, seed: i }))) });
  const log = rec.events(result.matchId);
  const mine = withCaptions(ww, log, projectEvents(log, 2, teamOf(log)));
  for (let i = 0; i < 100 && seatMsgs.flat().length + got.length < mine.length; i++) await new Promise((r) => setTimeout(r, 20));
  const all = [...seatMsgs[seatMsgs.length - 1], ...got];
  expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i));
  expect(all).toEqual(JSON.parse(JSON.stringify(mine)));
  const team = teamOf(log)(2);
  for (const e of all) {
    const v = e.visibility as unknown;
    expect(v === 'public' || JSON.stringify(v) === '{"seat":2}' || JSON.stringify(v) === JSON.stringify({ team })).toBe(true);
  }
  client.close();
});

test('answers by action, by name with speech, and open answers through the env template', async () => {
  // Countdown solver (open set): an expression as an open answer
  const cd = 'countdown-v1';
  const s1 = seat();
  const c1 = connectSeat({ url: url(), token: s1.token, decide: (d) => ({ answer: d.open ? '1 + 2' : 'x' }) });
  await c1.ready;
  const r1 = await playMatch(cd, {}, [s1.agent]);
  expect(r1.code).toBe('ok');
  expect((r1.summary as { attempts: { answer: string }[] }).attempts[0].answer).toBe('1 + 2');
  c1.close();
  // Werewolf speech: a legal action by name with free text becomes {act, text}, spoken as a message
  const ww = 'werewolf-v1';
  const env = defaultRegistry.env(ww);
  const params = env.resolveParams({ preset: 'arena' });
  let spoke = false;
  for (let seed = 1; seed < 20 && !spoke; seed++) {
    const s2 = seat();
    const c2 = connectSeat({
      url: url(),
      token: s2.token,
      decide: (d) => {
        const names = d.legal!.map((l) => l.label);
        const pick = names.find((x) => x.startsWith('accuse')) ?? names.filter((x) => x.startsWith('bid')).pop() ?? names[0];
        return d.speech ? { label: pick, say: 'Watch P3 closely.' } : { label: pick };
      },
    });
    await c2.ready;
    const r2 = await runMatch({ env, params, seed, bus, deadlineMs: 3000, matchId: `ww-say-${++n}`, agents: (seats) => seats.map((_, i) => (i === 0 ? s2.agent : randomAgent.create({ env, params, seed: i }))) });
    expect(r2.faults).toEqual([]);
    spoke = rec.events(r2.matchId).some((e) => e.type === 'message' && e.seat === 0 && e.text === 'Watch P3 closely.');
    c2.close();
  }
  expect(spoke).toBe(true);
});

test('no answer before the deadline: a timeout fault, and the seat is told the decision is cancelled', async () => {
  const s = seat();
  const cancels: string[] = [];
  const c = connectSeat({ url: url(), token: s.token, decide: () => new Promise<SeatAnswer>(() => {}), onCancel: (m) => cancels.push(m.reason) });
  await c.ready;
  const dond = 'deal-or-no-deal-v1';
  const r = await playMatch(dond, {}, [s.agent, rnd(dond)], { deadlineMs: 200 });
  expect(r.code).toBe('forfeit');
  expect(r.faults[0]).toMatchObject({ seat: 0, kind: 'timeout' });
  for (let i = 0; i < 100 && !cancels.length; i++) await new Promise((res) => setTimeout(res, 20));
  expect(cancels).toEqual(['deadline']);
  c.close();
});

test('a disconnect during a decision: reconnecting in time resumes; staying away is a fault', async () => {
  const dond = 'deal-or-no-deal-v1';
  // resumes: the first decision drops the connection, the reconnected socket gets it again and answers
  const s = seat();
  let asked = 0;
  const c = connectSeat({
    url: url(),
    token: s.token,
    decide: (d) => {
      asked++;
      if (asked === 1) {
        c.socket.disconnect();
        setTimeout(() => c.socket.connect(), 100);
        return new Promise<SeatAnswer>(() => {});
      }
      return { action: d.legal![0].action };
    },
  });
  await c.ready;
  const r = await playMatch(dond, {}, [s.agent, rnd(dond)], { deadlineMs: 5000 });
  expect(r.faults).toEqual([]);
  expect(r.code).toBe('ok');
  expect(asked).toBeGreaterThan(1);
  c.close();
  // gone for good: the decision fails after the reconnect window (1.5 s here), as a fault
  const g = seat();
  const c2 = connectSeat({ url: url(), token: g.token, reconnection: false, decide: () => {
    c2.socket.disconnect();
    return new Promise<SeatAnswer>(() => {});
  } });
  await c2.ready;
  const r2 = await playMatch(dond, {}, [g.agent, rnd(dond)], { deadlineMs: 20_000 });
  expect(r2.code).toBe('forfeit');
  expect(r2.faults[0]).toMatchObject({ seat: 0, kind: 'error' });
  expect(r2.faults[0].reason).toMatch(/remote seat disconnected \(no reconnect within 1500 ms\)/);
});

test('a human seat: an answer the env rejects bounces back with the reason; the decision stays open', async () => {
  const dond = 'deal-or-no-deal-v1';
  const s = seat('human');
  const replies: unknown[] = [];
  let k = 0;
  const c = connectSeat({
    url: url(),
    token: s.token,
    decide: (d) => (k++ === 0 ? { action: 999 } : { action: d.legal![0].action }),
    onReply: (r, d) => {
      replies.push(r);
      if (!r.ok) void c.socket.emitWithAck('act', { requestId: d.requestId, label: d.legal![1].label }).then((x) => replies.push(x));
    },
  });
  await c.ready;
  const r = await playMatch(dond, {}, [s.agent, rnd(dond)], { deadlineMs: 10_000 });
  expect(r.faults).toEqual([]);
  expect(replies[0]).toMatchObject({ ok: false, code: 'invalid-answer' });
  expect((replies[0] as { message: string }).message).toMatch(/999/);
  expect(replies[1]).toMatchObject({ ok: true });
  c.close();
});

test('bad messages get errors naming the problem; the seat can still play', async () => {
  const s = seat();
  const socket = ioClient(url() + '/play', { auth: { token: s.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise((r) => socket.once('welcome', r));
  const ask = (name: string, ...args: unknown[]) => socket.timeout(3000).emitWithAck(name, ...args) as Promise<{ ok: boolean; code: string; message: string }>;
  expect(await ask('join', { matchId: 'x' })).toMatchObject({ ok: false, code: 'unknown-message' });
  expect(await ask('act', { requestId: 'r1' })).toMatchObject({ ok: false, code: 'bad-request' });
  expect((await ask('act', { requestId: 'r1' })).message).toMatch(/act: /);
  expect(await ask('act', { requestId: 'r1', action: 3 })).toMatchObject({ ok: false, code: 'stale' });
  expect(await ask('act', { requestId: 'r1', answer: 'x'.repeat(40_000) })).toMatchObject({ ok: false, code: 'too-large' });
  expect(await ask('act', { requestId: 'bad id!', action: 1 })).toMatchObject({ ok: false, code: 'bad-request' });
  // a flood is throttled (answers to decisions that were sent are never counted against it)
  const flood = await Promise.all(Array.from({ length: 80 }, () => ask('act', { requestId: 'r2', action: 1 })));
  expect(flood.some((r) => r.code === 'rate-limited')).toBe(true);
  socket.close();
});

test('tokens: only the issued one opens its slot (digest compare), whatever is presented', () => {
  const a = hub().issue(`tok-a-${++n}`, 'remote');
  const b = hub().issue(`tok-b-${++n}`, 'remote');
  expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(a.token).not.toBe(b.token);
  const entries = [
    { id: 'a', digest: tokenDigest(a.token) },
    { id: 'b', digest: tokenDigest(b.token) },
  ];
  expect(findByToken(entries, a.token)?.id).toBe('a');
  expect(findByToken(entries, b.token)?.id).toBe('b');
  expect(findByToken(entries, a.token.slice(0, -1))).toBeNull();
  expect(findByToken(entries, a.token + 'x')).toBeNull();
  for (const bad of [undefined, null, 42, '', { token: a.token }, 'x'.repeat(300)]) expect(findByToken(entries, bad)).toBeNull();
  expect(tokenMatches(a.token, tokenDigest(a.token))).toBe(true);
  expect(() => hub().issue(`tok-a-${n - 1}`, 'remote')).toThrow(/already exists/);
});
