import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { visibleTo, teamsFromCreated } from '../../src/bus/view-filter';
import type { Agent } from '../../src/core/agent';
import type { MatchCreated, MatchEvent } from '../../src/core/events';
import { DEFAULT_ASYNC_DEADLINE_MS, runMatch, unsettledDecisions } from '../../src/match/runner';
import { randomAgent } from '../../agents/random';
import { scriptedAgent } from '../../agents/scripted';
import { loadEnv, rps } from '../fixtures/load';

const env = rps();
const params = env.resolveParams({ rounds: 3 });
const rand = (seed: number) => randomAgent.create({ env, params, seed });
const rock = scriptedAgent('rock', () => 0);
const paper = scriptedAgent('paper', () => 1);

describe('runMatch', () => {
  test('plays to the end with concrete returns', async () => {
    const r = await runMatch({ env, params, seed: 1, agents: [paper, rock] });
    expect(r.returns).toEqual([1, -1]);
    expect(r.outcome).toBe('player0');
    expect(r.code).toBe('ok');
    expect(r.length).toBe(3);
    expect(r.decisions).toBe(6);
    expect(r.summary).toEqual({ score: [3, 0], history: [['paper', 'rock'], ['paper', 'rock'], ['paper', 'rock']] });
  });

  test('same seed gives the same match; random agents are seeded per seat', async () => {
    const a = await runMatch({ env, params, seed: 9, agents: [rand(0), rand(1)] });
    const b = await runMatch({ env, params, seed: 9, agents: [rand(0), rand(1)] });
    expect(b.finalState).toEqual(a.finalState);
    const c = await runMatch({ env, params: env.resolveParams({ rounds: 30 }), seed: 10, agents: [rand(0), rand(1)] });
    const d = await runMatch({ env, params: env.resolveParams({ rounds: 30 }), seed: 11, agents: [rand(0), rand(1)] });
    expect(c.finalState).not.toEqual(d.finalState);
  });

  test('an illegal action forfeits by default, with a fault record and zero-sum forfeit returns', async () => {
    const bad = scriptedAgent('bad', () => 7);
    const r = await runMatch({ env, params, seed: 1, agents: [rock, bad] });
    expect(r.code).toBe('forfeit');
    expect(r.forfeitedBy).toBe(1);
    expect(r.outcome).toBe('forfeit');
    expect(r.returns).toEqual([1, -1]);
    expect(r.faults).toEqual([{ step: 0, seat: 1, kind: 'illegal', reason: '7 is not a legal action', attempt: 0, resolution: 'forfeit' }]);
  });

  test('retry then default action: the match completes', async () => {
    let calls = 0;
    const flaky: Agent = { name: 'flaky', act: () => (calls++ % 3 === 2 ? 2 : 'nonsense') };
    const r = await runMatch({ env, params, seed: 1, agents: [rock, flaky], faultPolicy: { retries: 1, then: 'default' } });
    expect(r.code).toBe('ok');
    // calls 0,1 fail at step 0 -> default action (first legal = rock); call 2 answers scissors at step 1;
    // calls 3,4 fail at step 2 -> rock again
    expect(r.faults.map((f) => `${f.step}:${f.resolution}`)).toEqual(['0:retry', '0:default-action', '2:retry', '2:default-action']);
    expect((r.finalState as { history: number[][] }).history.map((h) => h[1])).toEqual([0, 2, 0]);
  });

  test('a thrown error is a fault, not a crash', async () => {
    const thrower: Agent = { name: 'thrower', act: () => { throw new Error('agent bug'); } };
    const r = await runMatch({ env, params, seed: 1, agents: [thrower, rock] });
    expect(r.code).toBe('forfeit');
    expect(r.faults[0]).toMatchObject({ kind: 'error', reason: 'agent bug', seat: 0 });
  });

  test('async agents work; a slow one times out and its signal is aborted', async () => {
    const asyncPaper: Agent = { name: 'async-paper', act: async () => 1 };
    let aborted = false;
    const slow: Agent = {
      name: 'slow',
      act: (_o, _l, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => (aborted = true));
          setTimeout(() => resolve(0), 500);
        }),
    };
    const ok = await runMatch({ env, params, seed: 1, agents: [asyncPaper, rock], deadlineMs: 200 });
    expect(ok.returns).toEqual([1, -1]);
    const r = await runMatch({ env, params, seed: 1, agents: [asyncPaper, slow], deadlineMs: 100 });
    expect(r.code).toBe('forfeit');
    expect(r.faults[0]).toMatchObject({ seat: 1, kind: 'timeout', reason: 'no answer within 100 ms' });
    expect(aborted).toBe(true);
  });

  test('a promise that never settles: the default deadline makes it a recorded timeout; with none it is listed as unsettled', async () => {
    const silent: Agent = { name: 'silent', act: () => new Promise(() => {}) };
    jest.useFakeTimers();
    try {
      const pending = runMatch({ env, params, seed: 1, agents: [rock, silent] });
      await jest.advanceTimersByTimeAsync(DEFAULT_ASYNC_DEADLINE_MS);
      const r = await pending;
      expect(r.code).toBe('forfeit');
      expect(r.faults).toEqual([
        expect.objectContaining({ seat: 1, kind: 'timeout', reason: `no answer within ${DEFAULT_ASYNC_DEADLINE_MS} ms (the default deadline for promise answers; set one with deadlineMs / --deadline)` }),
      ]);
    } finally {
      jest.useRealTimers();
    }
    const controller = new AbortController();
    const waiting = runMatch({ env, params, seed: 1, agents: [rock, silent], deadlineMs: Infinity, matchId: 'm1', signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    expect(unsettledDecisions()).toEqual([{ matchId: 'm1', env: env.meta.id, seat: 1, agent: 'silent', step: 0 }]);
    controller.abort();
    expect((await waiting).code).toBe('aborted');
    expect(unsettledDecisions()).toEqual([]);
  });

  test('an abort signal stops the match', async () => {
    const ac = new AbortController();
    const stopper: Agent = { name: 'stopper', act: () => { ac.abort(); return 0; } };
    const r = await runMatch({ env, params, seed: 1, agents: [stopper, rock], signal: ac.signal });
    expect(r.code).toBe('aborted');
    expect(r.length).toBe(1);
  });

  test('wrong number of agents is a clear error', async () => {
    await expect(runMatch({ env, params, seed: 1, agents: [rock] })).rejects.toThrow(/2 seats but 1 agents given/);
  });

  test('onDecision sees every accepted decision', async () => {
    const seen: string[] = [];
    await runMatch({ env, params, seed: 1, agents: [paper, rock], onDecision: (d) => seen.push(`${d.step}/${d.seat}=${d.action}`) });
    expect(seen).toEqual(['0/0=1', '0/1=0', '1/0=1', '1/1=0', '2/0=1', '2/1=0']);
  });
});

describe('events on the bus', () => {
  test('numbered without gaps, typed, and ending with match.ended', async () => {
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const r = await runMatch({ env, params, seed: 3, agents: [paper, rock], bus, matchId: 'm1' });
    const events = rec.events('m1');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type).slice(0, 5)).toEqual(['match.created', 'match.started', 'turn', 'action', 'action']);
    expect(events.filter((e) => e.type === 'env')).toHaveLength(3);
    const end = events[events.length - 1];
    expect(end).toMatchObject({ type: 'match.ended', returns: r.returns, outcome: 'player0', code: 'ok', length: 3 });
  });

  test('nothing is built when nobody listens', async () => {
    const bus = new EventBus();
    const spy = jest.spyOn(bus, 'publish');
    await runMatch({ env, params, seed: 3, agents: [paper, rock], bus });
    expect(spy).not.toHaveBeenCalled();
  });

  test('private events are filtered per viewer; omniscient sees all', async () => {
    const card = loadEnv('test/fixtures/hidden-card.js');
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const bet = scriptedAgent('bet', () => 1);
    await runMatch({ env: card, params: {}, seed: 4, agents: [bet, bet], bus, matchId: 'c' });
    const all = rec.events('c');
    const teams = teamsFromCreated(all.find((e): e is MatchCreated => e.type === 'match.created'));
    const pub = visibleTo(all, 'public', teams);
    expect(pub.some((e) => e.type === 'match.created')).toBe(false);
    expect(pub.some((e) => e.type === 'action')).toBe(false);
    const seat0 = visibleTo(all, 0, teams);
    expect(seat0.filter((e: MatchEvent) => e.type === 'action').map((e) => (e as { seat: number }).seat)).toEqual([0]);
    expect(visibleTo(all, 'omniscient', teams)).toHaveLength(all.length);
  });

  test('hidden-role envs publish agents without their seats', async () => {
    const card = loadEnv('test/fixtures/hidden-card.js');
    const hidden = { ...card, meta: { ...card.meta, hiddenRoles: true } };
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const b = scriptedAgent('b-bet', () => 1);
    const a = scriptedAgent('a-bet', () => 1);
    await runMatch({ env: hidden, params: {}, seed: 4, agents: [b, a], bus, matchId: 'h' });
    await runMatch({ env: card, params: {}, seed: 4, agents: [b, a], bus, matchId: 'v' });
    expect(rec.events('h')[1]).toMatchObject({ type: 'match.started', agents: ['a-bet', 'b-bet'], seatsHidden: true, seats: 2 });
    expect(rec.events('v')[1]).toMatchObject({ type: 'match.started', agents: ['b-bet', 'a-bet'] });
    expect(rec.events('v')[1]).not.toHaveProperty('seatsHidden');
    expect(rec.events('v')[1]).not.toHaveProperty('seats');
    // an agent holding several seats (a whole team) is listed once: counts would say which team it fills
    await runMatch({ env: hidden, params: {}, seed: 4, agents: [b, b], bus, matchId: 'hh' });
    expect(rec.events('hh')[1]).toMatchObject({ type: 'match.started', agents: ['b-bet'], seatsHidden: true, seats: 2 });
    await runMatch({ env: card, params: {}, seed: 4, agents: [b, b], bus, matchId: 'vv' });
    expect(rec.events('vv')[1]).toMatchObject({ type: 'match.started', agents: ['b-bet', 'b-bet'] });
  });

  test('validateAction is authoritative: a form beyond the legal list (free text) is accepted', async () => {
    const card = loadEnv('test/fixtures/hidden-card.js');
    const talky = {
      ...card,
      validateAction: (st: unknown, seat: number, a: unknown) =>
        typeof a === 'object' && a !== null && (a as { act: number }).act === 1 ? { ok: true as const } : card.validateAction(st, seat, a),
      step: (st: unknown, actions: Record<number, unknown>) => {
        const plain: Record<number, unknown> = {};
        for (const [k, v] of Object.entries(actions)) plain[Number(k)] = typeof v === 'object' && v !== null ? (v as { act: number }).act : v;
        return card.step(st, plain);
      },
    };
    const speaker = scriptedAgent('speaker', () => ({ act: 1, text: 'I bet' }));
    const r = await runMatch({ env: talky, params: {}, seed: 4, agents: [speaker, speaker] });
    expect(r.code).toBe('ok');
    expect(r.faults).toEqual([]);
  });

  test('publicParams redacts the public match.started params; match.created keeps them', async () => {
    const card = loadEnv('test/fixtures/hidden-card.js');
    const redacting = { ...card, publicParams: () => ({}) };
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    await runMatch({ env: redacting, params: { secret: 1 }, seed: 4, agents: [paper, paper], bus, matchId: 'p', faultPolicy: { retries: 0, then: 'default' } });
    expect(rec.events('p')[0]).toMatchObject({ type: 'match.created', params: { secret: 1 } });
    expect(rec.events('p')[1]).toMatchObject({ type: 'match.started', params: {} });
  });
});

