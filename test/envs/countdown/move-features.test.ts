import { STEP_OPS, stepIndex as move } from '../../../envs/countdown/actions';
import { countdownEncoder } from '../../../envs/countdown/encoder';
import { MOVE_BLOCK, MOVE_FEATURES, encodeMoves } from '../../../envs/countdown/move-features';
import type { Q } from '../../../envs/countdown/rational';
import { make } from '../../../app/catalog';

const pool = (...xs: number[]): (Q | null)[] => [0, 1, 2, 3, 4, 5].map((i) => (i < xs.length ? [xs[i], 1] : null));

function features(rules: 'uk' | 'tinyzero', p: (Q | null)[], target: number): (m: number) => number[] {
  const out = new Float32Array(MOVE_BLOCK);
  encodeMoves(rules, p, target, out, 0);
  return (m) => Array.from(out.subarray(m * MOVE_FEATURES, (m + 1) * MOVE_FEATURES));
}

describe('countdown per-move features', () => {
  test('legal, hits the target, closeness (tinyzero: 3 × 8 = 24 with 3 numbers left is no finish yet)', () => {
    const f = features('tinyzero', pool(3, 8, 5), 24);
    expect(f(move(0, 1, 'a*b'))).toEqual([1, 1, 1, 0, 1, 1, 0]); // 3 × 8 = 24, but 5 is still unused
    expect(f(move(0, 1, 'a+b'))[2]).toBeCloseTo(1 / (1 + 13)); // 11 is 13 away
    expect(f(move(0, 1, 'a-b'))[0]).toBe(1); // −5 is legal under tinyzero
    expect(f(move(0, 1, 'a/b')).slice(4)).toEqual([0, 0, 1]); // 3/8: not whole, below 24
    expect(f(move(1, 2, 'a*b')).slice(4)).toEqual([1, 0, 0]); // 40: whole, no divisor of 24, above it
    expect(f(move(3, 4, 'a+b'))).toEqual([0, 0, 0, 0, 0, 0, 0]); // empty slots
  });

  test('completes: the result and the one number left make the target', () => {
    // 4 numbers: after 3 + 5 = 8, the pool is 8, 2, 10 (three numbers): no one-step finish under tinyzero
    expect(features('tinyzero', pool(3, 5, 2, 10), 80)(move(0, 1, 'a+b'))[3]).toBe(0);
    // 3 numbers: 3 + 5 = 8 leaves 8 and 10 → 8 × 10 = 80
    const f = features('tinyzero', pool(3, 5, 10), 80);
    expect(f(move(0, 1, 'a+b'))).toEqual([1, 0, Math.fround(1 / 73), 1, 1, 1, 1]);
    expect(f(move(0, 1, 'a*b'))[3]).toBe(0); // 15 and 10 never make 80
    // division both ways: 12 ÷ 3 = 4 and 8 ÷ 4 = 2
    expect(features('tinyzero', pool(12, 3, 8), 2)(move(0, 1, 'a/b'))[3]).toBe(1);
  });

  test('uk rules: integer steps only, and a finish may leave numbers unused', () => {
    const f = features('uk', pool(7, 2, 9, 1), 18);
    expect(f(move(0, 1, 'a/b'))).toEqual([0, 0, 0, 0, 0, 0, 0]); // 7 ÷ 2 is not an integer
    expect(f(move(0, 1, 'b-a'))[0]).toBe(0); // 2 − 7 is negative
    expect(f(move(0, 1, 'a+b'))[3]).toBe(1); // 9 and 9 make 18 (1 unused is fine)
  });

  test('the encoder writes them for the solver seat, from its own observation', () => {
    const { env, params } = make('countdown-v1', { rules: 'tinyzero', numbers: [3, 5, 10], target: 80 });
    const s = env.init(params, 1);
    const x = countdownEncoder.encode(env.observe(s, 0) as never, new Float32Array(countdownEncoder.size));
    const at = 60 + move(0, 1, 'a+b') * MOVE_FEATURES;
    expect(Array.from(x.subarray(at, at + MOVE_FEATURES))).toEqual([1, 0, Math.fround(1 / 73), 1, 1, 1, 1]);
    expect(Array.from(x.subarray(60)).filter((v, i) => i % MOVE_FEATURES === 0 && v === 1)).toHaveLength(3 * STEP_OPS.length);
  });
});
