/** An attack's `dims` names dimensions by own keys only: prototype names are unknown dimensions, never inherited ones. */
import { dimsProblem } from '../../../envs/kernel-speedup/measure/inputs';
import { kernelTask } from '../../../envs/kernel-speedup/tasks';

test.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])('dims.%s is an unknown dimension', (name) => {
  const task = kernelTask('matmul');
  const dims = JSON.parse(`{"${name}": 4}`) as unknown;
  expect(dimsProblem(task, dims)).toMatch(new RegExp(`^dims has unknown dimension "${name}"`));
});

test('a dimension is not read from the prototype of the given object', () => {
  const task = kernelTask('matmul');
  const inherited = Object.create(Object.fromEntries(Object.entries(task.dims).map(([k, r]) => [k, r.min]))) as unknown;
  expect(dimsProblem(task, inherited)).toMatch(/^dims\.\w+ must be an integer/);
});
