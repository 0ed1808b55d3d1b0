import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { teamsFromCreated } from '../../src/bus/view-filter';
import { projectEvents } from '../../src/core/view-stream';
import type { MatchCreated, MatchEvent } from '../../src/core/events';
import type { JsonValue } from '../../src/core/json';
import type { ObsMessage } from '../../app/server/protocol';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { loadEnv, rps } from '../fixtures/load';
import { afterEvents, connect, nextMessages, play, slowAgent, watch } from './helpers';

const env = rps();
const hidden = loadEnv('test/fixtures/hidden-card.js');

const seqs = (events: readonly MatchEvent[]) => events.map((e) => e.seq);
const teamOf = (events: readonly MatchEvent[]) => teamsFromCreated(events.find((e): e is MatchCreated => e.type === 'match.created'));

describe('spectator sockets', () => {
  let bus: EventBus;
  let recorder: MemoryRecorder;
  let server: ArenaServer;
  const clients: Socket[] = [];

  beforeEach(async () => {
    bus = new EventBus();
    recorder = new MemoryRecorder(bus);
    server = await startServer({ bus, port: 0 });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    await server.close();
    recorder.stop();
  });
  const client = async () => {
    const c = await connect(server.url);
    clients.push(c);
    return c;
  };

  test('late joiners get the match so far, then live events: no gap, no duplicate', async () => {
    const matchId = 'late-join-1';
    // a watcher joins after every 20 more events: mid-match joins whatever the machine's speed
    const progress = afterEvents(bus, matchId, 1);
    const done = play(env, bus, { matchId, params: { rounds: 99 }, agents: [slowAgent(10), slowAgent(10)] });
    await progress;
    const watches = [];
    for (let i = 0; i < 8; i++) {
      await afterEvents(bus, matchId, 20);
      watches.push(await watch(await client(), matchId));
    }
    await done;
    await Promise.all(watches.map((w) => w.ended));
    const full = recorder.events(matchId);
    const expected = projectEvents(full, 'public', teamOf(full));
    expect(expected.length).toBeGreaterThan(100);
    // joins really happened mid-match (each snapshot a strict prefix), and every watcher got it all exactly once
    const midMatch = watches.filter((w) => w.snapshot.live && w.snapshot.upTo > 0 && w.snapshot.upTo < full[full.length - 1].seq);
    expect(midMatch.length).toBe(8);
    for (const w of watches) {
      expect(w.live.every((e) => e.seq > w.snapshot.upTo)).toBe(true);
      expect(seqs(w.all())).toEqual(seqs(expected));
      expect(w.all()).toEqual(expected);
    }
  });

  test('a public view never carries private actions or the hidden seat roles', async () => {
    const matchId = 'hidden-1';
    const done = play(hidden, bus, { matchId, seed: 5, agents: [slowAgent(20), slowAgent(20)] });
    const w = await watch(await client(), matchId);
    await done;
    await w.ended;
    const got = w.all();
    expect(got.length).toBeGreaterThan(3);
    expect(got.every((e) => e.visibility === 'public')).toBe(true);
    expect(got.some((e) => e.type === 'match.created' || e.type === 'action')).toBe(false);
    expect(recorder.events(matchId).some((e) => e.type === 'action')).toBe(true);
  });

  test('omniscient and seat views of a live match are refused; allowed once it ended', async () => {
    const matchId = 'refuse-1';
    const long = play(env, bus, { matchId, params: { rounds: 99 }, agents: [slowAgent(20), slowAgent(20)] });
    const c = await client();
    await expect(watch(c, matchId, 'omniscient')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(watch(c, matchId, { seat: 0 })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(watch(c, matchId, 'seat:1')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(watch(c, 'no-such-match')).rejects.toMatchObject({ code: 'not-found' });
    expect(server.live.get(matchId)?.ended).toBeUndefined(); // the refusals really happened while it was live
    await long;
    await play(hidden, bus, { matchId: 'refuse-2', seed: 5, agents: [slowAgent(1), slowAgent(1)] });
    for (const id of [matchId, 'refuse-2']) {
      const full = recorder.events(id);
      const omni = await watch(c, id, 'omniscient');
      expect(omni.snapshot.live).toBe(false);
      expect(omni.snapshot.events).toEqual(full);
      const seat0 = await watch(c, id, { seat: 0 });
      expect(seat0.snapshot.events).toEqual(projectEvents(full, 0, teamOf(full)));
    }
    const seat0 = await watch(c, 'refuse-2', { seat: 0 });
    const actions = seat0.snapshot.events.filter((e) => e.type === 'action');
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((e) => e.type === 'action' && e.seat === 0)).toBe(true);
    await expect(watch(c, matchId, { seat: 7 })).rejects.toMatchObject({ code: 'bad-request' });
  });

  test('with allowOmniscient, live omniscient and seat views get exactly their filtered events', async () => {
    await server.close();
    server = await startServer({ bus, port: 0, allowOmniscient: true });
    const matchId = 'omni-live-1';
    const started = afterEvents(bus, matchId, 1);
    const done = play(hidden, bus, { matchId, seed: 2, agents: [slowAgent(20), slowAgent(20)] });
    await started;
    const c = await client();
    const omni = await watch(c, matchId, 'omniscient');
    const seat1 = await watch(c, matchId, 'seat:1');
    await done;
    await Promise.all([omni.ended, seat1.ended]);
    const full = recorder.events(matchId);
    expect(omni.all()).toEqual(full);
    expect(seat1.all()).toEqual(projectEvents(full, 1, teamOf(full)));
  });

  test('a replay from the SQLite event log equals the live view', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-server-'));
    const store = new Store(join(dir, 'a.db'));
    try {
      const matchId = 'stored-1';
      const w = await (async () => {
        const started = afterEvents(bus, matchId, 1);
        const done = play(hidden, bus, { matchId, seed: 3, agents: [slowAgent(10), slowAgent(10)] });
        await started;
        const live = await watch(await client(), matchId);
        const r = await done;
        await live.ended;
        const events = recorder.events(matchId);
        store.recordMatch(
          { league: 'L', idx: 0, id: matchId, env: r.env, params: JSON.parse(JSON.stringify(r.params)) as JsonValue, seed: r.seed, seats: r.seats.map((s, i) => ({ player: r.agents[i], ...s })), returns: r.returns, outcome: r.outcome, code: r.code, length: r.length, faults: r.faults, summary: r.summary, startedAt: events[0].time, endedAt: events[events.length - 1].time },
          events,
          [],
          [],
        );
        return live;
      })();
      // a fresh server with an empty bus: the match exists only in the store
      const bus2 = new EventBus();
      const server2 = await startServer({ bus: bus2, store, port: 0 });
      try {
        const c = await connect(server2.url);
        clients.push(c);
        const replay = await watch(c, matchId);
        expect(replay.snapshot.live).toBe(false);
        expect(replay.snapshot.events).toEqual(w.all());
        const omni = await watch(c, matchId, 'omniscient');
        expect(omni.snapshot.events).toEqual(recorder.events(matchId));
        const res = await fetch(`${server2.url}api/matches/${matchId}/events?view=public`);
        expect(((await res.json()) as { events: MatchEvent[] }).events).toEqual(w.all());
      } finally {
        await server2.close();
      }
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a flood of malformed messages gets errors and leaves the server serving others', async () => {
    const matchId = 'flood-1';
    const flooder = await client();
    const errors: { code: string }[] = [];
    flooder.on('error', (e: { code: string }) => errors.push(e));
    const firstErrors = nextMessages<{ code: string }>(flooder, 'error', 6);
    const started = afterEvents(bus, matchId, 1);
    const done = play(env, bus, { matchId, params: { rounds: 30 }, agents: [slowAgent(3), slowAgent(3)] });
    await started;
    // a few of each kind, answered before the rate limit bites
    flooder.emit('join', 'not an object');
    flooder.emit('join', { matchId: '../../etc/passwd' });
    flooder.emit('join', { matchId, view: 'god-mode' });
    flooder.emit('join', { matchId, extra: true });
    flooder.emit('act', { seat: 0, action: 1 });
    flooder.emit('join', { matchId: 'x'.repeat(10_000) });
    await firstErrors;
    expect(errors.map((e) => e.code)).toEqual(['bad-request', 'bad-request', 'bad-request', 'bad-request', 'forbidden', 'too-large']);
    const watcher = await client();
    const w = await watch(watcher, matchId);
    // now the flood: thousands of junk messages, some oversized, some raw garbage packets
    for (let i = 0; i < 3000; i++) {
      if (i % 3 === 0) flooder.emit('nonsense', { i });
      else if (i % 3 === 1) flooder.emit('join', { matchId: i });
      else flooder.emit('subscribe', { channel: 'x'.repeat(5000) });
    }
    (flooder.io.engine as unknown as { write(d: string): void }).write('42[garbage');
    await done;
    await w.ended;
    const full = recorder.events(matchId);
    expect(w.all()).toEqual(projectEvents(full, 'public', teamOf(full)));
    expect(errors.some((e) => e.code === 'rate-limited')).toBe(true);
    // the server still answers new clients and HTTP
    const late = await watch(await client(), matchId);
    expect(late.snapshot.events).toEqual(w.all());
    const health = (await (await fetch(`${server.url}api/health`)).json()) as { ok: boolean };
    expect(health.ok).toBe(true);
  });

  test('the lobby channel announces matches as they start and end', async () => {
    const c = await client();
    const lobby: { kind: string; match: { id: string; env: string } }[] = [];
    c.on('lobby', (m: (typeof lobby)[number]) => lobby.push(m));
    const sub = (await c.timeout(2000).emitWithAck('subscribe', { channel: 'lobby' })) as { ok: boolean; live: unknown[] };
    expect(sub).toEqual({ ok: true, channel: 'lobby', live: [] });
    const announced = nextMessages(c, 'lobby', 2);
    await play(env, bus, { matchId: 'lobby-1', agents: [slowAgent(1), slowAgent(1)] });
    await announced;
    expect(lobby.map((m) => `${m.kind}:${m.match.id}:${m.match.env}`)).toEqual(['started:lobby-1:rock-paper-scissors-v1', 'ended:lobby-1:rock-paper-scissors-v1']);
  });

  test('the league channel carries the events of its league only (league events name their league, not a match)', async () => {
    const c = await client();
    await c.timeout(5000).emitWithAck('subscribe', { channel: 'league', league: 'L1' });
    const got = nextMessages<{ league: string; event: { type: string; league?: string; run?: string } }>(c, 'league', 2);
    const base = { seq: 0, time: Date.now(), visibility: 'public' as const, data: {} };
    bus.publish({ type: 'rating.updated', league: 'L2', ...base }); // another league
    bus.publish({ type: 'training.iteration', run: 'solo-run', ...base }); // a standalone run: no league room
    bus.publish({ type: 'rating.updated', league: 'L1', ...base });
    bus.publish({ type: 'training.iteration', run: 'L1/neural', league: 'L1', ...base });
    expect((await got).map((m) => [m.league, m.event.type, m.event.league, m.event.run])).toEqual([
      ['L1', 'rating.updated', 'L1', undefined],
      ['L1', 'training.iteration', 'L1', 'L1/neural'],
    ]);
  });

  test('observations: env.observe per view after each step, live and replayed alike', async () => {
    await server.close();
    const resolveEnv = (id: string) => (id === hidden.meta.id ? hidden : undefined);
    server = await startServer({ bus, port: 0, allowOmniscient: true, resolveEnv });
    const matchId = 'obs-1';
    const started = afterEvents(bus, matchId, 1);
    const done = play(hidden, bus, { matchId, seed: 4, agents: [slowAgent(15), slowAgent(15)] });
    await started;
    const c = await client();
    const obs: ObsMessage[] = [];
    c.on('obs', (m: ObsMessage) => obs.push(m));
    const pub = await watch(c, matchId, 'public');
    const seat0 = await watch(c, matchId, 'seat:0');
    const r = await done;
    await Promise.all([pub.ended, seat0.ended]);
    const cards = (r.finalState as { cards: number[] }).cards;
    const livePub = [...pub.snapshot.observations, ...obs.filter((o) => o.view === 'public').map(({ seq, step, obs: o }) => ({ seq, step, obs: o }))];
    expect(livePub.map((o) => o.step)).toEqual([...Array(r.length + 1).keys()]);
    expect(livePub.every((o) => (o.obs as { myCard: unknown }).myCard === null)).toBe(true);
    const liveSeat0 = [...seat0.snapshot.observations, ...obs.filter((o) => o.view === 'seat:0').map(({ seq, step, obs: o }) => ({ seq, step, obs: o }))];
    expect(liveSeat0.every((o) => (o.obs as { myCard: unknown }).myCard === cards[0])).toBe(true);
    // a late replay of the finished match gives the same observations
    const replay = await watch(await client(), matchId, 'public');
    expect(replay.snapshot.observations).toEqual(livePub);
  });
});
