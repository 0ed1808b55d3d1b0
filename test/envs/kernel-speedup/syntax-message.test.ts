/**
 * A kernel that does not parse is told why in one line of at most 200 characters (instrument.ts):
 * the parser's message as is up to that length, cut to 197 characters and "..." beyond it. The
 * long messages come from a redeclared identifier whose name is long (the parser repeats it).
 */
import { prepareKernel } from '../../../envs/kernel-speedup';

/** The syntax error of a kernel redeclaring an identifier of `n` characters (the message holds the name). */
function redeclared(n: number): string {
  const name = 'v'.repeat(n);
  const p = prepareKernel(`function k() { let ${name}; let ${name}; }`, ['y']);
  if (p.ok || p.code !== 'syntax-error') throw new Error(`expected a syntax error, got ${JSON.stringify(p)}`);
  return p.message;
}

test('a short message is the parser’s, whole', () => {
  expect(prepareKernel('function k() { x ! }', ['y'])).toEqual({ ok: false, code: 'syntax-error', message: 'Unexpected token (1:18)' });
});

test('exactly 200 characters are kept whole', () => {
  const m = redeclared(153);
  expect(m).toBe(`Identifier '${'v'.repeat(153)}' has already been declared (1:179)`);
  expect(m).toHaveLength(200);
});

test('201 characters and more are cut to 197 and "..."', () => {
  const full = `Identifier '${'v'.repeat(154)}' has already been declared (1:180)`;
  expect(full).toHaveLength(201);
  expect(redeclared(154)).toBe(`${full.slice(0, 197)}...`);
  expect(redeclared(400)).toBe(`Identifier '${'v'.repeat(185)}...`);
});
