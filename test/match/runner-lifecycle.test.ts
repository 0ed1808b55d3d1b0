/**
 * The runner around the decisions: effects (handlers, failures, aborts), per-decision
 * rewards, env and hook failures (MatchFailureError naming the member), agents chosen from the
 * seats, seat contexts, the heartbeat of a watched worker, and the events of a full match.
 */
import { getEventListeners } from 'node:events';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import type { Agent, AgentContext } from '../../src/core/agent';
import type { EffectContext } from '../../src/core/effects';
import { EFFECT_SEAT } from '../../src/core/env';
import type { MatchEvent } from '../../src/core/events';
import { createHeartbeatBuffer, installHeartbeat, Phase, readHeartbeat } from '../../src/core/heartbeat';
import { Rng, deriveSeed } from '../../src/core/rng';
import { MatchFailureError } from '../../src/match/match-failure';
import { runMatch } from '../../src/match/runner';
import { scriptedAgent } from '../../agents/scripted';
import { turnsEnv } from './turns-env';

const one = scriptedAgent('one', () => 1);
const two = scriptedAgent('two', () => 2);

describe('effects', () => {
  test('the handler gets the request and its context; the result is applied as the effect seat\'s action', async () => {
    const env = turnsEnv({ effect: 'roll' });
    const controller = new AbortController();
    const contexts: (Omit<EffectContext, 'signal'> & { request: unknown; aborted: boolean })[] = [];
    const seen: unknown[] = [];
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const r = await runMatch({
      env,
      params: {},
      seed: 5,
      agents: [one, two],
      bus,
      matchId: 'e1',
      signal: controller.signal,
      effects: { roll: async (request, ctx) => (contexts.push({ request, matchId: ctx.matchId, env: ctx.env, step: ctx.step, seed: ctx.seed, aborted: ctx.signal.aborted }), ctx.step * 10) },
      onEffect: (e) => seen.push(e),
    });
    expect(r).toMatchObject({ code: 'ok', outcome: 'done', length: 4, decisions: 2, returns: [1, 2], faults: [] });
    expect((r.finalState as { results: unknown[] }).results).toEqual([0, 20]);
    expect(contexts).toEqual([
      { request: { step: 0 }, matchId: 'e1', env: 'turns-v1', step: 0, seed: deriveSeed(5, 'effect', 0), aborted: false },
      { request: { step: 1 }, matchId: 'e1', env: 'turns-v1', step: 2, seed: deriveSeed(5, 'effect', 2), aborted: false },
    ]);
    expect(seen).toEqual([
      { step: 0, kind: 'roll', result: 0 },
      { step: 2, kind: 'roll', result: 20 },
    ]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const events = rec.events('e1');
    expect(events.filter((e) => e.type === 'turn').map((e) => (e as { toAct: number[] }).toAct)).toEqual([[EFFECT_SEAT], [0], [EFFECT_SEAT], [1]]);
    expect(events.filter((e) => e.type === 'action').map((e) => [(e as { seat: number }).seat, (e as { action: unknown }).action])).toEqual([
      [EFFECT_SEAT, 0],
      [0, 1],
      [EFFECT_SEAT, 20],
      [1, 2],
    ]);
  });

  test('without onEffect the effect is applied all the same', async () => {
    const env = turnsEnv({ effect: 'roll' });
    const r = await runMatch({ env, params: {}, seed: 5, agents: [one, two], effects: { roll: async () => 3 } });
    expect(r).toMatchObject({ code: 'ok', faults: [], length: 4 });
    expect((r.finalState as { results: unknown[] }).results).toEqual([3, 3]);
  });

  test('a throwing effect() is a MatchFailureError naming it', async () => {
    const env = turnsEnv({ effect: 'roll', members: { effect: () => { throw new Error('effect broke'); } } });
    await expect(runMatch({ env, params: {}, seed: 5, agents: [one, two], effects: { roll: async () => 1 } })).rejects.toMatchObject({ name: 'MatchFailureError', member: 'effect', step: 0 });
  });

  test('turn events carry the env\'s phase label (effect turns too); none without `phase`; a throwing phase is named', async () => {
    type T = { moves: unknown[]; results: unknown[] };
    const env = turnsEnv({ effect: 'roll', members: { phase: (s: T) => `round ${s.moves.length + s.results.length}` } as never });
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    await runMatch({ env, params: {}, seed: 5, agents: [one, two], bus, matchId: 'ph', effects: { roll: async () => 1 } });
    expect(rec.events('ph').flatMap((e) => (e.type === 'turn' ? [[e.toAct[0], e.phase]] : []))).toEqual([
      [EFFECT_SEAT, 'round 0'],
      [0, 'round 1'],
      [EFFECT_SEAT, 'round 2'],
      [1, 'round 3'],
    ]);
    await runMatch({ env: turnsEnv(), params: {}, seed: 5, agents: [one, two], bus, matchId: 'np' });
    expect(rec.events('np').filter((e) => e.type === 'turn').every((e) => !('phase' in e))).toBe(true);
    const broken = turnsEnv({ members: { phase: () => { throw new Error('no phase'); } } as never });
    await expect(runMatch({ env: broken, params: {}, seed: 5, agents: [one, two], bus })).rejects.toMatchObject({ name: 'MatchFailureError', member: 'phase', step: 0 });
  });

  const failing = async (handlers: Parameters<typeof runMatch>[0]['effects'], reason: string) => {
    const env = turnsEnv({ effect: 'roll' });
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const r = await runMatch({ env, params: {}, seed: 5, agents: [one, two], effects: handlers, bus, matchId: 'ef' });
    expect(r).toMatchObject({ code: 'aborted', outcome: 'effect-failed', length: 0, returns: [0, 0] });
    expect(r.faults).toEqual([{ step: 0, seat: EFFECT_SEAT, kind: 'error', reason, attempt: 0, resolution: 'forfeit' }]);
    const fault = rec.events('ef').find((e: MatchEvent) => e.type === 'fault');
    expect(fault).toMatchObject({ visibility: 'omniscient', seat: EFFECT_SEAT, reason });
    expect(rec.events('ef').at(-1)).toMatchObject({ type: 'match.ended', outcome: 'effect-failed', code: 'aborted', faults: 1 });
  };

  test('no handler for the kind ends the match', async () => {
    await failing(undefined, 'no handler for effect "roll" (run the match with the catalog\'s effect handlers)');
    await failing({ other: async () => 1 }, 'no handler for effect "roll" (run the match with the catalog\'s effect handlers)');
  });

  test('a result the env rejects ends the match', async () => {
    await failing({ roll: async () => 'six' }, 'effect "roll" gave a result the env rejects: "six" is not a number');
  });

  test('a throwing handler ends the match, with its message', async () => {
    await failing({ roll: async () => { throw new Error('sandbox gone'); } }, 'effect "roll" failed: sandbox gone');
    await failing({ roll: () => Promise.reject('plain') }, 'effect "roll" failed: plain');
  });

  test('stopping the match aborts the handler\'s signal; its answer or failure then counts as aborted', async () => {
    const env = turnsEnv({ effect: 'roll' });
    for (const how of ['answers', 'throws'] as const) {
      const controller = new AbortController();
      let reason: unknown = null;
      const roll = (_req: unknown, ctx: EffectContext) =>
        new Promise<number>((resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            if (how === 'answers') resolve(1);
            else reject(new Error('killed'));
          });
          setImmediate(() => controller.abort());
        });
      const r = await runMatch({ env, params: {}, seed: 5, agents: [one, two], effects: { roll }, signal: controller.signal });
      expect(r).toMatchObject({ code: 'aborted', outcome: 'aborted', length: 0, faults: [] });
      expect((reason as Error).message).toBe('match stopped');
    }
  });
});

test('per-decision rewards are kept with the step that earned them', async () => {
  const env = turnsEnv({ rewards: true, simultaneous: true });
  const r = await runMatch({ env, params: {}, seed: 1, agents: [one, two] });
  expect(r.rewards).toEqual([
    { seat: 0, value: 1, step: 0 },
    { seat: 1, value: 2, step: 0 },
    { seat: 0, value: 1, step: 1 },
    { seat: 1, value: 2, step: 1 },
  ]);
  expect((await runMatch({ env: turnsEnv(), params: {}, seed: 1, agents: [one, two] })).rewards).toEqual([]);
});

describe('failures of env members and hooks', () => {
  test.each(['init', 'seats', 'toAct', 'observe', 'legalActions', 'step', 'isTerminal', 'returns', 'outcome', 'summary', 'publicParams', 'actionVisibility'])(
    'a throwing %s is a MatchFailureError naming it',
    async (member) => {
      const env = turnsEnv({ members: { [member]: () => { throw new Error(`${member} broke`); } } });
      const bus = new EventBus();
      new MemoryRecorder(bus);
      const err = await runMatch({ env, params: {}, seed: 3, agents: [one, two], bus, matchId: 'mf' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MatchFailureError);
      expect(err).toMatchObject({ member, seed: 3, matchId: 'mf', env: 'turns-v1' });
      expect((err as Error).message).toContain(`${member} broke`);
    },
  );

  test('forfeitReturns is named too', async () => {
    const forfeiting = turnsEnv({ members: { forfeitReturns: () => { throw new Error('f'); } } });
    await expect(runMatch({ env: forfeiting, params: {}, seed: 1, agents: [one, scriptedAgent('bad', () => 9)] })).rejects.toMatchObject({ member: 'forfeitReturns', step: 1 });
  });

  test("an agent's start or end hook that throws names the agent and seat", async () => {
    const env = turnsEnv();
    const bad = (hook: 'start' | 'end'): Agent => ({ name: 'hooky', act: () => 1, [hook]: () => { throw new Error('hook bug'); } });
    await expect(runMatch({ env, params: {}, seed: 1, agents: [one, bad('start')] })).rejects.toMatchObject({ name: 'MatchFailureError', member: 'agent "hooky" (seat 1) start' });
    await expect(runMatch({ env, params: {}, seed: 1, agents: [bad('end'), one] })).rejects.toMatchObject({ name: 'MatchFailureError', member: 'agent "hooky" (seat 0) end' });
  });

  test('a MatchFailureError from inside (a nested match) is passed on as it is', async () => {
    const inner = new MatchFailureError('inner-v1', 'step', 1, 2, 'inner', new Error('x'));
    const env = turnsEnv({ members: { step: () => { throw inner; } } });
    await expect(runMatch({ env, params: {}, seed: 1, agents: [one, two] })).rejects.toBe(inner);
  });

  test("the caller's own mistakes are thrown as they are", async () => {
    const env = turnsEnv();
    const err = await runMatch({ env, params: {}, seed: 1, agents: () => { throw new Error('no such agent'); } }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(MatchFailureError);
    expect((err as Error).message).toBe('no such agent');
    await expect(runMatch({ env, params: {}, seed: 1, agents: [one, two, one] })).rejects.toThrow('turns-v1: 2 seats but 3 agents given');
  });
});

describe('agents and their contexts', () => {
  test('agents chosen from the seats; each context knows its match, seat, role, team and a seat-seeded rng', async () => {
    const env = turnsEnv({ seats: 3, turns: 1, simultaneous: true });
    const seen: { seats?: unknown; ctx: Record<string, unknown>[]; ends: unknown[] } = { ctx: [], ends: [] };
    const agent = (i: number): Agent => ({
      name: `a${i}`,
      start: (ctx: AgentContext) => seen.ctx.push({ phase: 'start', seat: ctx.seat, matchId: ctx.matchId, role: ctx.role, team: ctx.team, draw: ctx.rng.int(1000), env: ctx.env.meta.id, params: ctx.params }),
      act: (_o, _l, ctx) => (seen.ctx.push({ phase: 'act', seat: ctx.seat, step: ctx.step }), i % 3),
      end: (returns, ctx, info) => seen.ends.push({ seat: ctx.seat, returns, ...info }),
    });
    const r = await runMatch({ env, params: { q: 1 }, seed: 11, matchId: 'ctx', agents: (seats) => ((seen.seats = seats), seats.map((_, i) => agent(i))) });
    expect(seen.seats).toEqual([
      { role: 'player', team: 'team0' },
      { role: 'player', team: 'team1' },
      { role: 'player', team: 'team0' },
    ]);
    expect(r.agents).toEqual(['a0', 'a1', 'a2']);
    expect(r.seats).toEqual(seen.seats);
    const starts = seen.ctx.filter((c) => c.phase === 'start');
    expect(starts).toEqual([0, 1, 2].map((i) => ({ phase: 'start', seat: i, matchId: 'ctx', role: 'player', team: `team${i % 2}`, draw: Rng.fromSeed(deriveSeed(11, 'seat', i)).int(1000), env: 'turns-v1', params: { q: 1 } })));
    expect(seen.ctx.filter((c) => c.phase === 'act')).toEqual([0, 1, 2].map((i) => ({ phase: 'act', seat: i, step: 0 })));
    expect(seen.ends).toEqual([0, 1, 2].map((i) => ({ seat: i, returns: [0, 1, 2], outcome: 'done', summary: { moves: [0, 1, 2] } })));
  });

  test('notes without a bus (or with nobody listening) go nowhere and break nothing', async () => {
    const noter: Agent = { name: 'noter', act: (_o, _l, ctx) => (ctx.note!('thought', { x: 1 }), 1) };
    const r = await runMatch({ env: turnsEnv(), params: {}, seed: 1, agents: [noter, noter] });
    expect(r).toMatchObject({ code: 'ok', faults: [] });
    const bus = new EventBus();
    const publish = jest.spyOn(bus, 'publish');
    const r2 = await runMatch({ env: turnsEnv(), params: {}, seed: 1, agents: [noter, noter], bus });
    expect(r2).toMatchObject({ code: 'ok', faults: [] });
    expect(publish).not.toHaveBeenCalled();
  });

  test('a match id is made up when none is given', async () => {
    const env = turnsEnv();
    const a = await runMatch({ env, params: {}, seed: 1, agents: [one, two] });
    const b = await runMatch({ env, params: {}, seed: 1, agents: [one, two] });
    expect(a.matchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.matchId).not.toBe(a.matchId);
  });

  test('the result echoes env, params and seed', async () => {
    const env = turnsEnv();
    const r = await runMatch({ env, params: { x: 1 }, seed: 42, agents: [one, two] });
    expect(r).toMatchObject({ env: 'turns-v1', params: { x: 1 }, seed: 42, agents: ['one', 'two'] });
    expect(r).not.toHaveProperty('reports');
  });
});

describe('events of a full match', () => {
  test('created, started, then per step turn, actions (with their visibility) and env events; reward and ended last', async () => {
    const env = turnsEnv({ members: { actionVisibility: (_s, seat) => (seat === 0 ? 'public' : { seat }) } });
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    await runMatch({ env, params: { p: 1 }, seed: 2, agents: [one, two], bus, matchId: 'ev' });
    const strip = (e: MatchEvent) => {
      const { time: _t, seq: _s, matchId: _m, ...rest } = e as MatchEvent & { time: number };
      return rest;
    };
    expect(rec.events('ev').map(strip)).toEqual([
      { type: 'match.created', visibility: 'omniscient', env: 'turns-v1', params: { p: 1 }, seed: 2, seats: [{ role: 'player', team: 'team0', agent: 'one' }, { role: 'player', team: 'team1', agent: 'two' }] },
      expect.objectContaining({ type: 'match.started', visibility: 'public', env: 'turns-v1', params: { p: 1 }, agents: ['one', 'two'] }),
      { type: 'turn', visibility: 'public', step: 0, toAct: [0] },
      { type: 'action', visibility: 'public', step: 0, seat: 0, action: 1 },
      { type: 'env', visibility: 'public', step: 0, name: 'moved', data: { count: 1 } },
      { type: 'turn', visibility: 'public', step: 1, toAct: [1] },
      { type: 'action', visibility: { seat: 1 }, step: 1, seat: 1, action: 2 },
      { type: 'env', visibility: 'public', step: 1, name: 'moved', data: { count: 2 } },
      { type: 'reward', visibility: 'public', returns: [1, 2] },
      { type: 'match.ended', visibility: 'public', returns: [1, 2], outcome: 'done', code: 'ok', length: 2, faults: 0 },
    ]);
  });
});

describe('the heartbeat of a watched worker', () => {
  afterEach(() => installHeartbeat(null));

  test('marks agents and env members while they run, names the match, and sets the hang limit from the deadline', async () => {
    const buffer = createHeartbeatBuffer();
    installHeartbeat(buffer);
    const readings: { where: string; phase: number; seat: number | null; member: string | null; step: number }[] = [];
    const look = (where: string) => {
      const h = readHeartbeat(buffer);
      readings.push({ where, phase: h.phase, seat: h.seat, member: h.member, step: h.step });
    };
    const env = turnsEnv({ members: { step: (s, actions) => (look('step'), { state: { ...s, moves: [...s.moves, ...Object.entries(actions).map(([seat, a]) => ({ seat: Number(seat), action: a as number }))] }, events: [] }) } });
    const agent = (v: number): Agent => ({ name: `a${v}`, start: () => look('start'), act: () => (look('act'), v), end: () => look('end') });
    const r = await runMatch({ env, params: {}, seed: 8, matchId: 'hb', agents: [agent(1), agent(2)], deadlineMs: 2000 });
    expect(r.code).toBe('ok');
    expect(readings).toEqual([
      { where: 'start', phase: Phase.Agent, seat: 0, member: null, step: 0 },
      { where: 'start', phase: Phase.Agent, seat: 1, member: null, step: 0 },
      { where: 'act', phase: Phase.Agent, seat: 0, member: null, step: 0 },
      { where: 'step', phase: Phase.Env, seat: null, member: 'step', step: 0 },
      { where: 'act', phase: Phase.Agent, seat: 1, member: null, step: 1 },
      { where: 'step', phase: Phase.Env, seat: null, member: 'step', step: 1 },
      { where: 'end', phase: Phase.Agent, seat: 0, member: null, step: 1 },
      { where: 'end', phase: Phase.Agent, seat: 1, member: null, step: 1 },
    ]);
    const after = readHeartbeat(buffer, true);
    expect(after.phase).toBe(Phase.Idle);
    expect(after.seed).toBe(8);
    expect(after.limitMs).toBe(3000);
    expect(after.context).toEqual({ env: 'turns-v1', match: 'hb', agents: ['a1', 'a2'] });
  });

  test('no deadline: no hang limit; a promise answer leaves the agent phase while it is awaited', async () => {
    const buffer = createHeartbeatBuffer();
    installHeartbeat(buffer);
    const phases: number[] = [];
    let retried = false;
    const agent: Agent = {
      name: 'async',
      act: () => {
        phases.push(readHeartbeat(buffer).phase);
        if (!retried) return ((retried = true), Promise.resolve('bad'));
        return new Promise((resolve) => setImmediate(() => (phases.push(readHeartbeat(buffer).phase), resolve(1))));
      },
    };
    const r = await runMatch({ env: turnsEnv({ seats: 1, turns: 1 }), params: {}, seed: 1, agents: [agent], deadlineMs: Infinity, faultPolicy: { retries: 1, then: 'forfeit' } });
    expect(r.code).toBe('ok');
    expect(phases).toEqual([Phase.Agent, Phase.Agent, Phase.Idle]);
    expect(readHeartbeat(buffer).limitMs).toBe(0);
  });
});
