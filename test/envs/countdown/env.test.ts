import { NUMBER_BASE, PREDICT_RIGHT, PREDICT_WRONG, STOP, TARGET_BASE } from '../../../envs/countdown/actions';
import { countdownEncoder } from '../../../envs/countdown/encoder';
import type { CountdownObservation, CountdownState } from '../../../envs/countdown/types';
import { make } from '../../../app/catalog';
import type { Env } from '../../../src/core/env';
import { ParamError } from '../../../src/core/params';
import { Rng } from '../../../src/core/rng';

type CEnv = Env<CountdownState, unknown, CountdownObservation>;

function setup(params: Record<string, unknown>, seed = 1): { env: CEnv; state: CountdownState } {
  const h = make('countdown-v1', params);
  return { env: h.env as CEnv, state: h.init(seed) as CountdownState };
}

/** Steps the env with one action for the seat to act, asserting it is valid. */
function act(env: CEnv, state: CountdownState, action: unknown): CountdownState {
  const seat = env.toAct(state)[0];
  const check = env.validateAction(state, seat, action);
  if (!check.ok) throw new Error(`rejected ${JSON.stringify(action)}: ${check.reason}`);
  return env.step(state, { [seat]: action }).state;
}

function reason(env: CEnv, state: CountdownState, action: unknown, seat = env.toAct(state)[0]): string {
  const c = env.validateAction(state, seat, action);
  return c.ok ? 'ACCEPTED' : c.reason;
}

/** Slot pair (i, j) and operation o (0 a+b, 1 a-b, 2 b-a, 3 a*b, 4 a/b, 5 b/a) -> action index. */
const move = (i: number, j: number, op: number) => {
  let p = 0;
  for (let a = 0; a < 6; a++) for (let b = a + 1; b < 6; b++, p++) if (a === i && b === j) return 6 * p + op;
  throw new Error('bad pair');
};

describe('params', () => {
  test('bad params name the field and the allowed values', () => {
    expect(() => make('countdown-v1', { rules: 'us' })).toThrow(/param "rules" must be one of "uk", "tinyzero", "reasoning-gym"/);
    expect(() => make('countdown-v1', { numbers: [1] })).toThrow(/param "numbers" must be an array of 2 to 6 integers in \[1, 100\]/);
    expect(() => make('countdown-v1', { numbers: [1, 2, 300] })).toThrow(/param "numbers"/);
    expect(() => make('countdown-v1', { target: 1000 })).toThrow(/param "target" must be an integer in \[1, 999\]/);
    expect(() => make('countdown-v1', { attempts: 0 })).toThrow(/param "attempts" must be an integer in \[1, 32\]/);
    expect(() => make('countdown-v1', { contract: { count: [7, 8] } })).toThrow(/param "contract" field "count" must be \[min, max\] with integers 2 <= min <= max <= 6/);
    expect(() => make('countdown-v1', { contract: { size: 3 } })).toThrow(/param "contract" has unknown field "size"/);
    expect(() => make('countdown-v1', { contract: { values: 'dice' } })).toThrow(/param "contract" field "values".*"tiles"/);
    expect(() => make('countdown-v1', { roles: 'challenger-solver', numbers: [1, 2, 3] }).init(1)).toThrow(ParamError);
    expect(() => make('countdown-v1', { roles: 'challenger-solver', target: 500 }).init(1)).toThrow(/param "target" cannot be given with roles "challenger-solver"/);
  });

  test('seats and defaults per role setup', () => {
    const seats = (roles: string) => setup({ roles }).env.seats(setup({ roles }).state).map((s) => s.role);
    expect(seats('solver')).toEqual(['solver']);
    expect(seats('solver-evaluator')).toEqual(['solver', 'evaluator']);
    expect(seats('challenger-solver')).toEqual(['challenger', 'solver']);
    expect(seats('challenger-solver-evaluator')).toEqual(['challenger', 'solver', 'evaluator']);
    expect(setup({}).state.cfg.attempts).toBe(1);
    expect(setup({ roles: 'challenger-solver' }).state.cfg.attempts).toBe(8);
    expect(setup({ rules: 'tinyzero' }).state.cfg.contract).toEqual({ count: [3, 4], tiles: null, values: [1, 99], target: [1, 99] });
    expect(setup({ rules: 'reasoning-gym' }).state.cfg.contract).toEqual({ count: [4, 6], tiles: null, values: [1, 100], target: [100, 999] });
  });
});

describe('puzzle generation', () => {
  test('uk: six tiles from the bag with the asked number of large tiles, target 100-999', () => {
    for (let seed = 0; seed < 40; seed++) {
      const large = seed % 5;
      const { numbers, target } = setup({ large }, seed).state;
      expect(numbers).toHaveLength(6);
      expect(numbers!.filter((x) => [25, 50, 75, 100].includes(x))).toHaveLength(large);
      for (const x of numbers!.filter((v) => v <= 10)) expect(numbers!.filter((v) => v === x).length).toBeLessThanOrEqual(2);
      expect(target).toBeGreaterThanOrEqual(100);
      expect(target).toBeLessThanOrEqual(999);
    }
  });

  test('tinyzero and reasoning-gym puzzles are inside their contracts and solvable by construction', () => {
    for (const rules of ['tinyzero', 'reasoning-gym']) {
      for (let seed = 0; seed < 15; seed++) {
        const s = setup({ rules }, seed).state;
        const c = s.cfg.contract;
        expect(s.numbers!.length).toBeGreaterThanOrEqual(c.count[0]);
        expect(s.numbers!.length).toBeLessThanOrEqual(c.count[1]);
        for (const x of s.numbers!) expect(x >= c.values[0] && x <= c.values[1]).toBe(true);
        expect(s.target! >= c.target[0] && s.target! <= c.target[1]).toBe(true);
        expect(s.verdict!.reachable).toBe(true);
      }
    }
  });

  test('a given puzzle is used as is; the same seed gives the same puzzle', () => {
    expect(setup({ numbers: [25, 50, 75, 100, 3, 6], target: 952 }).state).toMatchObject({ numbers: [25, 50, 75, 100, 3, 6], target: 952, verdict: { reachable: true } });
    expect(setup({ rules: 'reasoning-gym' }, 42).state.numbers).toEqual(setup({ rules: 'reasoning-gym' }, 42).state.numbers);
  });
});

describe('solver only, text answers', () => {
  test('one attempt, scored by the mode; the return is the score', () => {
    let { env, state } = setup({ numbers: [25, 50, 75, 100, 3, 6], target: 952 });
    expect(env.toAct(state)).toEqual([0]);
    expect(env.render(env.observe(state, 0))).toMatch(/Numbers: 25 50 75 100 3 6\. Target: 952\./);
    state = act(env, state, '(100 + 50) * 6 + 75 - 25');
    expect(env.isTerminal(state)).toBe(true);
    expect(env.returns(state)).toEqual([7]);
    expect(env.outcome(state)).toBe('unsolved');
    expect(env.summary(state)).toMatchObject({
      numbers: [25, 50, 75, 100, 3, 6],
      target: 952,
      verdict: { reachable: true, distance: 0 },
      attempts: [{ answer: '(100 + 50) * 6 + 75 - 25', score: 7, value: 950, correct: false }],
    });
  });

  test('an expression is a legal answer (wrong numbers score as the mode says); one that cannot be read is invalid, not an attempt; non-text is rejected', () => {
    const { env, state } = setup({ rules: 'reasoning-gym', numbers: [10, 20, 30, 40], target: 100 });
    // issue 28: a typo is bounced back with the parser's reason instead of consuming the attempt
    expect(reason(env, state, '75 + 50 = 125')).toBe(
      'unknown character \'=\' at position 9: answer with one arithmetic expression over the numbers, e.g. (100 + 6) * 3, without "=" or the result',
    );
    expect(reason(env, state, '2 ** 3')).toMatch(/^"\*\*" \(power\) is not allowed \(position 3\): answer with/);
    expect(reason(env, state, '   ')).toMatch(/^empty answer: answer with/);
    expect(reason(env, state, '2 + 3')).toBe('ACCEPTED');
    expect(env.returns(act(env, state, '2 + 3'))).toEqual([0.05]);
    expect(env.returns(act(env, state, '10 + 20 + 30 + 40'))).toEqual([1]);
    const tagged = setup({ rules: 'tinyzero', numbers: [10, 20, 30, 40], target: 100, answerTag: true });
    expect(reason(tagged.env, tagged.state, '10 + 20 + 30 + 40')).toMatch(/^no <answer>…<\/answer> tag in the text: answer with one arithmetic expression over the numbers inside <answer><\/answer>/);
    expect(reason(tagged.env, tagged.state, 'so <answer>10 + 20 + 30 + 40</answer>')).toBe('ACCEPTED');
    expect(reason(env, state, { x: 1 })).toMatch(/an answer must be text \(an arithmetic expression\) or a step index/);
    expect(reason(env, state, 42)).toBe('move 42 (a+b on slots 1 and 4): slot 4 is empty');
    expect(reason(env, state, 500)).toBe('500 is not a solver action (0-90)');
    expect(reason(env, state, 'x'.repeat(20001))).toMatch(/longer than 20000/);
    expect(reason(env, state, '1 + 2', 1)).toMatch(/seat 1 is not to act/);
  });
});

describe('challenger, K attempts, evaluator', () => {
  const params = { roles: 'challenger-solver-evaluator', attempts: 4 };

  test('out-of-contract proposals are rejected with reasons', () => {
    const { env, state } = setup(params);
    expect(reason(env, state, { numbers: [25, 50, 75, 100, 3], target: 952 })).toBe('the contract asks for 6 numbers, got 5');
    expect(reason(env, state, { numbers: [1, 1, 1, 2, 3, 4], target: 500 })).toBe('number 1 appears 3 times but the tile bag has 2');
    expect(reason(env, state, { numbers: [11, 1, 2, 3, 4, 5], target: 500 })).toMatch(/number 11 is not a tile/);
    expect(reason(env, state, { numbers: [0, 1, 2, 3, 4, 5], target: 500 })).toMatch(/number 0 is outside the contract \(integers 1 to 100\)/);
    expect(reason(env, state, { numbers: [25, 50, 75, 100, 3, 6], target: 50 })).toBe('target 50 is outside the contract (integers 100 to 999)');
    expect(reason(env, state, { numbers: [25, 50, 75, 100, 3, 6], target: 952, hint: 1 })).toMatch(/unknown field "hint"/);
    expect(reason(env, state, 'not json')).toMatch(/unparsable text/);
    expect(reason(env, state, '{"numbers":[25,50,75,100,3,6],"target":952}')).toBe('ACCEPTED');
  });

  test('p = 1/2: challenger 1, solver the mean score, evaluator the agreement rate', () => {
    let { env, state } = setup(params);
    state = act(env, state, { numbers: [25, 50, 75, 100, 3, 6], target: 952 });
    expect(env.toAct(state)).toEqual([1]);
    const answers = ['((100 + 6) * 3 * 75 - 50) / 25', '(100 + 50) * 6 + 75 - 25', '2 + 3', '((100 + 6) * 75 * 3 - 50) / 25'];
    for (const [k, a] of answers.entries()) {
      const o = env.observe(state, 1);
      expect(o.attemptsDone).toBe(k);
      // attempts are independent: the solver never sees its other answers, nobody sees any before the reveal
      for (const v of [0, 1, 2, 'public'] as const) expect(JSON.stringify(env.observe(state, v))).not.toContain('100 + 6');
      state = act(env, state, a);
    }
    expect(state.phase).toBe('evaluate');
    const ev = env.observe(state, 2);
    expect(ev.answers).toEqual(answers);
    expect(ev.results).toBeUndefined();
    for (const p of [true, false, true, false]) state = act(env, state, p);
    // correct: [T, F, F, T]; predictions agree on attempts 0, 1 -> 0.5
    expect(env.returns(state)).toEqual([1, (10 + 7 + 0 + 10) / 4, 0.5]);
    expect(env.outcome(state)).toBe('partly-solved');
    expect(env.observe(state, 'public').results?.map((r) => r.score)).toEqual([10, 7, 0, 10]);
  });

  test('the challenger formula 1 - |2p - 1| at p = 0, 1/4, 3/4, 1', () => {
    const play = (answers: string[]) => {
      let { env, state } = setup({ roles: 'challenger-solver', attempts: 4 });
      state = act(env, state, { numbers: [100, 5, 2, 1, 3, 4], target: 112 });
      for (const a of answers) state = act(env, state, a);
      return env.returns(state)[0];
    };
    expect(play(['100', '100', '100', '100'])).toBe(0);
    expect(play(['(5 + 1) * 2 + 100', '100', '100', '100'])).toBe(0.5);
    expect(play(['100 + 4 * 3 * 1', '(5 + 1) * 2 + 100', '100 + 3 * 4', '112 - 0'])).toBe(0.5);
    expect(play(['100 + 4 * 3', '(5 + 1) * 2 + 100', '100 + 3 * 4', '100 + 5'])).toBe(0.5); // p = 3/4
    expect(play(['100 + 4 * 3', '(5 + 1) * 2 + 100', '100 + 3 * 4', '4 * 3 + 100'])).toBe(0);
  });

  test('an unsolvable proposal is legal, ends the episode and earns -1', () => {
    let { env, state } = setup(params);
    state = act(env, state, { numbers: [1, 1, 2, 2, 3, 3], target: 999 });
    expect(env.isTerminal(state)).toBe(true);
    expect(env.returns(state)).toEqual([-1, 0, 0]);
    expect(env.outcome(state)).toBe('unsolvable');
    expect(env.summary(state)).toMatchObject({ unsolvable: true, verdict: { reachable: false, value: 81 } });
  });
});

describe('index actions (steps)', () => {
  test('index layout: pairs × operations, uk legality with reasons, stop', () => {
    let { env, state } = setup({ numbers: [10, 4, 3, 7, 2, 25], target: 137 });
    const o = env.observe(state, 0);
    expect(o.legal).toContain(move(0, 1, 1)); // 10 - 4
    expect(o.legal).not.toContain(move(0, 1, 2)); // 4 - 10
    expect(reason(env, state, move(0, 1, 2))).toBe(`move ${move(0, 1, 2)}: 4 - 10 is not a positive integer (uk rules)`);
    expect(reason(env, state, move(0, 1, 4))).toBe(`move ${move(0, 1, 4)}: 10 / 4 is not exact (uk rules)`);
    expect(reason(env, state, NUMBER_BASE)).toMatch(/is not a solver action/);
    state = act(env, state, move(0, 1, 1)); // slot 0 = 6, slot 1 empty
    expect(env.observe(state, 0).pool).toEqual([[6, 1], null, [3, 1], [7, 1], [2, 1], [25, 1]]);
    expect(env.observe(state, 0).moves).toEqual(['10 - 4 = 6']);
    expect(reason(env, state, move(0, 1, 0))).toMatch(/slot 1 is empty/);
    expect(reason(env, state, '100 + 2')).toMatch(/this attempt is being played by steps \(1 so far\)/);
    state = act(env, state, move(0, 5, 3)); // 6 * 25 = 150
    state = act(env, state, move(0, 3, 1)); // 150 - 7 = 143
    state = act(env, state, move(0, 2, 1)); // 143 - 3 = 140
    state = act(env, state, STOP);
    // the answer is the pool's closest number: 140 (distance 3)
    expect(env.summary(state)).toMatchObject({ attempts: [{ answer: '6 * 25 - 7 - 3'.replace('6', '(10 - 4)'), score: 7, value: 140 }] });
  });

  test('rational rules: fractions in the pool, the attempt ends by itself at one number, all numbers required', () => {
    let { env, state } = setup({ rules: 'tinyzero', numbers: [10, 4, 28], target: 7 });
    state = act(env, state, move(0, 1, 4)); // 10 / 4 = 5/2
    expect(env.observe(state, 0).pool).toEqual([[5, 2], null, [28, 1]]);
    state = act(env, state, move(0, 2, 3)); // 5/2 * 28 = 70
    expect(env.isTerminal(state)).toBe(true);
    expect(env.summary(state)).toMatchObject({ attempts: [{ answer: '10 / 4 * 28', value: 70, score: 0.1 }] });
    let s2 = setup({ rules: 'tinyzero', numbers: [10, 4, 28], target: 7 });
    let st = act(s2.env, s2.state, move(1, 2, 5)); // 28 / 4 = 7
    st = act(s2.env, st, STOP); // stops with two numbers left: not every number used
    expect(s2.env.summary(st)).toMatchObject({ attempts: [{ status: 'numbers', score: 0.1 }] });
    s2 = setup({ rules: 'tinyzero', numbers: [10, 4, 28], target: 17 });
    st = act(s2.env, s2.state, move(1, 2, 5));
    st = act(s2.env, st, move(0, 1, 0)); // 10 + 7
    expect(s2.env.returns(st)).toEqual([1]);
  });

  test('challenger indices: numbers then the target; the bag and the contract are enforced', () => {
    let { env, state } = setup({ roles: 'challenger-solver', attempts: 1 });
    expect(reason(env, state, TARGET_BASE + 499)).toMatch(/add at least 6 numbers before choosing the target/);
    state = act(env, state, NUMBER_BASE + 99); // 100
    expect(reason(env, state, { numbers: [25, 50, 75, 100, 3, 6], target: 952 })).toMatch(/the proposal is being composed by index/);
    expect(reason(env, state, NUMBER_BASE + 99)).toMatch(/number 100 cannot be added again/);
    expect(reason(env, state, NUMBER_BASE + 10)).toBe('number 11 is not a tile (tiles: 1-10 twice each, 25, 50, 75, 100)');
    for (const v of [75, 3, 3, 6, 8]) state = act(env, state, NUMBER_BASE + v - 1);
    expect(env.observe(state, 'public').draft).toEqual([100, 75, 3, 3, 6, 8]);
    expect(reason(env, state, NUMBER_BASE)).toMatch(/already has 6 numbers/);
    expect(reason(env, state, TARGET_BASE + 49)).toBe('target 50 is outside the contract (100 to 999)');
    expect(env.observe(state, 0).legal).toHaveLength(900);
    state = act(env, state, TARGET_BASE + 811);
    expect(state.phase).toBe('solve'); // 812 is reachable from 100 75 3 3 6 8
    expect(state.verdict?.reachable).toBe(true);
    expect(state.numbers).toEqual([100, 75, 3, 3, 6, 8]);
    expect(state.target).toBe(812);
  });

  test('evaluator indices and the encoder', () => {
    let { env, state } = setup({ roles: 'solver-evaluator', attempts: 2, numbers: [100, 5, 2, 1], target: 112 });
    state = act(env, state, STOP);
    state = act(env, state, move(1, 3, 0)); // 5 + 1 = 6
    state = act(env, state, move(1, 2, 3)); // 6 * 2 = 12
    state = act(env, state, move(0, 1, 0)); // 100 + 12
    expect(state.phase).toBe('evaluate');
    const o = env.observe(state, 1);
    expect(o.legal).toEqual([PREDICT_WRONG, PREDICT_RIGHT]);
    const x = countdownEncoder.encode(o, new Float32Array(countdownEncoder.size));
    expect(x).toHaveLength(690);
    expect(x.subarray(60).every((v) => v === 0)).toBe(true); // no attempt of its own: no move features
    expect(x[2]).toBe(1); // evaluator
    expect(x[54]).toBe(1); // reviewing attempt 1: '100'
    expect(x[56]).toBeCloseTo(0.1); // its value 100 / 1000
    expect(reason(env, state, 'yes')).toMatch(/a prediction must be true .*, false, or an index/);
    expect(reason(env, state, 5)).toMatch(/5 is not an evaluator action/);
    state = act(env, state, PREDICT_WRONG);
    state = act(env, state, PREDICT_RIGHT);
    expect(env.returns(state)).toEqual([(0 + 10) / 2, 1]);
    expect(countdownEncoder.actionIndex(PREDICT_RIGHT)).toBe(PREDICT_RIGHT);
    expect(countdownEncoder.actionIndex('1 + 2')).toBe(-1);
    expect(countdownEncoder.numActions).toBe(PREDICT_RIGHT + 1);
  });
});

describe('random play', () => {
  test('sampleAction picks legal indices for every seat; text and index forms mix across attempts', () => {
    let { env, state } = setup({ rules: 'reasoning-gym', roles: 'challenger-solver-evaluator', attempts: 2 }, 3);
    const rng = Rng.fromSeed(9);
    for (let k = 0; k < 20; k++) expect(reason(env, state, env.sampleAction!(env.observe(state, 0), rng))).toBe('ACCEPTED');
    state = act(env, state, { numbers: [10, 20, 30, 40], target: 100 });
    state = act(env, state, '10 + 20 + 30 + 40'); // attempt 1 as text
    for (let guard = 0; state.phase === 'solve' && guard < 10; guard++) state = act(env, state, env.sampleAction!(env.observe(state, 1), rng));
    expect(state.results.map((r) => r.moves === null)).toEqual([true, false]);
    state = act(env, state, true);
    state = act(env, state, PREDICT_WRONG);
    expect(env.returns(state)[2]).toBe(state.results[1].correct ? 0.5 : 1);
  });
});
