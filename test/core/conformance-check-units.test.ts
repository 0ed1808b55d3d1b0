/**
 * The conformance checks one by one on hand-made or tampered traces (issue 20): every problem
 * message is asserted exactly (episode, step, seat), as are the limits (at most 8 problems per
 * check, `sampleEvery`, which seats and viewers are looked at).
 */
import {
  checkDeterminism,
  checkEncoder,
  checkJsonAndPurity,
  checkLeaks,
  checkLegality,
  checkResume,
  checkTermination,
  checkUtility,
} from '../../src/core/conformance/checks';
import { playout, type Trace } from '../../src/core/conformance/playout';
import { EFFECT_SEAT, type Env } from '../../src/core/env';
import { normalizeEnv } from '../../src/core/normalize-env';
import { Rng } from '../../src/core/rng';
import { makeHiddenCardTs, rps } from './conformance-fixtures';

const card = makeHiddenCardTs({});
const s0 = card.init({}, 1) as { cards: number[]; history: number[] };

/** A hand-made trace of the hidden-card env, seed 7. */
const trace = (over: Partial<Trace> = {}): Trace => ({ params: {}, seed: 7, steps: [], states: [s0], terminal: false, returns: null, outcome: null, ...over });
const step = (toAct: number[], actions: Record<number, unknown> = {}) => ({ toAct, actions, events: [] });

/** Random playouts with states, as the kit records them. */
function traces(env: Env, count: number, params: unknown = {}): Trace[] {
  const p = env.resolveParams(params);
  return Array.from({ length: count }, (_, k) => playout(env, p, 100 + k, Rng.fromSeed(k), { limit: env.maxLengthFor(p), keepStates: true }));
}

/** A card trace where both players acted (bet, call): 2 steps. */
function fullCardTrace(env: Env = card): Trace {
  return playout(env, {}, 3, Rng.fromSeed(0), { limit: 2, keepStates: true, choose: () => 1 });
}

describe('checkTermination', () => {
  test('a playout problem is reported with its episode', () => {
    expect(checkTermination(card, [trace({ problem: 'not terminal after 2 steps (meta.maxLength)' })])).toEqual(['episode seed 7: not terminal after 2 steps (meta.maxLength)']);
  });

  test('toAct must be a set of seat indices', () => {
    const sim = rps();
    const st = sim.init(sim.resolveParams({}), 1);
    const t = trace({ states: [st, st, st, st, st, st, st], steps: [step([0, 0]), step([2]), step([0.5, 1]), step([-2, 1]), step([EFFECT_SEAT, 0]), step([1, 0]), step([0, 1])] });
    expect(checkTermination(sim, [t])).toEqual([
      'episode seed 7 step 0: toAct [0,0] is not a set of seat indices 0..1',
      'episode seed 7 step 1: toAct [2] is not a set of seat indices 0..1',
      'episode seed 7 step 2: toAct [0.5,1] is not a set of seat indices 0..1',
      'episode seed 7 step 3: toAct [-2,1] is not a set of seat indices 0..1',
      'episode seed 7 step 4: toAct [-1,0] is not a set of seat indices 0..1',
    ]);
  });

  test('without states the seat count is 0', () => {
    const sim = rps();
    expect(checkTermination(sim, [trace({ states: [], steps: [step([0])] })])).toEqual(['episode seed 7 step 0: toAct [0] is not a set of seat indices 0..-1']);
  });

  test('an effect step while toAct names seats; fine when no state was kept or toAct is empty', () => {
    expect(checkTermination(card, [trace({ steps: [step([EFFECT_SEAT])] })])).toEqual([
      'episode seed 7 step 0: an effect is pending while toAct names seats (toAct must be empty then)',
    ]);
    const done = { ...s0, history: [0] };
    expect(checkTermination(card, [trace({ states: [done], steps: [step([EFFECT_SEAT])] })])).toEqual([]);
    expect(checkTermination(card, [trace({ states: [s0], steps: [step([0]), step([EFFECT_SEAT])] })])).toEqual([]);
  });

  test('a sequential env asks exactly one seat per step (effect steps included)', () => {
    expect(checkTermination(card, [trace({ states: [s0, s0], steps: [step([0, 1]), step([])] })])).toEqual([
      'episode seed 7 step 0: sequential env asks 2 seats at once',
      'episode seed 7 step 1: sequential env asks 0 seats at once',
    ]);
    expect(checkTermination(rps(), [trace({ states: [s0], steps: [step([0, 1])] })])).toEqual([]);
  });

  test('a terminal state must name nobody', () => {
    expect(checkTermination(card, [trace({ terminal: true, states: [s0] })])).toEqual(['episode seed 7: terminal state still names seats to act']);
    expect(checkTermination(card, [trace({ terminal: false, states: [s0] })])).toEqual([]);
    expect(checkTermination(card, [trace({ terminal: true, states: [{ ...s0, history: [0] }] })])).toEqual([]);
    expect(checkTermination(card, [trace({ terminal: true, states: [] })])).toEqual([]);
  });

  test('at most 8 problems', () => {
    expect(checkTermination(card, Array.from({ length: 10 }, () => trace({ problem: 'p' })))).toHaveLength(8);
  });

  test('real playouts of a good env pass', () => {
    expect(checkTermination(card, traces(card, 5))).toEqual([]);
  });
});

describe('checkJsonAndPurity', () => {
  test('a state that is not plain JSON names the path', () => {
    const t = fullCardTrace();
    t.states[1] = { ...(t.states[1] as object), when: new Date(0) };
    expect(checkJsonAndPurity(card, [t])).toEqual(['episode seed 3 step 1: state is not plain JSON at $.when (instance of Date)']);
  });

  test('observations for every seat, the public and the omniscient view are checked', () => {
    for (const viewer of [0, 1, 'public', 'omniscient'] as const) {
      const env = makeHiddenCardTs({ observe: (s, v) => ({ history: s.history, ...(v === viewer ? { bad: NaN } : {}) }) });
      const t = fullCardTrace(env);
      const problems = checkJsonAndPurity(env, [t]);
      expect(problems).toEqual([0, 1, 2].map((i) => `episode seed 3 step ${i}: observation for ${viewer} is not plain JSON at $.bad (NaN)`));
    }
  });

  test('events that are not plain JSON, and a step that mutates its input', () => {
    const t = fullCardTrace();
    t.steps[0].events = [{ type: 'x', visibility: 'public', data: { f: (() => 1) as never } }];
    expect(checkJsonAndPurity(card, [t])).toEqual(['episode seed 3 step 0: events are not plain JSON at $[0].data.f (function)']);
    const mutating = makeHiddenCardTs({
      step(s, a) {
        const seat = s.history.length === 0 ? 0 : 1;
        s.history.push(a[seat]);
        return { state: { cards: s.cards, history: [...s.history] }, events: [] };
      },
    });
    const m = playout(mutating, {}, 3, Rng.fromSeed(0), { limit: 2, keepStates: true, choose: () => 1 });
    // the recorded states were mutated during the playout too; every replayed step mutates again
    expect(checkJsonAndPurity(mutating, [m])).toEqual(['episode seed 3 step 0: step mutated its input state', 'episode seed 3 step 1: step mutated its input state']);
  });

  test('at most 8 problems; good envs pass', () => {
    const env = makeHiddenCardTs({ observe: (s) => ({ history: s.history, bad: undefined as never, worse: Infinity }) });
    expect(checkJsonAndPurity(env, traces(env, 10))).toHaveLength(8);
    expect(checkJsonAndPurity(card, traces(card, 5))).toEqual([]);
    expect(checkJsonAndPurity(rps(), traces(rps(), 3))).toEqual([]);
  });
});

describe('checkDeterminism', () => {
  test('init that differs for the same seed', () => {
    let n = 0;
    const env = makeHiddenCardTs({ init: () => ({ cards: [1, 2], history: [], n: n++ }) as never });
    const t = traces(env, 1);
    expect(checkDeterminism(env, t)[0]).toBe('episode seed 100: init gives different states for the same seed');
  });

  test('a different state on replay (even only on the second replay), reported once per episode', () => {
    let inits = 0;
    // init calls: the playout (1), the init check (2, 3), the first replay (4), the second (5)
    const env = makeHiddenCardTs({ init: () => ({ cards: [1, 2], history: [], odd: ++inits === 5 }) as never });
    const t = traces(env, 1);
    inits = 1;
    expect(checkDeterminism(env, t)).toEqual(['episode seed 100 step 0: replaying the same actions gave a different state']);
    let calls = 0;
    const always = makeHiddenCardTs({ init: () => ({ cards: [1, 2], history: [], n: calls++ }) as never });
    expect(checkDeterminism(always, traces(always, 2))).toEqual([
      'episode seed 100: init gives different states for the same seed',
      'episode seed 100 step 0: replaying the same actions gave a different state',
      'episode seed 101: init gives different states for the same seed',
      'episode seed 101 step 0: replaying the same actions gave a different state',
    ]);
  });

  test('a different public observation, events, rewards, returns or outcome on replay', () => {
    let k = 0;
    const noisy = makeHiddenCardTs({ observe: (s, v) => ({ history: s.history, ...(v === 'public' ? { k: k++ } : {}) }) });
    expect(checkDeterminism(noisy, [fullCardTrace(noisy)])).toEqual(['episode seed 3 step 0: replaying the same actions gave a different public observation']);

    const events = fullCardTrace();
    events.steps[1].events = [];
    expect(checkDeterminism(card, [events])).toEqual(['episode seed 3 step 1: replaying the same actions gave different events']);

    const rewards = fullCardTrace();
    rewards.steps[1].rewards = [{ seat: 0, value: 1 }];
    expect(checkDeterminism(card, [rewards])).toEqual(['episode seed 3 step 1: replaying the same actions gave different rewards']);

    const returns = fullCardTrace();
    const good = JSON.stringify(returns.returns);
    returns.returns = [0, 0];
    expect(checkDeterminism(card, [returns])).toEqual([`episode seed 3: replay ended with returns ${good} "${returns.outcome}" instead of [0,0] "${returns.outcome}"`]);

    const outcome = fullCardTrace();
    const label = outcome.outcome;
    outcome.outcome = 'nobody';
    expect(checkDeterminism(card, [outcome])).toEqual([`episode seed 3: replay ended with returns ${good} "${label}" instead of ${good} "nobody"`]);
  });

  test('at most 8 problems; good envs pass', () => {
    let n = 0;
    const env = makeHiddenCardTs({ init: () => ({ cards: [1, 2], history: [], n: n++ }) as never });
    expect(checkDeterminism(env, traces(env, 10))).toHaveLength(8);
    expect(checkDeterminism(card, traces(card, 5))).toEqual([]);
  });
});

describe('checkLegality', () => {
  const first = () => [trace({ steps: [step([0], { 0: 1 })] })];

  test('a throwing legalActions is reported per seat', () => {
    const env = makeHiddenCardTs({ legalActions: (_s, seat) => { if (seat === 1) throw new Error('no'); return seat === 0 ? [0, 1] : []; } });
    expect(checkLegality(env, first(), 1)).toEqual(['episode seed 7 step 0 seat 1: legalActions threw: no']);
  });

  test('a seat not to act may have no legal actions (seats -1 to n are asked)', () => {
    for (const seat of [-1, 1, 2]) {
      const env = makeHiddenCardTs({ legalActions: (s, x) => (x === seat || card.toAct(s).includes(x) ? [0, 1] : []) });
      expect(checkLegality(env, first(), 1)).toEqual([`episode seed 7 step 0 seat ${seat}: seat not to act has 2 legal actions`]);
    }
  });

  test('every legal action must validate (the first rejection is reported)', () => {
    const rejecting = makeHiddenCardTs({ validateAction: (_s, seat, a) => (seat === 0 && a === 0 ? { ok: true } : { ok: false, reason: `no ${String(a)}` }) });
    expect(checkLegality(rejecting, first(), 1)).toEqual(['episode seed 7 step 0 seat 0: legal action 1 rejected: no 1']);
    const throwing = makeHiddenCardTs({ validateAction: (_s, seat, a) => { if (seat === 0 && a === 0) throw new Error('zero!'); return seat === 0 && a === 1 ? { ok: true } : { ok: false, reason: 'r' }; } });
    expect(checkLegality(throwing, first(), 1)).toEqual(['episode seed 7 step 0 seat 0: legal action 0 rejected: zero!']);
  });

  test('garbage must be rejected with a reason, without throwing', () => {
    const accepting = makeHiddenCardTs({ validateAction: (s, seat, a) => (seat === 0 && (a === 0 || a === 1 || a === 'x') ? { ok: true } : card.validateAction(s, seat, a)) });
    expect(checkLegality(accepting, first(), 1)).toEqual(['episode seed 7 step 0 seat 0: illegal action "x" was accepted']);
    const throwing = makeHiddenCardTs({ validateAction: (s, seat, a) => { if (a === undefined) throw new TypeError('undef'); return card.validateAction(s, seat, a); } });
    expect(checkLegality(throwing, first(), 1)).toEqual([-1, 0, 1, 2].map((seat) => `episode seed 7 step 0 seat ${seat}: validateAction threw on undefined: undef`));
    const mute = makeHiddenCardTs({ validateAction: (s, seat, a) => (a === true ? { ok: false, reason: '' } : card.validateAction(s, seat, a)) });
    expect(checkLegality(mute, first(), 1)).toEqual([-1, 0, 1, 2].map((seat) => `episode seed 7 step 0 seat ${seat}: rejection of true gives no reason`));
  });

  test("seats not to act are also offered the acting seat's action", () => {
    const seatless = makeHiddenCardTs({ validateAction: (_s, _seat, a) => (a === 0 || a === 1 ? { ok: true } : { ok: false, reason: 'r' }) });
    expect(checkLegality(seatless, first(), 1)).toEqual([-1, 1, 2].map((seat) => `episode seed 7 step 0 seat ${seat}: illegal action 1 was accepted`));
  });

  test('an open action set may accept anything from the acting seat, never from the others', () => {
    const open = (acceptOthers: boolean) =>
      makeHiddenCardTs({ legalActions: undefined, validateAction: (s, seat) => (acceptOthers || card.toAct(s).includes(seat) ? { ok: true } : { ok: false, reason: 'not you' }) });
    const noList = (env: Env) => normalizeEnv({ ...env, legalActions: undefined } as never);
    expect(checkLegality(noList(open(false)), first(), 1)).toEqual([]);
    expect(checkLegality(noList(open(true)), first(), 1)).toHaveLength(8);
  });

  test('sampleEvery: only every k-th state is checked; at most 8 problems', () => {
    const accepting = makeHiddenCardTs({ validateAction: () => ({ ok: true }) });
    const two = [trace({ states: [s0, { ...s0, history: [1] }], steps: [step([0], { 0: 1 }), step([1], { 1: 1 })] })];
    expect(checkLegality(accepting, two, 1)).toHaveLength(8);
    const mild = makeHiddenCardTs({ validateAction: (s, seat, a) => (a === 'x' && seat === 1 && s.history.length === 1 ? { ok: true } : card.validateAction(s, seat, a)) });
    expect(checkLegality(mild, two, 1)).toEqual(['episode seed 7 step 1 seat 1: illegal action "x" was accepted']);
    expect(checkLegality(mild, two, 2)).toEqual([]);
    expect(checkLegality(card, traces(card, 5), 1)).toEqual([]);
  });
});

describe('checkResume', () => {
  test('events that differ after a JSON round trip at the middle step; reported once per episode', () => {
    const env = rps();
    const [t] = traces(env, 1, { rounds: 4 });
    expect(t.steps).toHaveLength(4);
    t.steps[1].events = [];
    expect(checkResume(env, [t])).toEqual([]);
    t.steps[3].events = [];
    // the resumed episode stops at the difference, so its returns are not the final ones either
    const short = 'episode seed 100: resumed episode ends with different returns';
    expect(checkResume(env, [t])).toEqual(['episode seed 100 step 3: after a JSON round trip at step 2, the events differ', short]);
    t.steps[2].events = [];
    expect(checkResume(env, [t])[0]).toBe('episode seed 100 step 2: after a JSON round trip at step 2, the events differ');
    expect(checkResume(env, [t]).filter((p) => p.includes('events differ'))).toHaveLength(1);
  });

  test('two-step episodes are resumed; one-step ones are not', () => {
    const env = rps();
    const [two] = traces(env, 1, { rounds: 2 });
    two.steps[1].events = [];
    expect(checkResume(env, [two])).toEqual(['episode seed 100 step 1: after a JSON round trip at step 1, the events differ', 'episode seed 100: resumed episode ends with different returns']);
    const [one] = traces(env, 1, { rounds: 1 });
    one.steps[0].events = [];
    one.returns = [5, 5];
    expect(checkResume(env, [one])).toEqual([]);
  });

  test('different returns after resuming (terminal episodes only)', () => {
    const env = rps();
    const [t] = traces(env, 1, { rounds: 2 });
    const real = t.returns;
    t.returns = [7, -7];
    expect(checkResume(env, [t])).toEqual(['episode seed 100: resumed episode ends with different returns']);
    t.terminal = false;
    expect(checkResume(env, [t])).toEqual([]);
    t.terminal = true;
    t.returns = real;
    expect(checkResume(env, [t])).toEqual([]);
  });

  test('stops after 8 problems', () => {
    const env = rps();
    const ts = traces(env, 10, { rounds: 2 });
    for (const t of ts) t.steps[1].events = [];
    expect(checkResume(env, ts)).toHaveLength(8);
  });
});

describe('checkLeaks', () => {
  test('perfect information has nothing to hide; imperfect needs privateVariants', () => {
    const perfect = normalizeEnv({ ...card, meta: { ...card.meta, information: 'perfect' }, privateVariants: undefined } as never);
    expect(checkLeaks(perfect, traces(perfect, 1), 1)).toEqual({ problems: [], notes: ['perfect information: nothing to hide'] });
    const blind = normalizeEnv({ ...card, privateVariants: undefined } as never);
    expect(checkLeaks(blind, traces(blind, 1), 1)).toEqual({ problems: ['imperfect-information env has no privateVariants(state, seat, rng), so the leak check cannot run'], notes: [] });
  });

  test('the public view and each other seat are compared; the owner is not', () => {
    const publicLeak = makeHiddenCardTs({ observe: (s, v) => ({ history: s.history, ...(v === 'public' || typeof v === 'number' ? { mine: typeof v === 'number' ? s.cards[v] : null, sum: v === 'public' ? s.cards[0] : 0 } : {}) }) });
    const t = fullCardTrace(publicLeak);
    // two variants of seat 0's card per state
    expect(checkLeaks(publicLeak, [t], 1).problems).toEqual([0, 0, 1, 1, 2, 2].map((i) => `episode seed 3 step ${i}: the public view changes when only seat 0's private information changes`));
    const seatLeak = makeHiddenCardTs({ observe: (s, v) => ({ history: s.history, mine: typeof v === 'number' ? s.cards[v] : null, peek: v === 1 ? s.cards[0] : null }) });
    expect(checkLeaks(seatLeak, [fullCardTrace(seatLeak)], 1).problems).toEqual([0, 0, 1, 1, 2, 2].map((i) => `episode seed 3 step ${i}: seat 1's observation changes when only seat 0's private information changes`));
  });

  test('legal actions that depend on another seat\'s secret', () => {
    const env = makeHiddenCardTs({ legalActions: (s, seat) => (card.toAct(s).includes(seat) ? (seat === 1 && s.cards[0] === 3 ? [0] : [0, 1]) : []) });
    const t = playout(env, {}, 3, Rng.fromSeed(0), { limit: 2, keepStates: true, choose: () => 1 });
    t.states = [{ cards: [1, 2], history: [1] }];
    expect(checkLeaks(env, [t], 1).problems).toEqual(["episode seed 3 step 0: seat 1's legal actions change when only seat 0's private information changes"]);
  });

  test('notes count the variants; none is noted; sampleEvery skips states; at most 8 problems', () => {
    const r = checkLeaks(card, [fullCardTrace()], 1);
    expect(r).toEqual({ problems: [], notes: ['12 private variants compared'] });
    expect(checkLeaks(card, [fullCardTrace()], 2).notes).toEqual(['8 private variants compared']);
    const none = makeHiddenCardTs({ privateVariants: () => [] });
    expect(checkLeaks(none, [fullCardTrace(none)], 1).notes).toEqual(['0 private variants compared', 'privateVariants returned no variant: the env declares no private state between steps']);
    const leaky = makeHiddenCardTs({ observe: (s) => ({ cards: s.cards }) });
    expect(checkLeaks(leaky, traces(leaky, 10), 1).problems).toHaveLength(8);
  });
});

describe('checkUtility', () => {
  const done = (returns: unknown, seed = 7): Trace => trace({ seed, terminal: true, returns: returns as number[] });

  test('one finite number per seat', () => {
    expect(checkUtility(card, [done([1]), done([1, '1']), done([1, NaN]), done([Infinity, 0]), done([1, -1, 0])])).toEqual([
      'episode seed 7: returns [1] are not 2 finite numbers',
      'episode seed 7: returns [1,"1"] are not 2 finite numbers',
      'episode seed 7: returns [1,null] are not 2 finite numbers',
      'episode seed 7: returns [null,0] are not 2 finite numbers',
      'episode seed 7: returns [1,-1,0] are not 2 finite numbers',
    ]);
    expect(checkUtility(card, [trace({ returns: null })])).toEqual([]);
  });

  test('zero-sum sums to 0 (within 1e-9)', () => {
    expect(checkUtility(card, [done([1, -1]), done([1e-10, 0]), done([0.5, 0])])).toEqual(['episode seed 7: zero-sum env returned [0.5,0] (sum 0.5)']);
    expect(checkUtility(card, [done([-0.5, 0])])).toEqual(['episode seed 7: zero-sum env returned [-0.5,0] (sum -0.5)']);
  });

  test('constant-sum: the declared constant, else the first episode\'s sum', () => {
    const cs = (constantSum?: number) => normalizeEnv({ ...card, meta: { ...card.meta, utility: 'constant-sum', ...(constantSum === undefined ? {} : { constantSum }) } } as never);
    expect(checkUtility(cs(), [done([1, 1], 1), done([2, 0], 2), done([2, 1], 3), done([1, 1 + 1e-10], 4)])).toEqual(['episode seed 3: constant-sum env returned sum 3, expected 2']);
    expect(checkUtility(cs(1), [done([1, 1], 1), done([1, 0], 2)])).toEqual(['episode seed 1: constant-sum env returned sum 2, expected 1']);
    const gs = normalizeEnv({ ...card, meta: { ...card.meta, utility: 'general-sum' } } as never);
    expect(checkUtility(gs, [done([1, 1]), done([5, 0])])).toEqual([]);
  });

  test('stops after 8 problems', () => {
    expect(checkUtility(card, Array.from({ length: 10 }, () => done([1, 1])))).toHaveLength(8);
  });
});

describe('checkEncoder', () => {
  const enc = (over: Partial<NonNullable<Env['encoder']>>) => ({ size: 2, numActions: 2, encode: () => new Float32Array(2), actionIndex: (a: number) => a, action: (i: number) => i, ...over });
  const withEncoder = (e: ReturnType<typeof enc>, members = {}) => makeHiddenCardTs({ encoder: e as never, ...members });

  test('no encoder, nothing to check; a good one passes', () => {
    expect(checkEncoder(card, [fullCardTrace()], 1)).toEqual([]);
    expect(checkEncoder(withEncoder(enc({})), [fullCardTrace()], 1)).toEqual([]);
  });

  test('length, finite values and the round trip of every legal action', () => {
    expect(checkEncoder(withEncoder(enc({ encode: () => new Float32Array(3) })), [fullCardTrace()], 1)).toEqual([
      'episode seed 3 step 0 seat 0: encoding has length 3, declared 2',
      'episode seed 3 step 1 seat 1: encoding has length 3, declared 2',
    ]);
    expect(checkEncoder(withEncoder(enc({ encode: () => Float32Array.from([0, NaN]) })), [fullCardTrace()], 1)).toEqual([
      'episode seed 3 step 0 seat 0: encoding has non-finite values',
      'episode seed 3 step 1 seat 1: encoding has non-finite values',
    ]);
    expect(checkEncoder(withEncoder(enc({ actionIndex: (a: number) => a + 1 })), [fullCardTrace()], 1)).toEqual([
      'episode seed 3 step 0 seat 0: action 0 maps to index 1, which does not map back',
      'episode seed 3 step 1 seat 1: action 0 maps to index 1, which does not map back',
    ]);
    expect(checkEncoder(withEncoder(enc({ actionIndex: (a: number) => (a === 1 ? 2 : a), action: (i: number) => (i === 2 ? 1 : i) })), [fullCardTrace()], 1)).toEqual([
      'episode seed 3 step 0 seat 0: action 1 maps to index 2, which does not map back',
      'episode seed 3 step 1 seat 1: action 1 maps to index 2, which does not map back',
    ]);
    expect(checkEncoder(withEncoder(enc({ actionIndex: (a: number) => a - 1, action: (i: number) => i + 1 })), [fullCardTrace()], 1)).toEqual([
      'episode seed 3 step 0 seat 0: action 0 maps to index -1, which does not map back',
      'episode seed 3 step 1 seat 1: action 0 maps to index -1, which does not map back',
    ]);
  });

  test('open action sets: the played action is checked, and an action without index (-1) is allowed', () => {
    const open = (e: ReturnType<typeof enc>) => normalizeEnv({ ...withEncoder(e), legalActions: undefined } as never);
    expect(checkEncoder(open(enc({ actionIndex: () => -1 })), [fullCardTrace()], 1)).toEqual([]);
    expect(checkEncoder(open(enc({ actionIndex: () => 5 })), [fullCardTrace()], 1)).toEqual([
      'episode seed 3 step 0 seat 0: action 1 maps to index 5, which does not map back',
      'episode seed 3 step 1 seat 1: action 1 maps to index 5, which does not map back',
    ]);
  });

  test('effect steps are skipped; sampleEvery; at most 8 problems', () => {
    const bad = withEncoder(enc({ encode: () => new Float32Array(3) }));
    expect(checkEncoder(bad, [trace({ steps: [step([EFFECT_SEAT], { [EFFECT_SEAT]: 1 })] })], 1)).toEqual([]);
    expect(checkEncoder(bad, [fullCardTrace()], 2)).toEqual(['episode seed 3 step 0 seat 0: encoding has length 3, declared 2']);
    expect(checkEncoder(bad, Array.from({ length: 10 }, () => fullCardTrace()), 1)).toHaveLength(8);
  });
});

describe('checkLegality and friends: the edges mutation testing found', () => {
  const first = () => [trace({ steps: [step([0], { 0: 1 })] })];

  test.each([null, undefined, -1, 1e9, 0.5, NaN, 'x', '', {}, [], { bogus: true }, [1, 2, 3], true])('garbage %p is offered to validateAction', (g) => {
    const same = (a: unknown) => (Number.isNaN(g) ? Number.isNaN(a) : JSON.stringify(a) === JSON.stringify(g) && typeof a === typeof g);
    const env = makeHiddenCardTs({ validateAction: (s, seat, a) => (seat === 0 && same(a) ? { ok: true } : card.validateAction(s, seat, a)) });
    expect(checkLegality(env, first(), 1)).toEqual([`episode seed 7 step 0 seat 0: illegal action ${JSON.stringify(g) ?? String(g)} was accepted`]);
  });

  test('a legal action that looks like garbage is not garbage', () => {
    const env = makeHiddenCardTs({ legalActions: (s, seat) => (card.toAct(s).includes(seat) ? [0, 1, 'x' as never, null as never] : []), validateAction: (s, seat, a) => (card.toAct(s).includes(seat) && [0, 1, 'x', null].includes(a as never) ? { ok: true } : { ok: false, reason: 'no' }) });
    expect(checkLegality(env, first(), 1)).toEqual([]);
  });

  test('throws and reason-less rejections name the value as JSON', () => {
    const throwing = makeHiddenCardTs({ validateAction: (s, seat, a) => { if (a === 'x') throw new Error('no strings'); return card.validateAction(s, seat, a); } });
    expect(checkLegality(throwing, first(), 1)[0]).toBe('episode seed 7 step 0 seat -1: validateAction threw on "x": no strings');
    const mute = makeHiddenCardTs({ validateAction: (s, seat, a) => (a === 'x' ? { ok: false, reason: '' } : card.validateAction(s, seat, a)) });
    expect(checkLegality(mute, first(), 1)[0]).toBe('episode seed 7 step 0 seat -1: rejection of "x" gives no reason');
  });

  test('leaks of an env without legal lists compare observations only', () => {
    const open = normalizeEnv({ ...card, legalActions: undefined, validateAction: () => ({ ok: true }) } as never);
    expect(checkLeaks(open, [fullCardTrace()], 1)).toEqual({ problems: [], notes: ['12 private variants compared'] });
  });

  test('the zero-sum tolerance is exclusive at 1e-9', () => {
    expect(checkUtility(card, [trace({ terminal: true, returns: [1e-9, 0] })])).toEqual([]);
  });
});
