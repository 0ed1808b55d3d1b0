/**
 * The public view of a live hidden-role match, through the server (src/core/phase-release.ts):
 * a Werewolf game held in the middle of its first day. The public API and a spectator who joins
 * then see the game up to the night before; the day reaches the spectator — events and
 * observations — when it is due, all stamped with that time; the live summary moves per phase; the
 * agent list has no counts; a seat view (entitled) sees every move as it happens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { randomAgent } from '../../agents/random';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { defaultRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { MatchEvent } from '../../src/core/events';
import { releasedView } from '../../src/core/phase-release';
import { runMatch, type MatchResult } from '../../src/match/runner';
import type { MatchEventsResponse, MatchListResponse, MatchResponse } from '../../app/server/api-types';
import type { EventMessage, ObsMessage } from '../../app/server/protocol';
import { storedSummary } from '../../app/server/match-source';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store, type MatchRecord } from '../../src/store/store';
import { connect, watch } from './helpers';

const env = defaultRegistry.env('werewolf-v1');
const params = env.resolveParams({ preset: 'arena' });
const SEED = 7;
const names = (seat: number, team: string) => (team === 'werewolves' ? 'wolf-bot' : 'villager-bot');

/** The same game without a bus: the phase label of every step (the game is a function of seed and agents). */
async function phasesOf(): Promise<string[]> {
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  await runMatch({ env, params, seed: SEED, bus, matchId: 'dry', agents: (seats) => seats.map((s, i) => ({ ...randomAgent.create({ env, params, seed: i }), name: names(i, s.team) })) });
  rec.stop();
  return rec.events('dry').flatMap((e) => (e.type === 'turn' ? [e.phase!] : []));
}

describe('a live hidden-role match, public view', () => {
  let server: ArenaServer;
  let bus: EventBus;
  let recorder: MemoryRecorder;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    bus = new EventBus();
    recorder = new MemoryRecorder(bus);
    server = await startServer({ bus, port: 0, allowOmniscient: true });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server.close();
    recorder.stop();
  });

  test('held mid-day: API and late joiners see up to the night; the day arrives whole at its end, stamped with it', async () => {
    const phases = await phasesOf();
    const dayStart = phases.indexOf('day 1');
    const dayEnd = phases.indexOf('night 2');
    expect(dayEnd - dayStart).toBeGreaterThan(4);
    const holdAt = dayStart + 3; // three steps into the first day
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const wrap = (inner: Agent): Agent => ({
      name: inner.name,
      act: async (obs, legal, ctx) => {
        if (ctx.step === holdAt) {
          holding();
          await gate;
        }
        return inner.act(obs, legal, ctx);
      },
    });
    const matchId = 'ww-held';
    const done: Promise<MatchResult> = runMatch({
      env,
      params,
      seed: SEED,
      matchId,
      bus,
      agents: (seats) => seats.map((s, i) => wrap({ ...randomAgent.create({ env, params, seed: i }), name: names(i, s.team) })),
    });
    await held;
    const log = recorder.events(matchId);
    const firstDayTurn = log.find((e) => e.type === 'turn' && e.phase === 'day 1')!;

    // the HTTP API: up to the night; the step as of the last phase; the agents once each
    const api = (await (await fetch(`${server.url}api/matches/${matchId}/events?view=public`)).json()) as MatchEventsResponse;
    expect(api.events.length).toBeGreaterThan(0);
    expect(api.events.every((e) => e.type !== 'turn' || e.phase !== 'day 1')).toBe(true);
    expect(api.events.map((e) => e.seq)).toEqual(api.events.map((_, i) => i));
    expect(api.events.filter((e) => e.type === 'turn').every((e) => e.time === firstDayTurn.time)).toBe(true); // night 1, stamped with its end
    expect(api.observations.length).toBeGreaterThan(0);
    expect(api.observations.every((o) => o.step <= dayStart)).toBe(true);
    const summary = ((await (await fetch(`${server.url}api/matches/${matchId}`)).json()) as MatchResponse).match;
    expect(summary.step).toBe(dayStart);
    expect(summary.agents).toEqual(['villager-bot', 'wolf-bot']);
    // the health counters move per phase too: the day's decisions so far are not counted yet
    const health = (await (await fetch(`${server.url}api/health`)).json()) as { stream: { decisions: number; matchesStarted: number } };
    const nightActions = log.filter((e) => e.type === 'action' && e.seq < firstDayTurn.seq).length;
    expect(log.filter((e) => e.type === 'action').length).toBeGreaterThan(nightActions);
    expect(health.stream).toMatchObject({ decisions: nightActions, matchesStarted: 1 });
    const liveList = (await (await fetch(`${server.url}api/matches/live`)).json()) as MatchListResponse;
    expect(liveList.matches.find((m) => m.id === matchId)).toMatchObject({ step: dayStart, agents: ['villager-bot', 'wolf-bot'] });

    // a spectator joins now, and a seat (entitled to exact times) too
    const socket = await connect(server.url);
    sockets.push(socket);
    const obs: ObsMessage[] = [];
    const arrivals: { event: MatchEvent }[] = [];
    socket.on('obs', (m: ObsMessage) => m.view === 'public' && obs.push(m));
    socket.on('event', (m: EventMessage) => m.view === 'public' && arrivals.push({ event: m.event }));
    const pub = await watch(socket, matchId, 'public');
    expect(pub.snapshot.events).toEqual(api.events);
    const seatSocket = await connect(server.url);
    sockets.push(seatSocket);
    const seat = await watch(seatSocket, matchId, 'seat:1');
    expect(seat.snapshot.events.some((e) => e.type === 'turn' && e.phase === 'day 1')).toBe(true); // a player sees today so far
    release();
    const result = await done;
    await Promise.all([pub.ended, seat.ended]);

    // what the spectator got, snapshot + live, is the public replay of the finished match, time stamps included
    const full = recorder.events(matchId);
    const replay = releasedView(full, 'public', () => undefined).events;
    expect(pub.all().map(({ caption: _c, ...e }: MatchEvent & { caption?: string }) => e)).toEqual(replay);
    const replayApi = (await (await fetch(`${server.url}api/matches/${matchId}/events?view=public`)).json()) as MatchEventsResponse;
    expect(replayApi.events).toEqual(pub.all());
    // the first day came in one release, stamped with its due time: not before it ended
    const night2 = full.find((e) => e.type === 'turn' && e.phase === 'night 2')!;
    const dayTurns = arrivals.filter(({ event: e }) => e.type === 'turn' && e.phase === 'day 1');
    const stamp = dayTurns[0].event.time;
    expect(stamp).toBeGreaterThanOrEqual(night2.time);
    const day = arrivals.filter(({ event: e }) => e.time === stamp);
    expect(day.length).toBeGreaterThan(dayEnd - dayStart);
    expect(day.map(({ event: e }) => e.type === 'turn' && e.phase)).toContain('day 1');
    expect(day.every(({ event: e }) => e.type !== 'turn' || e.phase === 'day 1')).toBe(true);
    // its observations came with it, numbered after the events they follow
    const dayObs = obs.filter((o) => o.step > dayStart && o.step <= dayEnd);
    expect(dayObs.map((o) => o.step)).toEqual(Array.from({ length: dayEnd - dayStart }, (_, i) => dayStart + 1 + i));
    expect(pub.snapshot.observations.map((o) => o.step).concat(obs.map((o) => o.step))).toEqual(replayApi.observations.map((o) => o.step));
    // the seat view: the times of the log
    // (a type, step and seat can name two events of the log a millisecond apart: each key keeps all its times)
    const key = (e: MatchEvent) => `${e.type}/${'step' in e ? e.step : ''}/${'seat' in e ? e.seat : ''}`;
    const real = new Map<string, number[]>();
    for (const e of full) real.set(key(e), [...(real.get(key(e)) ?? []), e.time]);
    for (const e of seat.all()) expect(real.get(key(e))).toContain(e.time);
    expect(result.code).toBe('ok');
  });

  test('a match stored while its public view still waits is not in the recent list yet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-phase-'));
    const store = new Store(join(dir, 'a.db'));
    const b = new EventBus();
    const srv = await startServer({ bus: b, store, port: 0 });
    try {
      // a hidden-role log whose last phase is due well after its end: the runner is done, the public view is not
      const t = 1_000_000;
      const base = (seq: number, time: number) => ({ matchId: 'w', seq, time, visibility: 'public' as const });
      const log: MatchEvent[] = [
        { ...base(0, t), visibility: 'omniscient', type: 'match.created', env: 'werewolf-v1', params: {}, seed: 1, seats: [{ role: 'werewolf', team: 'werewolves', agent: 'a' }, { role: 'villager', team: 'villagers', agent: 'b' }] },
        { ...base(1, t), type: 'match.started', env: 'werewolf-v1', params: {}, agents: ['a', 'b'], seatsHidden: true, seats: 2 },
        { ...base(2, t), type: 'turn', step: 0, toAct: [0, 1], phase: 'night 1' },
        { ...base(3, t + 60_000), type: 'turn', step: 1, toAct: [0], phase: 'day 1' }, // a one-minute night sets the pace
        { ...base(4, t + 90_000), type: 'turn', step: 2, toAct: [1], phase: 'day 1' },
        { ...base(5, t + 120_000), type: 'match.ended', returns: [1, -1], outcome: 'werewolves', code: 'ok', length: 3, faults: 0 }, // the day is due at +180 s
      ];
      for (const e of log) b.publish(e);
      store.ensureLeague('L', {});
      store.recordMatch({ league: 'L', idx: 0, id: 'w', env: 'werewolf-v1', params: {}, seed: 1, seats: [{ player: 'a', role: 'werewolf', team: 'werewolves' }, { player: 'b', role: 'villager', team: 'villagers' }], returns: [1, -1], outcome: 'werewolves', code: 'ok', length: 3, faults: [], summary: null, startedAt: t, endedAt: t + 120_000 }, log, [], []);
      const recent = (await (await fetch(`${srv.url}api/matches/recent`)).json()) as MatchListResponse;
      expect(recent.matches.map((m) => m.id)).toEqual([]);
      const one = (await (await fetch(`${srv.url}api/matches/w`)).json()) as MatchResponse;
      expect(one.match).toMatchObject({ live: true, outcome: null, step: 1, agents: ['a', 'b'] });
      const events = (await (await fetch(`${srv.url}api/matches/w/events?view=public`)).json()) as MatchEventsResponse;
      expect(events.events.map((e) => e.type)).toEqual(['match.started', 'turn']); // night 1 only; the day is due in a minute
    } finally {
      await srv.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a stored hidden-role match lists its players once each; others by seat', () => {
    const rec = { id: 'x', env: 'werewolf-v1', seats: [{ player: 'b' }, { player: 'a' }, { player: 'b' }], length: 3, outcome: 'villagers', returns: [1, 1, -1], startedAt: 1, endedAt: 2, league: 'l' } as unknown as MatchRecord;
    expect(storedSummary(rec, (id) => defaultRegistry.env(id)).agents).toEqual(['a', 'b']);
    expect(storedSummary(rec).agents).toEqual(['b', 'a', 'b']); // env unknown here: as stored
    expect(storedSummary({ ...rec, env: 'deal-or-no-deal-v1' }, (id) => defaultRegistry.env(id)).agents).toEqual(['b', 'a', 'b']);
  });
});
