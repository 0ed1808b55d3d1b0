/**
 * The drawn shapes of the seeded correctness trials (inputs.ts `seededShapes`): each dimension is
 * drawn log-uniformly over its whole range (not only from 1: a range starting higher is spread
 * over too), and a draw is retried while the task's cross-dimension rule refuses it — at most 50
 * times per shape, after which a listed edge or timing shape is taken; a draw the rule accepts is
 * kept at once.
 */
import { kernelTask, seededShapes, type KernelTask } from '../../../envs/kernel-speedup';

const matmul = kernelTask('matmul');
const timing = { M: 5, N: 6, K: 7 };

test('a range that starts above 1 is drawn over, end to end, log-uniformly', () => {
  const narrow: KernelTask = { ...matmul, dims: { M: { min: 100, max: 200 }, N: { min: 1, max: 256 }, K: { min: 1, max: 256 } } };
  const ms = Array.from({ length: 300 }, (_, i) => seededShapes(narrow, timing, 2, i)[1].M);
  expect(ms.every((m) => Number.isInteger(m) && m >= 100 && m <= 200)).toBe(true);
  expect(Math.min(...ms)).toBeLessThan(105);
  expect(Math.max(...ms)).toBeGreaterThan(195);
  // log-uniform: the geometric middle √(100·200) ≈ 141 splits the draws about in half
  const below = ms.filter((m) => m < 141.42).length / ms.length;
  expect(below).toBeGreaterThan(0.4);
  expect(below).toBeLessThan(0.6);
});

test('a refused draw is retried at most 50 times, then a listed shape is taken', () => {
  let asked = 0;
  const never: KernelTask = { ...matmul, dimsValid: () => (asked++, 'never') };
  const [, drawn] = seededShapes(never, timing, 2, 'x');
  expect(asked).toBe(50);
  expect([...matmul.edgeShapes, ...matmul.timingShapes]).toContainEqual(drawn);
});

test('a draw the rule accepts is kept at once', () => {
  let asked = 0;
  const third: KernelTask = { ...matmul, dimsValid: () => (++asked === 3 ? null : 'not yet') };
  const shapes = seededShapes(third, timing, 2, 'x');
  expect(asked).toBe(3);
  expect(shapes).toHaveLength(2);
  expect([...matmul.edgeShapes, ...matmul.timingShapes]).not.toContainEqual(shapes[1]);
});
