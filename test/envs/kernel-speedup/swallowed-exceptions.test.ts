/**
 * Every way a kernel can swallow an exception is counted by the wrapper's probe (instrument.ts),
 * not only a `catch` block (issue 23): a `finally` that returns, breaks or continues, and a catch
 * while the source loads (in the first call's probe); promises, which swallow exceptions in ways
 * no counter sees, throw by every route; async functions are refused before anything runs. In a throwaway vm context (the lab runs the
 * same wrapper in an isolate; anti-hacking.test.ts plays these fixtures through the real lab).
 */
import { createContext, runInContext } from 'node:vm';
import { PROBE_OUTPUT, prepareKernel } from '../../../envs/kernel-speedup';
import { NO_PROMISES } from '../../../envs/kernel-speedup/measure/instrument';

type Measured = (inputs: unknown, dims: unknown) => Record<string, unknown>;

function wrapped(source: string): { f: Measured; context: object; source: string; catches: number } {
  const p = prepareKernel(source, ['y']);
  if (!p.ok) throw new Error(p.message);
  const context = createContext({});
  return { f: runInContext(p.source, context) as Measured, context, source: p.source, catches: p.catches };
}

/** Inputs whose `fast` path throws, and the probe of one call. */
const failing = { fast: () => { throw new Error('fast path failed'); } };
const probe = (r: Record<string, unknown>) => Array.from(r[PROBE_OUTPUT] as Int32Array);

describe('a finally that swallows the exception', () => {
  test.each([
    ['return', 'function k(i) { try { return { y: i.fast() }; } finally { return { y: 2 }; } }'],
    ['break', 'function k(i) { l: try { return { y: i.fast() }; } finally { break l; } return { y: 2 }; }'],
    ['continue', 'function k(i) { for (let n = 0; n < 1; n++) { try { return { y: i.fast() }; } finally { continue; } } return { y: 2 }; }'],
  ])('by %s: counted', (_how, source) => {
    const { f, catches } = wrapped(source);
    expect(catches).toBe(1);
    const r = f(failing, {});
    expect(r.y).toBe(2);
    expect(probe(r)).toEqual([1, 0]);
  });

  test('a finally that lets the exception go: the call throws (a failed call), nothing else changes', () => {
    const { f } = wrapped('function k(i) { let n = 0; try { return { y: i.fast() }; } finally { n++; } }');
    expect(() => f(failing, {})).toThrow('fast path failed');
    const ok = f({ fast: () => 7 }, {});
    expect(ok.y).toBe(7);
    expect(probe(ok)).toEqual([0, 0]);
  });

  test('the added catch goes right after the try block, a try with its own catch gets none', () => {
    const { source, catches } = wrapped('function k() { try { a(); } finally { b(); } try { c(); } catch (e) { d(); } finally { e(); } return {}; }');
    expect(catches).toBe(2);
    expect(source).toContain('try { a(); } catch (__ksRethrown) { __ksCaught[0]++; throw __ksRethrown; }  finally { b(); }');
    expect(source).toContain('try { c(); } catch (e) { __ksCaught[0]++;  d(); } finally { e(); }');
  });

  test('nested: an inner try/finally inside an outer one, both instrumented in place', () => {
    const { f, source } = wrapped('function k(i) { try { try { i.fast(); } finally { i.n = 1; } } finally { return { y: i.n }; } }');
    expect(source).toContain('try { try { i.fast(); } catch (__ksRethrown) { __ksCaught[0]++; throw __ksRethrown; }  finally { i.n = 1; } } catch (__ksRethrown) { __ksCaught[0]++; throw __ksRethrown; }  finally { return { y: i.n }; }');
    const r = f({ ...failing }, {});
    expect(r.y).toBe(1);
    // the one exception passed two finally blocks: counted at each, a failure either way
    expect(probe(r)).toEqual([2, 0]);
  });
});

describe('promises are not available (a kernel runs synchronously)', () => {
  /** The wrapped kernel `source` in a context holding a promise of its realm made before the wrapper ran. */
  function withEarlyPromise(source: string): { f: Measured; early: object } {
    const p = prepareKernel(source, ['y']);
    if (!p.ok) throw new Error(p.message);
    const context = createContext({});
    const early = runInContext('Promise.resolve(1)', context) as object;
    return { f: runInContext(p.source, context) as Measured, early };
  }

  test.each([
    ['new Promise', 'new Promise((resolve) => resolve(1))'],
    ['Promise called', 'Promise(() => {})'],
    ['Promise.resolve', 'Promise.resolve(1)'],
    ['Promise.all reached through a promise’s constructor', 'i.p.constructor.all([])'],
    ['then on a promise of the realm', 'i.p.then(() => {})'],
    ['catch on a promise of the realm', 'i.p.catch(() => {})'],
    ['finally on a promise of the realm', 'i.p.finally(() => {})'],
    ['a promise’s constructor', 'new i.p.constructor(() => {})'],
    ['then reached through Promise.prototype', 'Object.getPrototypeOf(i.p).then.call(i.p, () => {})'],
    ['WebAssembly.compile', 'WebAssembly.compile(new Uint8Array(0))'],
    ['WebAssembly.instantiate', 'WebAssembly.instantiate(new Uint8Array(0))'],
  ])('%s throws', (_how, expr) => {
    const { f, early } = withEarlyPromise(`function k(i) { ${expr}; return { y: 1 }; }`);
    expect(() => f({ p: early }, {})).toThrow(NO_PROMISES);
  });

  test.each([
    ['a then callback that throws, handled by catch (the fallback chosen between calls)', 'Promise.resolve().then(() => { i.fast(); }).catch(() => { y = 2; })'],
    ['Promise.all with a constructor of the kernel’s: the iterable’s exception handed to its reject, synchronously', 'Promise.all.call(function K(exec) { exec(() => {}, () => { y = 2; }); }, { [Symbol.iterator]() { return { next() { return i.fast(); } }; } })'],
    ['a thenable whose then throws', 'Promise.resolve({ then() { i.fast(); } })'],
  ])('the ways a promise swallows an exception fail openly: %s', (_how, expr) => {
    const { f, early } = withEarlyPromise(`function k(i) { let y = 1; ${expr}; return { y }; }`);
    expect(() => f({ ...failing, p: early }, {})).toThrow(NO_PROMISES);
  });

  test('the names cannot be rebound, nor the methods', () => {
    const { f, early } = withEarlyPromise(`function k(i) {
      try { globalThis.Promise = 1; } catch (e) {}
      try { Object.getPrototypeOf(i.p).then = 1; } catch (e) {}
      try { WebAssembly.compile = 1; } catch (e) {}
      return { y: [typeof Promise, typeof i.p.then, typeof WebAssembly.compile] };
    }`);
    const r = f({ p: early }, {});
    expect(r.y).toEqual(['function', 'function', 'function']);
    expect(() => (early as { then: () => void }).then()).toThrow(NO_PROMISES);
  });

  test('WebAssembly’s synchronous API is untouched', () => {
    const { f } = wrapped('function k() { const m = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); return { y: typeof new WebAssembly.Instance(m, {}).exports }; }');
    expect(f({}, {}).y).toBe('object');
  });
});

describe('the probe counts every exception caught since the previous probe', () => {
  test('one caught while the source loads (a fast path tried once, the fallback kept): in the first call’s probe', () => {
    const { f } = wrapped('(() => { let fast = 1; try { WebAssembly.fastMatmul(); } catch (e) { fast = 0; } return function k() { return { y: fast }; }; })()');
    const first = f({}, {});
    expect(first.y).toBe(0);
    expect(probe(first)).toEqual([1, 0]);
    expect(probe(f({}, {}))).toEqual([0, 0]);
  });

  test('a call that fails openly takes its counts with it (the next call starts from zero)', () => {
    const { f } = wrapped('function k(i) { try { i.fast(); } catch (e) {} if (i.fail === 1) throw new Error("failed"); if (i.fail === 2) return null; return { y: 1 }; }');
    expect(() => f({ ...failing, fail: 1 }, {})).toThrow('failed');
    expect(probe(f({ fast: () => 1 }, {}))).toEqual([0, 0]);
    expect(f({ ...failing, fail: 2 }, {})).toBeNull();
    expect(probe(f({ fast: () => 1 }, {}))).toEqual([0, 0]);
    expect(probe(f({ ...failing }, {}))).toEqual([1, 0]);
  });
});

describe('async functions are refused before anything runs', () => {
  test.each([
    ['an async function expression', '(async function k() { return {}; })'],
    ['an async arrow inside', 'function k(i) { let y = 2; (async () => { y = i.fast(); })(); return { y }; }'],
    ['an async method', 'function k() { const o = { async m() {} }; return {}; }'],
    ['an async generator', 'function k() { async function* g() {} return {}; }'],
  ])('%s', (_what, source) => {
    expect(prepareKernel(source, ['y'])).toEqual({
      ok: false,
      code: 'forbidden',
      message: 'async functions are not available to kernels (a kernel runs synchronously; an exception in an async function becomes a rejected promise, a failure the measurement would not see)',
    });
  });

  test('a generator is not async: an exception in it reaches its caller, it is allowed', () => {
    expect(prepareKernel('function k() { function* g() { yield 1; } return { y: [...g()] }; }', ['y']).ok).toBe(true);
  });
});
