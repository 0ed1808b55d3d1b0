import { createRegistry } from '../../app/catalog';
import { checkEnv, formatReport } from '../../src/core/conformance/check-env';
import { formatGolden, parseGolden, recordGolden, verifyGolden } from '../../src/core/conformance/golden';
import { normalizeEnv } from '../../src/core/normalize-env';
import { makeHiddenCardTs, loadEnv, rps } from './conformance-fixtures';

const failed = (r: ReturnType<typeof checkEnv>) => r.checks.filter((c) => !c.ok).map((c) => c.name);

describe('checkEnv', () => {
  test('the example env passes every check', () => {
    const report = checkEnv(rps(), { episodes: 10 });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([
      'params', 'termination', 'json-purity', 'determinism', 'legality', 'resume', 'leak', 'view-stream', 'capabilities', 'utility', 'encoder', 'golden',
    ]);
  });

  test('the hidden-card fixture passes and its leak check compares variants', () => {
    const report = checkEnv(loadEnv('test/fixtures/hidden-card.js'), { episodes: 10 });
    expect(report.ok).toBe(true);
    const leak = report.checks.find((c) => c.name === 'leak')!;
    expect(leak.notes?.[0]).toMatch(/^[1-9]\d* private variants compared/);
  });

  test('a leak is caught and named', () => {
    const report = checkEnv(loadEnv('test/fixtures/leaky-env.js'), { episodes: 10 });
    expect(report.ok).toBe(false);
    expect(failed(report)).toEqual(['leak']);
    expect(formatReport(report)).toMatch(/seat 1's observation changes when only seat 0's private information changes/);
  });

  test('non-determinism is caught', () => {
    const report = checkEnv(loadEnv('test/fixtures/nondeterministic-env.js'), { episodes: 20 });
    expect(failed(report)).toContain('determinism');
    expect(formatReport(report)).toMatch(/init gives different states for the same seed/);
  });

  test('an env that accepts illegal actions is caught', () => {
    const report = checkEnv(loadEnv('test/fixtures/accepts-illegal-env.js'), { episodes: 5 });
    expect(failed(report)).toEqual(['legality']);
    expect(formatReport(report)).toMatch(/illegal action .* was accepted/);
  });

  test('mutation, non-termination, wrong sums and throwing validators are caught', () => {
    const mutating = makeHiddenCardTs({
      step(s, a) {
        const seat = s.history.length === 0 ? 0 : 1;
        s.history.push(a[seat]);
        return { state: { cards: s.cards, history: [...s.history] }, events: [] };
      },
    });
    expect(failed(checkEnv(mutating, { episodes: 5 }))).toContain('json-purity');

    const endless = makeHiddenCardTs({ isTerminal: () => false, toAct: () => [0], legalActions: (_s, seat) => (seat === 0 ? [0, 1] : []) });
    expect(failed(checkEnv(endless, { episodes: 2 }))).toContain('termination');

    const notZeroSum = makeHiddenCardTs({ returns: () => [1, 1] });
    expect(failed(checkEnv(notZeroSum, { episodes: 3 }))).toEqual(['utility']);

    const throwing = makeHiddenCardTs({
      validateAction: (_s, _seat, a) => {
        if (typeof a !== 'number') throw new TypeError('boom');
        return a === 0 || a === 1 ? { ok: true } : { ok: false, reason: 'bad' };
      },
    });
    expect(formatReport(checkEnv(throwing, { episodes: 3 }))).toMatch(/validateAction threw on null: boom/);
  });

  test('an exception inside the env becomes a failed check, not a crash', () => {
    const exploding = makeHiddenCardTs({ observe: () => { throw new Error('kaput'); } });
    const report = checkEnv(exploding, { episodes: 2 });
    expect(report.ok).toBe(false);
  });

  test('bad params fail the params check with the field named', () => {
    const report = checkEnv(rps(), { params: { rounds: 'three' } });
    expect(report.ok).toBe(false);
    expect(report.checks[0].problems[0]).toMatch(/param "rounds" must be an integer in \[1, 99\]/);
  });
});

describe('golden playthroughs', () => {
  const env = rps();
  const params = env.resolveParams({ rounds: 2 });
  const golden = recordGolden(env, params, 5, [{ 0: 0, 1: 2 }, { 0: 1, 1: 1 }]);

  test('record, format, parse and verify round-trip', () => {
    const text = formatGolden(golden);
    expect(text.trim().split('\n')).toHaveLength(4);
    expect(verifyGolden(env, parseGolden(text))).toEqual([]);
    expect(golden.end).toEqual({ returns: [1, -1], outcome: 'player0' });
    expect(checkEnv(env, { params: { rounds: 2 }, episodes: 2, goldens: [{ name: 'g', golden }] }).ok).toBe(true);
  });

  test('a tampered golden fails with the step and viewer named', () => {
    const bad = parseGolden(formatGolden(golden));
    (bad.steps[1].observe['public'] as { score: number[] }).score = [2, 0];
    bad.end.returns = [-1, 1];
    const problems = verifyGolden(env, bad);
    expect(problems[0]).toMatch(/^step 1: observation of viewer public differs/);
    expect(problems[1]).toMatch(/^returns: expected \[-1,1\], got \[1,-1\]/);
  });

  test('recording an illegal action throws with the reason', () => {
    expect(() => recordGolden(env, params, 5, [{ 0: 7, 1: 0 }])).toThrow(/golden step 0: seat 0: 7 is not a legal action/);
  });

  test('normalizeEnv names a missing member', () => {
    const { step: _omit, ...rest } = loadEnv('test/fixtures/hidden-card.js');
    expect(() => normalizeEnv(rest as never)).toThrow(/env hidden-card-v1: missing function "step"/);
  });

  test('Math.random in the deal or in a step fails determinism with only 5 episodes (issue 15 item 10)', async () => {
    const registry = createRegistry();
    const { envs } = await registry.loadModule('test/fixtures/math-random-env.js');
    expect(envs).toEqual(['random-deal-v1', 'random-coin-v1']);
    for (const id of envs) {
      const report = checkEnv(registry.env(id), { episodes: 5 });
      const determinism = report.checks.find((c) => c.name === 'determinism')!;
      expect(determinism.ok).toBe(false);
      expect(determinism.problems[0]).toMatch(id === 'random-deal-v1' ? /init gives different states|replaying the same actions gave a different state/ : /step 2: replaying the same actions gave a different state/);
    }
  });
});
