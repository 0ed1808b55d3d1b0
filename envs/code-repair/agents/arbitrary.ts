/**
 * Task generators (JSON descriptions, see envs/code-repair/task-format.ts) as fast-check
 * arbitraries. Unknown kinds are an error naming the kind and where it is.
 */
import fc from 'fast-check';
import type { JsonValue } from '../../../src/core/json';
import type { ArbitraryDescription } from '../task-format';

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

function num(o: Record<string, JsonValue>, key: string, fallback: number): number {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** The fast-check arbitrary a description stands for. */
export function toArbitrary(d: ArbitraryDescription | JsonValue, where = 'generator'): fc.Arbitrary<JsonValue> {
  if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new Error(`${where}: expected an object like {"integer": {...}}`);
  const keys = Object.keys(d);
  if (keys.length !== 1) throw new Error(`${where}: a node has exactly one kind, got ${JSON.stringify(keys)}`);
  const kind = keys[0];
  const arg = (d as Record<string, JsonValue>)[kind];
  const o = (arg && typeof arg === 'object' && !Array.isArray(arg) ? arg : {}) as Record<string, JsonValue>;
  switch (kind) {
    case 'integer':
      return fc.integer({ min: num(o, 'min', -1000), max: num(o, 'max', 1000) });
    case 'nat':
      return fc.nat({ max: num(o, 'max', 1000) });
    case 'float':
      return fc.double({ min: num(o, 'min', -1000), max: num(o, 'max', 1000), noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
    case 'boolean':
      return fc.boolean();
    case 'string': {
      const chars = typeof o.chars === 'string' && o.chars.length ? o.chars : PRINTABLE;
      return fc.array(fc.constantFrom(...chars.split('')), { minLength: num(o, 'minLength', 0), maxLength: num(o, 'maxLength', 10) }).map((cs) => cs.join(''));
    }
    case 'constant':
      return fc.constant(arg);
    case 'constantFrom':
      if (!Array.isArray(arg) || !arg.length) throw new Error(`${where}.constantFrom: needs a non-empty list`);
      return fc.constantFrom(...arg);
    case 'array':
      return fc.array(toArbitrary(o.of ?? null, `${where}.array.of`), { minLength: num(o, 'minLength', 0), maxLength: num(o, 'maxLength', 10) });
    case 'tuple':
      if (!Array.isArray(arg)) throw new Error(`${where}.tuple: needs a list of nodes`);
      return fc.tuple(...arg.map((x, i) => toArbitrary(x, `${where}.tuple[${i}]`))) as fc.Arbitrary<JsonValue>;
    case 'record':
      return fc.record(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, toArbitrary(v, `${where}.record.${k}`)]))) as fc.Arbitrary<JsonValue>;
    case 'oneof':
      if (!Array.isArray(arg) || !arg.length) throw new Error(`${where}.oneof: needs a non-empty list`);
      return fc.oneof(...arg.map((x, i) => toArbitrary(x, `${where}.oneof[${i}]`)));
    default:
      throw new Error(`${where}: unknown kind "${kind}"`);
  }
}

/** The argument tuples of a task's generator (a tuple node), as an arbitrary of argument lists. */
export function argumentsArbitrary(d: ArbitraryDescription): fc.Arbitrary<JsonValue[]> {
  return toArbitrary(d).map((x) => (Array.isArray(x) ? x : [x]));
}
