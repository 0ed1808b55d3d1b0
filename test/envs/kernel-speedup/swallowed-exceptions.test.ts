/**
 * Every way a kernel can swallow an exception is counted by the wrapper's probe (instrument.ts),
 * not only a `catch` block (issue 23): a `finally` that returns, breaks or continues; a `Promise`
 * executor that throws (reached by its global name or through any promise's `constructor`); and
 * async functions, refused before anything runs. In a throwaway vm context (the lab runs the
 * same wrapper in an isolate; anti-hacking.test.ts plays these fixtures through the real lab).
 */
import { createContext, runInContext } from 'node:vm';
import { PROBE_OUTPUT, prepareKernel } from '../../../envs/kernel-speedup';

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

describe('a Promise executor that throws', () => {
  test('by the global name: counted, the promise rejects as before', () => {
    const { f } = wrapped('function k(i) { let y = 2; const p = new Promise(() => { y = i.fast(); }); p.catch(() => {}); return { y, rejected: p instanceof Promise }; }');
    const r = f(failing, {});
    expect(r.y).toBe(2);
    expect(probe(r)).toEqual([1, 0]);
  });

  test('through a promise’s constructor (the intrinsic is out of reach): counted', () => {
    const { f } = wrapped('function k(i) { let y = 2; const P = Object.getPrototypeOf(Promise.resolve(1)).constructor; new P(() => { y = i.fast(); }).catch(() => {}); return { y, same: P === Promise }; }');
    const r = f(failing, {});
    expect(r.y).toBe(2);
    expect(probe(r)).toEqual([1, 0]);
  });

  test('promises still work: an executor that does not throw, the statics, then, without new, a bad executor', async () => {
    const { f, context } = wrapped('function k() { return {}; }');
    expect(probe(f({}, {}))).toEqual([0, 0]);
    const values = (await runInContext('Promise.all([new Promise((r) => r(1)), Promise.resolve(2), Promise.reject(3).catch((x) => x), Promise.resolve(4).then((x) => x + 1)])', context)) as number[];
    expect(values).toEqual([1, 2, 3, 5]);
    expect(runInContext('new Promise(() => {}) instanceof Promise && Promise.name === "Promise" && Promise.length === 1', context)).toBe(true);
    // (errors of the vm's realm: compared by message)
    expect(() => runInContext('Promise(() => {})', context)).toThrow("Promise constructor cannot be invoked without 'new'");
    expect(() => runInContext('new Promise(3)', context)).toThrow('Promise resolver 3 is not a function');
    // neither name can be rebound to the intrinsic
    runInContext('try { globalThis.Promise = 1; } catch (e) {} try { Object.getPrototypeOf(Promise.resolve()).constructor = 1; } catch (e) {}', context);
    expect(runInContext('typeof Promise === "function" && Object.getPrototypeOf(Promise.resolve()).constructor === Promise', context)).toBe(true);
    // a rejection of an executor that throws without being swallowed by the kernel: still a rejection
    await expect(runInContext('new Promise(() => { throw new Error("x"); })', context)).rejects.toThrow('x');
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
