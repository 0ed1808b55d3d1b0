import { parseExpression, astNumbers } from '../../../envs/countdown/expression';
import { checkNumbers, scoreAnswer } from '../../../envs/countdown/scoring';
import { solveAllNumbers } from '../../../envs/countdown/solver-rational';
import { solveUk } from '../../../envs/countdown/solver-uk';
import { Rng } from '../../../src/core/rng';
import { drawNumbers } from '../../../envs/countdown/generator';
import { defaultContract } from '../../../envs/countdown/contract';
import { bruteUk } from './brute-force';

// Hot loops avoid globals (Math): global lookups are slow inside jest's vm context.

/** Independent brute force (all numbers, real division). */
function bruteAll(numbers: number[], target: number): boolean {
  const rec = (pool: number[]): boolean => {
    if (pool.length === 1) return pool[0] - target < 1e-9 && target - pool[0] < 1e-9;
    for (let i = 0; i < pool.length; i++) {
      for (let j = i + 1; j < pool.length; j++) {
        const rest = pool.filter((_, k) => k !== i && k !== j);
        const a = pool[i];
        const b = pool[j];
        const rs = [a + b, a - b, b - a, a * b, ...(b ? [a / b] : []), ...(a ? [b / a] : [])];
        if (rs.some((r) => rec([...rest, r]))) return true;
      }
    }
    return false;
  };
  return rec(numbers);
}

describe('uk exact solver', () => {
  test('the classic: 952 from 25 50 75 100 3 6', () => {
    const s = solveUk([25, 50, 75, 100, 3, 6], 952);
    expect(s).toMatchObject({ reachable: true, value: 952, distance: 0, tiles: 6 });
    expect(scoreAnswer('uk', [25, 50, 75, 100, 3, 6], 952, s.expression, false)).toMatchObject({ correct: true, score: 10 });
    expect(s.nodes).toBeGreaterThan(0);
  });

  test('fewest tiles: a target equal to a tile, a two-tile target', () => {
    expect(solveUk([100, 7, 3, 2, 1, 1], 100)).toMatchObject({ reachable: true, expression: '100', tiles: 1 });
    expect(solveUk([100, 7, 3, 2, 1, 1], 107)).toMatchObject({ reachable: true, expression: '100 + 7', tiles: 2 });
  });

  test('unreachable targets report the closest value and an expression for it', () => {
    const s = solveUk([1, 1, 2, 2, 3, 3], 999);
    expect(s.reachable).toBe(false);
    expect(s.value).toBe(81); // (1 + 2) * (1 + 2) * 3 * 3, the largest value these tiles make
    expect(s.distance).toBe(bruteUk([1, 1, 2, 2, 3, 3], 999));
    expect(scoreAnswer('uk', [1, 1, 2, 2, 3, 3], 999, s.expression, false).value).toBe(s.value);
  });

  test('agrees with an independent brute force on 300 random television draws', () => {
    const rng = Rng.fromSeed('solver-test');
    const contract = defaultContract('uk');
    for (let k = 0; k < 300; k++) {
      const numbers = drawNumbers(contract, rng);
      const target = rng.range(100, 999);
      const s = solveUk(numbers, target);
      expect({ numbers, target, distance: s.distance }).toEqual({ numbers, target, distance: bruteUk(numbers, target) });
      const judged = scoreAnswer('uk', numbers, target, s.expression, false);
      expect(judged.status).toBe('ok');
      expect(judged.value).toBe(s.value);
    }
  });

  test('duplicates are used no more often than they exist', () => {
    const s = solveUk([5, 5, 5, 5, 5, 5], 3125);
    expect(s).toMatchObject({ reachable: true, tiles: 5 });
    const parsed = parseExpression(s.expression);
    expect(parsed.ok && checkNumbers(astNumbers(parsed.ast), [5, 5, 5, 5, 5, 5], false)).toBeNull();
  });
});

describe('all-numbers rational solver', () => {
  test('concrete puzzles', () => {
    expect(solveAllNumbers([44, 19, 35], 98)).toMatchObject({ reachable: true });
    expect(solveAllNumbers([1, 3, 3], 1).reachable).toBe(true);
    expect(solveAllNumbers([3, 3, 8, 8], 24)).toMatchObject({ reachable: true, expression: expect.stringContaining('/') }); // 8 / (3 - 8 / 3)
    expect(solveAllNumbers([1, 1, 1], 5).reachable).toBe(false);
    expect(solveAllNumbers([100, 100], 100).reachable).toBe(false); // 100 alone is not allowed: both numbers must be used
    const s = solveAllNumbers([3, 3, 8, 8], 24);
    expect(scoreAnswer('reasoning-gym', [3, 3, 8, 8], 24, s.expression!, false)).toMatchObject({ correct: true });
  });

  test('agrees with an independent brute force on random 3- and 4-number puzzles', () => {
    const rng = Rng.fromSeed('rational');
    for (let k = 0; k < 120; k++) {
      const n = 3 + (k % 2);
      const numbers = Array.from({ length: n }, () => rng.range(1, 25));
      const target = rng.range(1, 99);
      const s = solveAllNumbers(numbers, target);
      expect({ numbers, target, reachable: s.reachable }).toEqual({ numbers, target, reachable: bruteAll(numbers, target) });
      if (s.reachable) expect(scoreAnswer('tinyzero', numbers, target, s.expression!, false).correct).toBe(true);
    }
  });

  test('rational pool values (fractions, zero, negatives) are accepted', () => {
    expect(solveAllNumbers([[7, 3], [3, 1]], 7).reachable).toBe(true);
    expect(solveAllNumbers([[0, 1], [5, 1], [-5, 1]], 0).reachable).toBe(true);
  });
});
