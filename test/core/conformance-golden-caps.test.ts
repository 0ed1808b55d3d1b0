/**
 * Golden playthroughs (record, parse, verify: every mismatch message) and the capabilities
 * check (declared rewards, tries, action sets and effects against what the env does), issue 20.
 */
import { checkCapabilities } from '../../src/core/conformance/capabilities-check';
import { formatGolden, parseGolden, recordGolden, verifyGolden, type Golden } from '../../src/core/conformance/golden';
import { playout, type Trace } from '../../src/core/conformance/playout';
import { EFFECT_SEAT, type EnvDefinition } from '../../src/core/env';
import { normalizeEnv } from '../../src/core/normalize-env';
import { Rng } from '../../src/core/rng';
import { makeHiddenCardTs, rps } from './conformance-fixtures';

describe('golden playthroughs', () => {
  const env = rps();
  const params = env.resolveParams({ rounds: 2 });
  const actions = [{ 0: 0, 1: 2 }, { 0: 1, 1: 1 }];
  const fresh = (): Golden => parseGolden(formatGolden(recordGolden(env, params, 5, actions)));

  test('the header holds env, params, seed and every viewer\'s first observation', () => {
    const g = recordGolden(env, params, 5, actions);
    expect(g.header).toEqual({ golden: 1, env: 'rock-paper-scissors-v1', params, seed: 5, observe: { 0: env.observe(env.init(params, 5), 0), 1: env.observe(env.init(params, 5), 1), public: env.observe(env.init(params, 5), 'public') } });
    expect(g.steps.map((s) => Object.keys(s.observe))).toEqual([['0', '1', 'public'], ['0', '1', 'public']]);
    expect(g.steps[0].actions).toEqual({ 0: 0, 1: 2 });
  });

  test('recording names the step and seat of an illegal action, and refuses an unfinished episode', () => {
    expect(() => recordGolden(env, params, 5, [{ 0: 0, 1: 1 }, { 0: 0, 1: 9 }])).toThrow('golden step 1: seat 1: 9 is not a legal action');
    expect(() => recordGolden(env, params, 5, [{ 0: 0, 1: 1 }])).toThrow('golden: episode not terminal after 1 steps');
  });

  test('parsing: blank lines ignored, bad JSON names its line, header and end are required', () => {
    const text = formatGolden(recordGolden(env, params, 5, actions));
    expect(parseGolden(text.replace('\n', '\n\n  \n'))).toEqual(parseGolden(text));
    expect(parseGolden(text).steps).toHaveLength(2);
    expect(() => parseGolden(`${text.split('\n')[0]}\n{oops\n`)).toThrow(/^golden line 2: /);
    expect(() => parseGolden(text.split('\n')[0])).toThrow('golden: first line must be a header with "golden": 1');
    expect(() => parseGolden(text.replace('"golden":1', '"golden":2'))).toThrow('golden: first line must be a header with "golden": 1');
    expect(() => parseGolden(text.replace('"returns"', '"result"'))).toThrow('golden: last line must hold "returns"');
  });

  test('verify: a faithful golden gives no problem', () => {
    expect(verifyGolden(env, fresh())).toEqual([]);
  });

  test('verify: wrong env, initial views, step views (missing viewers too), returns and outcome', () => {
    const g = fresh();
    g.header.env = 'other-v1';
    (g.header.observe['0'] as { round: number }).round = 9;
    delete g.steps[0].observe['public'];
    g.end.returns = [0, 0];
    g.end.outcome = 'draw';
    const problems = verifyGolden(env, g);
    expect(problems[0]).toBe('golden is for other-v1, not rock-paper-scissors-v1');
    expect(problems[1]).toMatch(/^initial state: observation of viewer 0 differs: expected \{"round":9,.*\}, got \{"round":0,/);
    expect(problems[2]).toMatch(/^step 0: observation of viewer public differs: expected undefined, got \{/);
    expect(problems.slice(3)).toEqual(['returns: expected [0,0], got [1,-1]', 'outcome: expected "draw", got "player0"']);
  });

  test('verify: an extra viewer in the golden is a difference too', () => {
    const g = fresh();
    g.steps[1].observe['2'] = 1;
    expect(verifyGolden(env, g)).toEqual(['step 1: observation of viewer 2 differs: expected 1, got undefined']);
  });

  test('verify: a rejected action stops the replay; so does an episode that already ended', () => {
    const g = fresh();
    g.steps[0].actions = { 0: 5, 1: 0 };
    expect(verifyGolden(env, g)).toEqual(["step 0: seat 0's action 5 rejected: 5 is not a legal action"]);
    const long = fresh();
    long.steps.push(long.steps[1]);
    long.end.returns = [9, 9];
    expect(verifyGolden(env, long)).toEqual(['step 2: episode already ended']);
  });

  test('verify: an episode that has not ended at the end of the file', () => {
    const g = fresh();
    g.steps.pop();
    expect(verifyGolden(env, g)).toEqual(['episode not terminal at the end of the golden file']);
  });
});

describe('checkCapabilities', () => {
  const card = makeHiddenCardTs({});
  const t = (steps: Trace['steps'], states: unknown[] = [card.init({}, 1), card.init({}, 1)]): Trace => ({ params: {}, seed: 4, steps, states, terminal: true, returns: [0, 0], outcome: '' });
  const perDecision = (tries = false) => normalizeEnv({ ...card, capabilities: undefined, meta: { ...card.meta, capabilities: { rewards: 'per-decision', tries } } } as never);

  test('rewards: only when declared; a real seat; a finite value; tries only when declared', () => {
    const steps = [{ toAct: [0], actions: { 0: 1 }, events: [], rewards: [{ seat: 0, value: 1 }, { seat: 2, value: 1 }, { seat: -1, value: 1 }, { seat: 0.5, value: 1 }, { seat: 1, value: Infinity }, { seat: 1, value: '1' as never }, { seat: 1, value: 0, endsTry: true }] }];
    const r = checkCapabilities(card, [t(steps)]);
    expect(r.problems).toEqual([
      'episode seed 4 step 0: step returned rewards but meta.capabilities.rewards is not "per-decision"',
      'episode seed 4 step 0: step returned rewards but meta.capabilities.rewards is not "per-decision"',
      'episode seed 4 step 0: reward for seat 2, not a seat 0..1',
      'episode seed 4 step 0: step returned rewards but meta.capabilities.rewards is not "per-decision"',
      'episode seed 4 step 0: reward for seat -1, not a seat 0..1',
      'episode seed 4 step 0: step returned rewards but meta.capabilities.rewards is not "per-decision"',
      'episode seed 4 step 0: reward for seat 0.5, not a seat 0..1',
      'episode seed 4 step 0: step returned rewards but meta.capabilities.rewards is not "per-decision"',
    ]);
    expect(r.notes).toEqual(['7 per-decision rewards (1 ending a try), 0 effects']);
    expect(checkCapabilities(perDecision(), [t(steps)]).problems).toEqual([
      'episode seed 4 step 0: reward for seat 2, not a seat 0..1',
      'episode seed 4 step 0: reward for seat -1, not a seat 0..1',
      'episode seed 4 step 0: reward for seat 0.5, not a seat 0..1',
      'episode seed 4 step 0: reward value null is not a finite number',
      'episode seed 4 step 0: reward value "1" is not a finite number',
      'episode seed 4 step 0: a reward ends a try but meta.capabilities.tries is false',
    ]);
    expect(checkCapabilities(perDecision(true), [t(steps)]).problems).toHaveLength(5);
  });

  test('tries declared but none ended: a note (only when there were playouts)', () => {
    expect(checkCapabilities(perDecision(true), [t([{ toAct: [0], actions: { 0: 1 }, events: [], rewards: [{ seat: 0, value: 1 }] }])]).notes).toEqual([
      '1 per-decision rewards (0 ending a try), 0 effects',
      'tries are declared but no playout ended one',
    ]);
    expect(checkCapabilities(perDecision(true), []).notes).toEqual(['0 per-decision rewards (0 ending a try), 0 effects']);
    expect(checkCapabilities(perDecision(true), [t([{ toAct: [0], actions: { 0: 1 }, events: [], rewards: [{ seat: 0, value: 1, endsTry: true }] }])]).notes).toHaveLength(1);
  });

  test('an open action set in an env declared finite', () => {
    const mixed = makeHiddenCardTs({ legalActions: (s, seat) => (s.history.length === 1 ? null : card.legalActions!(s, seat)) as never });
    const steps = [{ toAct: [0], actions: { 0: 1 }, events: [] }, { toAct: [1], actions: { 1: 1 }, events: [] }];
    const states = [card.init({}, 1), { ...(card.init({}, 1) as object), history: [1] }];
    expect(checkCapabilities(mixed, [t(steps, states)]).problems).toEqual(['episode seed 4 step 1: seat 1 has an open action set but meta.capabilities.actions is "finite"']);
    const declaredMixed = normalizeEnv({ ...mixed, capabilities: undefined, meta: { ...mixed.meta, capabilities: { actions: 'mixed' } } } as never);
    expect(checkCapabilities(declaredMixed, [t(steps, states)]).problems).toEqual([]);
    expect(checkCapabilities(mixed, [t(steps, [])]).problems).toEqual([]);
  });

  interface Fx {
    asked: boolean;
    done: boolean;
  }
  const effectEnv = (kind: string, declared: string[], accepts = true) =>
    normalizeEnv({
      meta: { id: 'fx-v1', roles: [{ name: 'p', count: 1 }], dynamics: 'sequential', chance: false, information: 'perfect', utility: 'general-sum', maxLength: 3, params: {}, capabilities: { effects: declared } },
      init: () => ({ asked: false, done: false }),
      toAct: (s: Fx) => (s.done || !s.asked ? [] : [0]),
      effect: (s: Fx) => (s.asked ? null : { kind, request: null }),
      sampleEffectResult: () => 1,
      validateAction: (s: Fx, seat: number, a: unknown) => (seat === EFFECT_SEAT ? (accepts && a === 1 ? { ok: true } : { ok: false, reason: 'bad result' }) : !s.done && s.asked && seat === 0 ? { ok: true } : { ok: false, reason: 'no' }),
      legalActions: (s: Fx, seat: number) => (s.asked && !s.done && seat === 0 ? [0] : []),
      step: (s: Fx) => ({ state: s.asked ? { ...s, done: true } : { ...s, asked: true }, events: [] }),
      isTerminal: (s: Fx) => s.done,
      returns: () => [0],
      outcome: () => 'done',
      observe: (s: Fx) => s,
    } as EnvDefinition);
  const fxTrace = (env: ReturnType<typeof effectEnv>) => playout(env, {}, 4, Rng.fromSeed(1), { limit: 3, keepStates: true });

  test('effects: of a declared kind, with a result the env accepts; counted in the notes', () => {
    const good = effectEnv('run', ['run']);
    expect(checkCapabilities(good, [fxTrace(good)])).toEqual({ problems: [], notes: ['0 per-decision rewards (0 ending a try), 1 effects'] });
    const undeclared = effectEnv('time', ['run']);
    expect(checkCapabilities(undeclared, [fxTrace(undeclared)]).problems).toEqual(['episode seed 4 step 0: effect kind "time" is not declared in meta.capabilities.effects']);
    const picky = effectEnv('run', ['run'], false);
    const tr = fxTrace(good);
    expect(checkCapabilities(picky, [tr]).problems).toEqual(['episode seed 4 step 0: the env rejects its own sampled effect result: bad result']);
  });

  test('declared capabilities that disagree with the members', () => {
    const liar = { ...card, capabilities: { ...card.capabilities, encoder: true } };
    expect(checkCapabilities(liar, []).problems).toEqual(['capabilities disagree with the env members']);
    const twice = { ...card, capabilities: { ...card.capabilities, effects: ['a', 'a'] } };
    expect(checkCapabilities(twice, []).problems).toEqual(['capabilities disagree with the env members']);
    expect(checkCapabilities(card, []).problems).toEqual([]);
  });

  test('at most 8 problems', () => {
    const steps = Array.from({ length: 10 }, () => ({ toAct: [0], actions: { 0: 1 }, events: [], rewards: [{ seat: 0, value: 1 }] }));
    expect(checkCapabilities(card, [t(steps)]).problems).toHaveLength(8);
  });
});
