/**
 * The kit around the checks (issue 20): playouts and their problems, replays, the report
 * (skipping, a check that throws, the order, formatting), options (episodes, seed, sampleEvery).
 */
import { checkEnv, CHECK_NAMES, formatReport } from '../../src/core/conformance/check-env';
import { actorsOf, playout, randomAction, replay } from '../../src/core/conformance/playout';
import { EFFECT_SEAT, type EnvDefinition } from '../../src/core/env';
import { createHeartbeatBuffer, installHeartbeat, readHeartbeat } from '../../src/core/heartbeat';
import { normalizeEnv } from '../../src/core/normalize-env';
import { Rng } from '../../src/core/rng';
import { makeHiddenCardTs, rps } from './conformance-fixtures';

const card = makeHiddenCardTs({});

describe('playout', () => {
  test('plays to the end with the states kept (or not), returns and outcome', () => {
    const t = playout(card, {}, 3, Rng.fromSeed(0), { limit: 2, keepStates: true, choose: () => 1 });
    expect(t).toMatchObject({ seed: 3, terminal: true, outcome: expect.any(String), steps: [{ toAct: [0], actions: { 0: 1 } }, { toAct: [1], actions: { 1: 1 } }] });
    expect(t.states).toHaveLength(3);
    expect(t.steps[0]).not.toHaveProperty('rewards');
    expect(t.returns).toEqual(card.returns(t.states[2]));
    const lean = playout(card, {}, 3, Rng.fromSeed(0), { limit: 2, choose: () => 1 });
    expect(lean.states).toEqual([]);
    expect(lean.returns).toEqual(t.returns);
  });

  test('stops at the limit, on an empty toAct, or when a seat has no action', () => {
    const endless = makeHiddenCardTs({ isTerminal: () => false, toAct: () => [0], legalActions: (_s, seat) => (seat === 0 ? [0, 1] : []) });
    const t = playout(endless, {}, 1, Rng.fromSeed(0), { limit: 3, keepStates: true });
    expect(t).toMatchObject({ problem: 'not terminal after 3 steps (meta.maxLength)', terminal: false, returns: null, outcome: null });
    expect(t.steps).toHaveLength(3);
    expect(t.states).toHaveLength(3);
    const stuck = makeHiddenCardTs({ isTerminal: () => false, toAct: () => [] });
    expect(playout(stuck, {}, 1, Rng.fromSeed(0), { limit: 3 }).problem).toBe('step 0: toAct is empty but the state is not terminal (and no effect is pending)');
    const speechless = makeHiddenCardTs({ legalActions: () => [] });
    expect(playout(speechless, {}, 1, Rng.fromSeed(0), { limit: 3 }).problem).toBe('step 0: no action for seat 0 (no legal actions, or an open action set without sampleAction)');
  });

  test('randomAction: uniform over legal actions; sampleAction for open sets; the sampled effect result for the effect seat', () => {
    const s = card.init({}, 1);
    const seen = new Set(Array.from({ length: 40 }, (_, k) => randomAction(card, s, 0, Rng.fromSeed(k))));
    expect([...seen].sort()).toEqual([0, 1]);
    expect(randomAction(card, s, 1, Rng.fromSeed(0))).toBeUndefined();
    const open = normalizeEnv({ ...card, legalActions: undefined, validateAction: () => ({ ok: true }), sampleAction: (obs: unknown) => ({ saw: obs }) } as never);
    expect(randomAction(open, s, 0, Rng.fromSeed(0))).toEqual({ saw: card.observe(s, 0) });
    const silent = normalizeEnv({ ...card, legalActions: undefined, validateAction: () => ({ ok: true }) } as never);
    expect(randomAction(silent, s, 0, Rng.fromSeed(0))).toBeUndefined();
    expect(randomAction(card, s, EFFECT_SEAT, Rng.fromSeed(0))).toBeUndefined();
  });

  test('replay: the given actions, stopping when the episode ends; the effect seat acts while an effect is pending', () => {
    const t = replay(card, {}, 3, [{ 0: 0 }, { 1: 1 }], true);
    expect(t.steps).toHaveLength(1);
    expect(t).toMatchObject({ terminal: true, returns: [-1, 1] });
    expect(t.states).toHaveLength(2);
    const part = replay(card, {}, 3, [{ 0: 1 }]);
    expect(part).toMatchObject({ terminal: false, returns: null, outcome: null, states: [] });
    const withEffect = normalizeEnv({ ...card, effect: (s: { history: number[] }) => (s.history.length === 0 ? { kind: 'k', request: null } : null) } as never);
    expect(actorsOf(withEffect, card.init({}, 1))).toEqual([EFFECT_SEAT]);
    expect(actorsOf(card, card.init({}, 1))).toEqual([0]);
    const rewarded = makeHiddenCardTs({ step: (s, a) => ({ ...card.step(s, a), rewards: [{ seat: 0, value: 1 }] }) });
    expect(replay(rewarded, {}, 3, [{ 0: 1 }]).steps[0].rewards).toEqual([{ seat: 0, value: 1 }]);
    expect(playout(rewarded, {}, 3, Rng.fromSeed(0), { limit: 2, choose: () => 1 }).steps[0].rewards).toEqual([{ seat: 0, value: 1 }]);
  });
});

describe('checkEnv', () => {
  test('every check runs, in order; episodes and params are reported', () => {
    const r = checkEnv(rps(), { episodes: 2, params: { rounds: 2 } });
    expect(r).toMatchObject({ env: 'rock-paper-scissors-v1', params: { rounds: 2 }, episodes: 2, ok: true });
    expect(r.checks.map((c) => c.name)).toEqual([...CHECK_NAMES]);
    expect(r.checks.find((c) => c.name === 'leak')!.notes).toEqual(['0 private variants compared', 'privateVariants returned no variant: the env declares no private state between steps']);
    expect(checkEnv(rps()).episodes).toBe(20);
  });

  test('bad params stop the run after the params check', () => {
    const r = checkEnv(rps(), { params: { rounds: 0 } });
    expect(r.ok).toBe(false);
    expect(r.params).toBeNull();
    expect(r.checks.map((c) => c.name)).toEqual(['params']);
  });

  test('skipped checks pass and say so', () => {
    const r = checkEnv(makeHiddenCardTs({ returns: () => [1, 1] }), { episodes: 2, skip: ['utility', 'golden'] });
    expect(r.ok).toBe(true);
    expect(r.checks.find((c) => c.name === 'utility')).toEqual({ name: 'utility', ok: true, problems: [], skipped: true });
    expect(formatReport(r)).toContain('  - utility (skipped)');
  });

  test('a check that throws fails with the error (and the stack of an Error)', () => {
    const r = checkEnv(makeHiddenCardTs({ observe: () => { throw new Error('kaput'); } }), { episodes: 1 });
    const purity = r.checks.find((c) => c.name === 'json-purity')!;
    expect(purity.ok).toBe(false);
    expect(purity.problems[0]).toMatch(/^threw: Error: kaput\n\s+at /);
    const plain = checkEnv(makeHiddenCardTs({ observe: () => { throw 'text'; } }), { episodes: 1 });
    expect(plain.checks.find((c) => c.name === 'json-purity')!.problems).toEqual(['threw: text']);
  });

  test('episodes use seeds derived from the base seed; the same options give the same report', () => {
    const seeds = (seed?: number) => {
      const got: number[] = [];
      checkEnv(makeHiddenCardTs({ init: (p, s) => (got.push(Number(s)), card.init(p, s)) }), { episodes: 3, ...(seed === undefined ? {} : { seed }) });
      return got.slice(0, 3);
    };
    expect(seeds()).toEqual(seeds(1));
    expect(seeds(2)).not.toEqual(seeds(1));
    expect(new Set(seeds()).size).toBe(3);
  });

  test('sampleEvery below 1 counts as 1', () => {
    const leaky = makeHiddenCardTs({ observe: (s) => ({ cards: s.cards }) });
    const a = checkEnv(leaky, { episodes: 2, sampleEvery: 0 }).checks.find((c) => c.name === 'leak');
    const b = checkEnv(leaky, { episodes: 2, sampleEvery: 1 }).checks.find((c) => c.name === 'leak');
    expect(a).toEqual(b);
  });

  test('goldens: each problem is prefixed with the golden\'s name', () => {
    const env = rps();
    const r = checkEnv(env, { params: { rounds: 2 }, episodes: 1, goldens: [{ name: 'g1', golden: { header: { golden: 1, env: 'x-v1', params: { rounds: 2 }, seed: 5, observe: {} }, steps: [], end: { returns: [0, 0], outcome: '' } } }] });
    expect(r.checks.find((c) => c.name === 'golden')!.problems[0]).toBe('g1: golden is for x-v1, not rock-paper-scissors-v1');
  });

  test('formatReport: a header, a line per check, problems and notes indented', () => {
    const r = checkEnv(makeHiddenCardTs({ returns: () => [1, 1] }), { episodes: 1 });
    const lines = formatReport(r).split('\n');
    expect(lines[0]).toBe('variant-card-v1: FAIL (1 random playouts, params {})');
    expect(lines).toContain('  ✓ termination');
    expect(lines).toContain('  ✗ utility');
    expect(lines.find((l) => l.startsWith('      episode seed'))).toMatch(/^ {6}episode seed \d+: zero-sum env returned \[1,1\] \(sum 2\)$/);
    expect(lines).toContain('      (0 per-decision rewards (0 ending a try), 0 effects)');
    expect(formatReport(checkEnv(rps(), { episodes: 1 })).split('\n')[0]).toBe('rock-paper-scissors-v1: PASS (1 random playouts, params {"rounds":3})');
  });

  test('under a watched worker the heartbeat names the check and the env member', () => {
    const buffer = createHeartbeatBuffer();
    installHeartbeat(buffer);
    try {
      const seen: unknown[] = [];
      const def = makeHiddenCardTs({ returns: (s) => (seen.push(readHeartbeat(buffer, true)), card.returns(s)) }) as unknown as EnvDefinition;
      checkEnv(normalizeEnv(def), { episodes: 1, skip: ['determinism', 'resume', 'golden', 'utility'] });
      expect(seen[0]).toMatchObject({ member: 'returns', context: { check: 'termination' } });
    } finally {
      installHeartbeat(null);
    }
  });
});
