import { stepSolutions } from '../../../envs/countdown/step-solutions';
import { bruteStepSequences } from './brute-force';

describe('countdown stepSolutions (difficulty for step-action solvers)', () => {
  test('two numbers, counted by hand', () => {
    expect(stepSolutions('tinyzero', [1, 2], 3)).toEqual({ solving: 1, total: 6 }); // 1+2 of six ops
    expect(stepSolutions('uk', [1, 2], 3)).toEqual({ solving: 1, total: 4 }); // 1−2 and 1÷2 are not legal steps
    expect(stepSolutions('tinyzero', [2, 2], 4)).toEqual({ solving: 2, total: 6 }); // 2+2 and 2×2
  });

  test.each([
    [[3, 5, 10], 80],
    [[4, 7, 2, 9], 24],
    [[1, 1, 1, 1], 4],
    [[25, 50, 75, 99], 7],
  ])('agrees with an independent brute force: %j -> %d', (numbers, target) => {
    expect(stepSolutions('tinyzero', numbers, target)).toEqual(bruteStepSequences(numbers, target));
  });

  test('four numbers: 6·6 × 3·6 × 6 complete sequences when every operation is legal', () => {
    expect(stepSolutions('tinyzero', [3, 5, 7, 11], 1000).total).toBe(36 * 18 * 6);
    expect(() => stepSolutions('tinyzero', [1, 2, 3, 4, 5, 6], 10)).toThrow(/at most 5 numbers, got 6/);
  });
});
