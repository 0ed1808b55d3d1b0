/**
 * One fixture per conformance check that fails exactly that check (issue 20): switching any
 * check off makes its fixture pass, so every check is tested by name, not only `report.ok`.
 */
import { checkEnv, formatReport, CHECK_NAMES, type CheckReport } from '../../src/core/conformance/check-env';
import { parseGolden, formatGolden, recordGolden } from '../../src/core/conformance/golden';
import type { EnvDefinition } from '../../src/core/env';
import { normalizeEnv } from '../../src/core/normalize-env';
import { loadEnv, makeHiddenCardTs, rps } from './conformance-fixtures';

const failed = (r: CheckReport) => r.checks.filter((c) => !c.ok).map((c) => c.name);

interface PotionState {
  potion: boolean;
  night: boolean;
  round: number;
}

/**
 * Seat 0 holds a secret potion; at night seat 1 always acts ("sleep") and seat 0 only when it
 * has the potion. No observation or legal list of seat 1 shows the potion, but the public turn
 * of the night names seat 0 exactly when it has one: only the view-stream check can see that.
 */
const potionEnv: EnvDefinition<PotionState, number, unknown> = {
  meta: { id: 'potion-v1', roles: [{ name: 'p', count: 2 }], dynamics: 'simultaneous', chance: true, information: 'imperfect', utility: 'general-sum', maxLength: 8, params: {} },
  init: (_p, seed) => ({ potion: Number(seed) % 2 === 0, night: false, round: 0 }),
  toAct: (s) => (s.round >= 2 ? [] : s.night ? (s.potion ? [0, 1] : [1]) : [0, 1]),
  legalActions: (s, seat) => (potionEnv.toAct(s).includes(seat) ? [0, 1] : []),
  step: (s, a) => ({ state: { ...s, night: !s.night, round: s.night ? s.round + 1 : s.round, potion: s.potion && !(s.night && a[0] === 1) }, events: [{ type: 'phase', visibility: 'public', data: { night: !s.night } }] }),
  isTerminal: (s) => s.round >= 2,
  returns: () => [0, 0],
  outcome: (s) => (s.round >= 2 ? 'done' : ''),
  observe: (s, v) => ({ night: s.night, round: s.round, ...(v === 0 ? { potion: s.potion } : {}) }),
  privateVariants: (s, seat) => (seat === 0 && s.round < 2 ? [{ ...s, potion: !s.potion }] : []),
};

const produced = new WeakSet<object>();

describe('each conformance check has a fixture that fails exactly it', () => {
  const cases: [string, () => CheckReport][] = [
    ['params', () => checkEnv(rps(), { params: { rounds: 0 }, episodes: 3 })],
    [
      'termination',
      () => checkEnv(makeHiddenCardTs({ step: (s, a) => ({ state: { cards: s.cards, history: s.history.length ? s.history : [a[0]] }, events: [] }), toAct: (s) => (s.history.length < 1 ? [0] : [0]), isTerminal: () => false, legalActions: (s, seat) => (seat === 0 ? [0, 1] : []), returns: () => [0, 0] }), { episodes: 3 }),
    ],
    [
      'json-purity',
      () =>
        checkEnv(
          // a Date in the state: not plain JSON (it would come back from storage as a string)
          makeHiddenCardTs({ init: (_p, seed) => ({ cards: [1 + (Number(seed) % 3), 1 + (Number(seed) % 2)], history: [], at: new Date(0) }) as never }),
          { episodes: 5 },
        ),
    ],
    ['determinism', () => checkEnv(loadEnv('test/fixtures/nondeterministic-env.js'), { episodes: 10 })],
    ['legality', () => checkEnv(loadEnv('test/fixtures/accepts-illegal-env.js'), { episodes: 5 })],
    [
      'resume',
      () =>
        checkEnv(
          makeHiddenCardTs({
            // remembers the states it made by identity: a state that went through JSON is a stranger
            step(s, a) {
              const seat = s.history.length === 0 ? 0 : 1;
              const known = produced.has(s);
              const state = { cards: s.cards, history: [...s.history, a[seat]] };
              produced.add(state);
              return { state, events: [{ type: 'move', visibility: 'public', data: { seat, move: a[seat], known } }] };
            },
          }),
          { episodes: 10 },
        ),
    ],
    ['leak', () => checkEnv(loadEnv('test/fixtures/leaky-env.js'), { episodes: 10 })],
    ['view-stream', () => checkEnv(normalizeEnv(potionEnv), { episodes: 8 })],
    [
      'capabilities',
      () =>
        checkEnv(
          makeHiddenCardTs({
            step(s, a) {
              const seat = s.history.length === 0 ? 0 : 1;
              return { state: { cards: s.cards, history: [...s.history, a[seat]] }, events: [], rewards: [{ seat, value: 1 }] };
            },
          }),
          { episodes: 5 },
        ),
    ],
    ['utility', () => checkEnv(makeHiddenCardTs({ returns: () => [1, 1] }), { episodes: 3 })],
    [
      'encoder',
      () =>
        checkEnv(
          makeHiddenCardTs({ encoder: { size: 3, numActions: 2, encode: () => new Float32Array(2), actionIndex: (a: number) => a, action: (i: number) => i } }),
          { episodes: 3 },
        ),
    ],
    [
      'golden',
      () => {
        const env = rps();
        const params = env.resolveParams({ rounds: 2 });
        const golden = parseGolden(formatGolden(recordGolden(env, params, 5, [{ 0: 0, 1: 2 }, { 0: 1, 1: 1 }])));
        golden.end.returns = [-1, 1];
        return checkEnv(env, { params: { rounds: 2 }, episodes: 3, goldens: [{ name: 'tampered', golden }] });
      },
    ],
  ];

  test('every check has a case here', () => {
    expect(cases.map(([name]) => name).sort()).toEqual([...CHECK_NAMES].sort());
  });

  test.each(cases)('%s', (name, run) => {
    const report = run();
    if (failed(report).join() !== name) console.log(formatReport(report));
    expect(failed(report)).toEqual([name]);
    const check = report.checks.find((c) => c.name === name)!;
    expect(check.problems.length).toBeGreaterThan(0);
    expect(formatReport(report)).toContain(`✗ ${name}`);
  });
});
