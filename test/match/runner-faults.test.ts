/**
 * The runner's fault handling (issue 20): async illegal answers and retries, synchronous
 * deadlines, sequential forfeits, two seats faulting in one step, max-length and abort
 * returns, default actions when none exists, fault events on the bus, forfeit returns.
 */
import { getEventListeners } from 'node:events';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import type { Agent } from '../../src/core/agent';
import type { MatchEvent } from '../../src/core/events';
import { runMatch } from '../../src/match/runner';
import { scriptedAgent } from '../../agents/scripted';
import { turnsEnv } from './turns-env';

const one = scriptedAgent('one', () => 1);
const two = scriptedAgent('two', () => 2);
/** Answers with a promise that settles on a later macrotask (not within the same microtask queue). */
const later = <T>(v: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(v)));

function busyWait(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() <= end) {
    /* a synchronous agent that takes its time */
  }
}

describe('async agents', () => {
  test('an illegal promise answer is a fault; retried, the next legal answer is accepted', async () => {
    const env = turnsEnv();
    const answers = [7, 'x', 2];
    let calls = 0;
    const flaky: Agent = { name: 'flaky', act: () => later(answers[Math.min(calls++, 2)]) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [flaky, one], faultPolicy: { retries: 2, then: 'forfeit' } });
    expect(r.code).toBe('ok');
    expect(r.returns).toEqual([2, 1]);
    expect(r.decisions).toBe(2);
    expect(calls).toBe(3);
    expect(r.faults).toEqual([
      { step: 0, seat: 0, kind: 'illegal', reason: '7 is not a legal action', attempt: 0, resolution: 'retry' },
      { step: 0, seat: 0, kind: 'illegal', reason: '"x" is not a legal action', attempt: 1, resolution: 'retry' },
    ]);
  });

  test('an illegal promise answer with no retry left forfeits', async () => {
    const env = turnsEnv();
    let calls = 0;
    const bad: Agent = { name: 'bad', act: () => (calls++, later(9)) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, bad], faultPolicy: { retries: 1, then: 'forfeit' } });
    expect(calls).toBe(2);
    expect(r).toMatchObject({ code: 'forfeit', outcome: 'forfeit', forfeitedBy: 1, length: 1, decisions: 1, returns: [1, -1] });
    expect(r.faults.map((f) => [f.kind, f.attempt, f.resolution])).toEqual([
      ['illegal', 0, 'retry'],
      ['illegal', 1, 'forfeit'],
    ]);
  });

  test('a rejected promise and a retry that throws synchronously are error faults', async () => {
    const env = turnsEnv();
    let calls = 0;
    const agent: Agent = {
      name: 'odd',
      act: () => {
        calls++;
        if (calls === 1) return Promise.reject(new Error('network down'));
        if (calls === 2) throw new Error('sync bug');
        if (calls === 3) return Promise.reject('plain text');
        return later(2);
      },
    };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [agent, one], faultPolicy: { retries: 3, then: 'forfeit' } });
    expect(r.code).toBe('ok');
    expect(r.faults.map((f) => [f.kind, f.reason, f.attempt])).toEqual([
      ['error', 'network down', 0],
      ['error', 'sync bug', 1],
      ['error', 'plain text', 2],
    ]);
    expect(r.returns).toEqual([2, 1]);
  });

  test('retries on timeout: the second attempt gets its own full deadline', async () => {
    const env = turnsEnv({ turns: 1, seats: 1 });
    let calls = 0;
    let reason: unknown = null;
    const agent: Agent = {
      name: 'slow-then-fast',
      act: (_o, _l, ctx) => {
        if (calls++ > 0) return later(1);
        ctx.signal.addEventListener('abort', () => (reason = ctx.signal.reason));
        return new Promise(() => {});
      },
    };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [agent], deadlineMs: 50, faultPolicy: { retries: 1, then: 'forfeit' } });
    expect(r.code).toBe('ok');
    expect((reason as Error).message).toBe('deadline');
    expect(r.faults).toEqual([{ step: 0, seat: 0, kind: 'timeout', reason: 'no answer within 50 ms', attempt: 0, resolution: 'retry' }]);
  });

  test('an answer that takes a while within a generous deadline is accepted, and no timer is left behind', async () => {
    const env = turnsEnv();
    const slowish: Agent = { name: 'slowish', act: () => new Promise((resolve) => setTimeout(() => resolve(2), 20)) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [slowish, slowish], deadlineMs: 60_000 });
    expect(r.code).toBe('ok');
    expect(r.faults).toEqual([]);
    expect(r.returns).toEqual([2, 2]);
  });

  test('deadline timers are cleared when the answer comes', async () => {
    jest.useFakeTimers();
    try {
      const env = turnsEnv();
      const quick: Agent = { name: 'quick', act: async () => 1 };
      const r = await runMatch({ env, params: {}, seed: 1, agents: [quick, quick] });
      expect(r.code).toBe('ok');
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  test('the match signal listeners are removed after each decision', async () => {
    const env = turnsEnv();
    const controller = new AbortController();
    const quick: Agent = { name: 'quick', act: async () => 1 };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [quick, quick], signal: controller.signal });
    expect(r.code).toBe('ok');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('sequential: an abort while a promise answer is pending stops the match (no fault)', async () => {
    const env = turnsEnv({ turns: 3 });
    const controller = new AbortController();
    let aborted: unknown = null;
    const waiting: Agent = {
      name: 'waiting',
      act: (_o, _l, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener('abort', () => (aborted = ctx.signal.reason));
          setImmediate(() => controller.abort());
        }),
    };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, waiting], signal: controller.signal, deadlineMs: 60_000 });
    expect(r).toMatchObject({ code: 'aborted', outcome: 'aborted', length: 1, decisions: 1, returns: [0, 0], faults: [] });
    expect(r).not.toHaveProperty('forfeitedBy');
    expect((aborted as Error).message).toBe('match stopped');
  });

  test('simultaneous: an abort while one seat is pending stops the match', async () => {
    const env = turnsEnv({ simultaneous: true });
    const controller = new AbortController();
    const waiting: Agent = { name: 'waiting', act: () => new Promise(() => setImmediate(() => controller.abort())) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, waiting], signal: controller.signal });
    expect(r).toMatchObject({ code: 'aborted', outcome: 'aborted', length: 0, returns: [0, 0], faults: [] });
  });
});

describe('synchronous agents', () => {
  test('an answer after the deadline is a timeout fault, even though it is legal', async () => {
    const env = turnsEnv();
    const slow: Agent = { name: 'slow', act: () => (busyWait(30), 1) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [slow, one], deadlineMs: 5 });
    expect(r).toMatchObject({ code: 'forfeit', forfeitedBy: 0, length: 0 });
    expect(r.faults).toEqual([{ step: 0, seat: 0, kind: 'timeout', reason: 'answered after the 5 ms deadline', attempt: 0, resolution: 'forfeit' }]);
  });

  test('without a deadline a slow synchronous answer is accepted', async () => {
    const env = turnsEnv();
    const slow: Agent = { name: 'slow', act: () => (busyWait(30), 1) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [slow, one] });
    expect(r.code).toBe('ok');
    expect(r.faults).toEqual([]);
  });

  test('retries exactly `retries` times, then forfeits', async () => {
    const env = turnsEnv();
    let calls = 0;
    const bad: Agent = { name: 'bad', act: () => (calls++, 5) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [bad, one], faultPolicy: { retries: 2, then: 'forfeit' } });
    expect(calls).toBe(3);
    expect(r.faults.map((f) => `${f.attempt}:${f.resolution}`)).toEqual(['0:retry', '1:retry', '2:forfeit']);
    expect(r).toMatchObject({ code: 'forfeit', forfeitedBy: 0, decisions: 0 });
  });

  test('onDecision gets the observation and legal list the agent saw', async () => {
    const env = turnsEnv({ turns: 1 });
    const seen: unknown[] = [];
    await runMatch({ env, params: {}, seed: 1, agents: [one, two], onDecision: (d) => seen.push(d) });
    expect(seen).toEqual([{ step: 0, seat: 0, observation: { moves: 0, viewer: 0 }, legal: [0, 1, 2], action: 1 }]);
  });

  test('an omniscient agent observes as "omniscient"; others as their seat', async () => {
    const env = turnsEnv({ turns: 1 });
    const seen: unknown[] = [];
    const watcher = (omniscient: boolean): Agent => ({ name: 'w', omniscient, act: (obs) => (seen.push((obs as { viewer: unknown }).viewer), 0) });
    await runMatch({ env, params: {}, seed: 1, agents: [watcher(true), watcher(false)] });
    expect(seen).toEqual(['omniscient']);
    await runMatch({ env, params: {}, seed: 1, agents: [watcher(false), watcher(true)] });
    expect(seen).toEqual(['omniscient', 0]);
  });
});

describe('forfeits', () => {
  test('sequential forfeit: the match stops at that step with default zero-sum returns', async () => {
    const env = turnsEnv({ seats: 3, turns: 6 });
    const bad = scriptedAgent('bad', () => -1);
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, one, bad] });
    expect(r).toMatchObject({ code: 'forfeit', outcome: 'forfeit', forfeitedBy: 2, length: 2, decisions: 2 });
    expect(r.returns).toEqual([0.5, 0.5, -1]);
    expect(r.summary).toEqual({ moves: [1, 1] });
  });

  test('general-sum default forfeit returns: the forfeiter -1, the others 0', async () => {
    const env = turnsEnv({ seats: 3, utility: 'general-sum' });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [scriptedAgent('bad', () => 'no'), one, one] });
    expect(r.returns).toEqual([-1, 0, 0]);
  });

  test('faults cost the faulty seat only: general-sum default keeps the per-decision rewards the others earned', async () => {
    // seats 0 and 1 earn 2 and 1 (each move rewards its seat with its value), seat 2 forfeits
    const env = turnsEnv({ seats: 3, turns: 6, utility: 'general-sum', rewards: true });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [two, one, scriptedAgent('bad', () => 'no')] });
    expect(r).toMatchObject({ code: 'forfeit', forfeitedBy: 2 });
    expect(r.rewards.map((x) => [x.seat, x.value])).toEqual([
      [0, 2],
      [1, 1],
    ]);
    expect(r.returns).toEqual([2, 1, -1]);
    // zero-sum: the others share the win whatever they earned
    const zs = await runMatch({ env: turnsEnv({ seats: 3, turns: 6, rewards: true }), params: {}, seed: 1, agents: [two, one, scriptedAgent('bad', () => 'no')] });
    expect(zs.returns).toEqual([0.5, 0.5, -1]);
  });

  test('a single-seat env: the forfeiter gets -1', async () => {
    const env = turnsEnv({ seats: 1 });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [scriptedAgent('bad', () => 'no')] });
    expect(r.returns).toEqual([-1]);
  });

  test("the env's forfeitReturns are used when it has them, with the state and the seat", async () => {
    const calls: unknown[] = [];
    const env = turnsEnv({ members: { forfeitReturns: (s, seat) => (calls.push([s.moves.length, seat]), [10, 20]) } });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, scriptedAgent('bad', () => 9)] });
    expect(r.returns).toEqual([10, 20]);
    expect(calls).toEqual([[1, 1]]);
  });

  test('two seats faulting in one simultaneous step: the first seat in toAct forfeits; both faults are recorded', async () => {
    const env = turnsEnv({ seats: 3, simultaneous: true });
    const bad = scriptedAgent('bad', () => 'x');
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, bad, bad] });
    expect(r).toMatchObject({ code: 'forfeit', forfeitedBy: 1, length: 0 });
    expect(r.faults.map((f) => [f.seat, f.resolution])).toEqual([
      [1, 'forfeit'],
      [2, 'forfeit'],
    ]);
    const asyncBad: Agent = { name: 'async-bad', act: () => later('x') };
    const r2 = await runMatch({ env, params: {}, seed: 1, agents: [asyncBad, one, asyncBad] });
    expect(r2).toMatchObject({ code: 'forfeit', forfeitedBy: 0 });
    expect(r2.faults.map((f) => f.seat).sort()).toEqual([0, 2]);
  });
});

describe('default actions', () => {
  test("the env's defaultAction is played (counted as a decision) and the match goes on", async () => {
    const env = turnsEnv({ members: { defaultAction: () => 2 } });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [scriptedAgent('bad', () => 8), one], faultPolicy: { retries: 0, then: 'default' } });
    expect(r).toMatchObject({ code: 'ok', returns: [2, 1], decisions: 2 });
    expect(r.faults).toEqual([{ step: 0, seat: 0, kind: 'illegal', reason: '8 is not a legal action', attempt: 0, resolution: 'default-action' }]);
  });

  test('without defaultAction the first legal action is played', async () => {
    const env = turnsEnv();
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, scriptedAgent('bad', () => 8)], faultPolicy: { retries: 0, then: 'default' } });
    expect(r).toMatchObject({ code: 'ok', returns: [1, 0], decisions: 2 });
  });

  test('when no default exists (open actions, no defaultAction) the fault becomes a forfeit', async () => {
    const env = turnsEnv({ open: true });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, scriptedAgent('bad', () => 8)], faultPolicy: { retries: 0, then: 'default' } });
    expect(r).toMatchObject({ code: 'forfeit', forfeitedBy: 1, decisions: 1 });
    expect(r.faults).toEqual([{ step: 1, seat: 1, kind: 'illegal', reason: '8 is not 0, 1 or 2', attempt: 0, resolution: 'forfeit' }]);
  });

  test('an empty legal list has no default either', async () => {
    const env = turnsEnv({ members: { legalActions: () => [] } });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [scriptedAgent('bad', () => 8), one], faultPolicy: { retries: 0, then: 'default' } });
    expect(r).toMatchObject({ code: 'forfeit', forfeitedBy: 0 });
    expect(r.faults[0].resolution).toBe('forfeit');
  });

  test('a null answer the env accepts is a plain action (not mistaken for a promise)', async () => {
    const env = turnsEnv({ open: true, members: { validateAction: (_s, _seat, a) => (a === null || a === 1 ? { ok: true } : { ok: false, reason: 'no' }) } });
    const passer = scriptedAgent('passer', () => null);
    const r = await runMatch({ env, params: {}, seed: 1, agents: [passer, one] });
    expect(r).toMatchObject({ code: 'ok', faults: [], decisions: 2 });
    expect((r.finalState as { moves: unknown[] }).moves).toEqual([{ seat: 0, action: null }, { seat: 1, action: 1 }]);
    const r2 = await runMatch({ env: turnsEnv({ open: true, simultaneous: true, members: { validateAction: () => ({ ok: true }) } }), params: {}, seed: 1, agents: [passer, passer] });
    expect(r2).toMatchObject({ code: 'ok', faults: [], decisions: 4 });
    // an env that accepts anything, even no answer at all: still a plain action
    const silent = scriptedAgent('silent', () => undefined);
    const r3 = await runMatch({ env: turnsEnv({ open: true, simultaneous: true, members: { validateAction: () => ({ ok: true }) } }), params: {}, seed: 1, agents: [silent, silent] });
    expect(r3).toMatchObject({ code: 'ok', faults: [], decisions: 4 });
    const r4 = await runMatch({ env: turnsEnv({ open: true, members: { validateAction: () => ({ ok: true }) } }), params: {}, seed: 1, agents: [silent, silent] });
    expect(r4).toMatchObject({ code: 'ok', faults: [], decisions: 2 });
  });

  test('open actions: validateAction decides (a legal answer is accepted without a legal list)', async () => {
    const env = turnsEnv({ open: true });
    const legals: unknown[] = [];
    const agent: Agent = { name: 'a', act: (_o, legal) => (legals.push(legal), 2) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [agent, agent] });
    expect(r).toMatchObject({ code: 'ok', returns: [2, 2], faults: [] });
    expect(legals).toEqual([null, null]);
  });
});

describe('early ends', () => {
  test('max-length: an env that never ends stops at exactly maxLength steps, returns 0', async () => {
    const env = turnsEnv({ turns: Infinity, maxLength: 3 });
    const r = await runMatch({ env, params: {}, seed: 1, agents: [one, two] });
    expect(r).toMatchObject({ code: 'aborted', outcome: 'max-length', length: 3, decisions: 3, returns: [0, 0], faults: [] });
    expect(r).not.toHaveProperty('forfeitedBy');
  });

  test('a match whose signal is already aborted plays no step', async () => {
    const env = turnsEnv();
    const controller = new AbortController();
    controller.abort();
    let asked = 0;
    const agent: Agent = { name: 'a', act: () => (asked++, 1) };
    const r = await runMatch({ env, params: {}, seed: 1, agents: [agent, agent], signal: controller.signal });
    expect(r).toMatchObject({ code: 'aborted', outcome: 'aborted', length: 0, returns: [0, 0] });
    expect(asked).toBe(0);
  });

  test('abort returns and outcome go to the agents\' end hook and the ended event', async () => {
    const env = turnsEnv({ turns: 4 });
    const controller = new AbortController();
    const ends: unknown[] = [];
    const stopper: Agent = { name: 'stopper', act: () => (controller.abort(), 1), end: (returns, _ctx, info) => ends.push({ returns, ...info }) };
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const r = await runMatch({ env, params: {}, seed: 1, agents: [stopper, one], signal: controller.signal, bus, matchId: 'ab' });
    expect(r).toMatchObject({ code: 'aborted', outcome: 'aborted', length: 1, returns: [0, 0] });
    expect(ends).toEqual([{ returns: [0, 0], outcome: 'aborted', summary: { moves: [1] } }]);
    const last = rec.events('ab').at(-1);
    expect(last).toMatchObject({ type: 'match.ended', returns: [0, 0], outcome: 'aborted', code: 'aborted', length: 1, faults: 0 });
    expect(last).not.toHaveProperty('forfeitedBy');
  });
});

describe('fault events on the bus', () => {
  test('each fault is published, private to its seat; match.ended counts them and names the forfeiter', async () => {
    const env = turnsEnv();
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const r = await runMatch({ env, params: {}, seed: 1, agents: [scriptedAgent('bad', () => 'no'), one], bus, matchId: 'f', faultPolicy: { retries: 1, then: 'forfeit' } });
    const events = rec.events('f');
    const faults = events.filter((e: MatchEvent) => e.type === 'fault');
    expect(faults).toEqual([
      expect.objectContaining({ type: 'fault', visibility: { seat: 0 }, step: 0, seat: 0, kind: 'illegal', attempt: 0, resolution: 'retry' }),
      expect.objectContaining({ type: 'fault', visibility: { seat: 0 }, step: 0, seat: 0, kind: 'illegal', attempt: 1, resolution: 'forfeit' }),
    ]);
    expect(events.at(-2)).toMatchObject({ type: 'reward', returns: r.returns, visibility: 'public' });
    expect(events.at(-1)).toMatchObject({ type: 'match.ended', code: 'forfeit', outcome: 'forfeit', faults: 2, forfeitedBy: 0, length: 0 });
  });
});
