/**
 * What the lab actually runs for a kernel: its source, checked and instrumented, inside a wrapper.
 *
 * - The source must parse (acorn) as one expression evaluating to the kernel function. Names
 *   starting with `__ks` are reserved for the measurement and refused (`forbidden`).
 * - Every `catch` block gets a counter increment as its first statement, so the measurement
 *   knows when an exception was thrown and swallowed (a try/catch fallback hiding a failure). A
 *   `try` without a `catch` gets one that counts and rethrows: a `finally` that returns, breaks
 *   or continues swallows the exception as well (one that does not rethrows it, and a call that
 *   throws fails anyway). The other ways JavaScript turns an exception into a value are closed
 *   too: async functions are refused (`forbidden`: a kernel is synchronous, and an exception in
 *   one becomes a rejected promise), and promises are not available at all (below). A wasm
 *   module that could catch one is refused by the lab (src/sandbox/worker/wasm-code-check.cjs).
 * - Promises: the wrapper replaces `Promise`, every method of `Promise.prototype` a kernel could
 *   call (`constructor`, `then`, `catch`, `finally`) and WebAssembly's promise-returning
 *   `compile` and `instantiate` with a function that throws (a TypeError, read as `forbidden`).
 *   A promise turns an exception into a call of another of the kernel's functions in more ways
 *   than one could count: a `then` callback that throws rejects a promise whose `catch` callback
 *   then runs between two calls (isolated-vm runs the microtasks after each call: measured, a
 *   kernel's later replies depended on it); `Promise.all.call(K, iterable)` with a constructor
 *   `K` of the kernel's hands an exception of the iterable straight to `K`'s reject function,
 *   synchronously; a thenable's `then` that throws rejects the promise adopting it. A kernel
 *   runs synchronously, so none of this can serve it.
 * - The probe counts every exception caught since the previous call, not only during this one:
 *   those of the source's own set-up (an IIFE that tries a fast path once while loading and
 *   falls back for good) are in the first call's, and any of kernel code run between two calls
 *   in the next one's. A call that fails (throws, or returns no object) is a failure already:
 *   what it counted is dropped with it.
 * - The wrapper, evaluated in the kernel's own isolate before the kernel's source, keeps private
 *   copies of the intrinsics it uses and removes code generation from strings (`eval`,
 *   `Function` and the other function constructors), so every line the kernel runs is a line
 *   that was instrumented, and the counter is reachable by no name the kernel could write.
 * - Each call returns a fresh null-prototype object holding the declared outputs (the kernel's
 *   own arrays: the lab's buffer checks still see them) and a probe `__ksProbe` = Int32Array
 *   [exceptions caught since the previous call, 1 if an output was a getter (a lazy result)].
 *
 * The reference runs in the same wrapper, so the wrapper's small cost is in both timings.
 */
import { parse } from 'acorn';

/** Name of the probe output the wrapper adds to every call's result. */
export const PROBE_OUTPUT = '__ksProbe';

/** Prefix of every name the measurement reserves. */
export const RESERVED_PREFIX = '__ks';

const COUNTER = '__ksCaught';

/** Why a kernel's use of a promise throws (the wrapper's replacement of every way to one). */
export const NO_PROMISES = 'promises are not available to kernels (a kernel runs synchronously; a promise turns an exception into a call of another function, unseen by the measurement)';

/** The exception variable of the catch clause added to a try without one. */
const RETHROWN = '__ksRethrown';

/** The wrapped source, or why the kernel cannot be run. */
export type PreparedKernel = { ok: true; source: string; catches: number } | { ok: false; code: 'syntax-error' | 'forbidden'; message: string };

interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(x: unknown): x is AstNode {
  return typeof x === 'object' && x !== null && typeof (x as AstNode).type === 'string' && typeof (x as AstNode).start === 'number';
}

/** Every node of the tree, depth first. */
function* nodes(root: AstNode): Generator<AstNode> {
  const stack: AstNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    // every field: `type`, `start` and `end` hold a string and numbers, which are not nodes
    for (const key of Object.keys(n)) {
      const v = n[key];
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) stack.push(c);
      } else if (isNode(v)) stack.push(v);
    }
  }
}

/** One line of a parse error. */
function oneLine(text: string, max = 200): string {
  const s = text.split('\n')[0];
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/**
 * Checks and instruments a kernel source (one function expression, or an expression that
 * evaluates to the kernel function such as an IIFE) and wraps it for the lab; `outputs` are the
 * task's output names (the wrapper copies exactly those).
 */
export function prepareKernel(source: string, outputs: readonly string[]): PreparedKernel {
  // Parsed as the lab will evaluate it: one parenthesized expression (a trailing line comment is fine).
  const text = `(${source}\n)`;
  let program: AstNode;
  try {
    program = parse(text, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as AstNode;
  } catch (e) {
    return { ok: false, code: 'syntax-error', message: oneLine((e as Error).message) };
  }
  const body = program.body as AstNode[];
  if (body.length !== 1 || body[0].type !== 'ExpressionStatement') return { ok: false, code: 'syntax-error', message: 'the source must be one function expression' };
  const inserts: { at: number; text: string }[] = [];
  for (const n of nodes(program)) {
    if (n.type === 'Identifier' && String(n.name).startsWith(RESERVED_PREFIX)) {
      return { ok: false, code: 'forbidden', message: `the name "${String(n.name)}" is reserved for the measurement (names starting with ${RESERVED_PREFIX})` };
    }
    if (n.type === 'PrivateIdentifier' && String(n.name).startsWith(RESERVED_PREFIX)) {
      return { ok: false, code: 'forbidden', message: `the name "#${String(n.name)}" is reserved for the measurement` };
    }
    if (n.async === true) {
      return { ok: false, code: 'forbidden', message: 'async functions are not available to kernels (a kernel runs synchronously; an exception in an async function becomes a rejected promise, a failure the measurement would not see)' };
    }
    if (n.type === 'CatchClause') inserts.push({ at: (n.body as AstNode).start + 1, text: ` ${COUNTER}[0]++; ` });
    // a try without catch: count what passes through its finally (swallowed there by a return, break or continue)
    if (n.type === 'TryStatement' && !n.handler) inserts.push({ at: (n.block as AstNode).end, text: ` catch (${RETHROWN}) { ${COUNTER}[0]++; throw ${RETHROWN}; } ` });
  }
  // from the end: an insert never moves a position still to come
  inserts.sort((a, b) => b.at - a.at);
  let instrumented = text;
  for (const { at, text: add } of inserts) instrumented = `${instrumented.slice(0, at)}${add}${instrumented.slice(at)}`;
  return { ok: true, source: wrap(instrumented, outputs), catches: inserts.length };
}

/** The wrapper around an already parenthesized, instrumented kernel expression. */
function wrap(kernelExpression: string, outputs: readonly string[]): string {
  // Every name in scope of the kernel's source starts with the reserved prefix, so the kernel can
  // refer to none of them (prepareKernel refuses such names).
  return `(function () {
  'use strict';
  const __ksDefine = Object.defineProperty, __ksOwnDescriptor = Object.getOwnPropertyDescriptor;
  const __ksProtoOf = Object.getPrototypeOf, __ksCreate = Object.create, __ksHasOwn = Object.hasOwn;
  const __ksInt32 = Int32Array;
  const __ksNames = ${JSON.stringify(outputs)};
  const __ksNoCodegen = function () { throw new EvalError('code generation from strings is not available to kernels'); };
  __ksDefine(globalThis, 'eval', { value: __ksNoCodegen, writable: false, configurable: false });
  __ksDefine(globalThis, 'Function', { value: __ksNoCodegen, writable: false, configurable: false });
  const __ksProtos = [__ksProtoOf(function () {}), __ksProtoOf(async function () {}), __ksProtoOf(function* () {}), __ksProtoOf(async function* () {})];
  for (let i = 0; i < __ksProtos.length; i++) __ksDefine(__ksProtos[i], 'constructor', { value: __ksNoCodegen, writable: false, configurable: false });
  const ${COUNTER} = new __ksInt32(1);
  let __ksReported = 0;
  const __ksNoPromise = function () { throw new TypeError(${JSON.stringify(NO_PROMISES)}); };
  const __ksPromiseProto = Promise.prototype;
  const __ksPromiseNames = ['constructor', 'then', 'catch', 'finally'];
  for (let i = 0; i < __ksPromiseNames.length; i++) __ksDefine(__ksPromiseProto, __ksPromiseNames[i], { value: __ksNoPromise, writable: false, configurable: false });
  const __ksStatics = ['resolve', 'reject', 'all', 'allSettled', 'any', 'race'];
  for (let i = 0; i < __ksStatics.length; i++) __ksDefine(__ksNoPromise, __ksStatics[i], { value: __ksNoPromise, writable: false, configurable: false });
  __ksDefine(globalThis, 'Promise', { value: __ksNoPromise, writable: false, configurable: false });
  const __ksWasm = globalThis.WebAssembly;
  if (typeof __ksWasm === 'object' && __ksWasm !== null) {
    const __ksAsync = ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming'];
    for (let i = 0; i < __ksAsync.length; i++) __ksDefine(__ksWasm, __ksAsync[i], { value: __ksNoPromise, writable: false, configurable: false });
  }
  const __ksKernel = ${kernelExpression};
  return function measured(inputs, dims) {
    let res;
    try {
      res = __ksKernel(inputs, dims);
    } catch (e) {
      // a call that fails is reported as failed: what it counted goes with it
      __ksReported = ${COUNTER}[0];
      throw e;
    }
    if (res === null || typeof res !== 'object') {
      __ksReported = ${COUNTER}[0];
      return res;
    }
    const out = __ksCreate(null);
    let lazy = 0;
    for (let i = 0; i < __ksNames.length; i++) {
      const name = __ksNames[i];
      let o = res, d;
      while (o !== null) {
        d = __ksOwnDescriptor(o, name);
        if (d !== undefined) break;
        o = __ksProtoOf(o);
      }
      if (d !== undefined && (__ksHasOwn(d, 'get') || __ksHasOwn(d, 'set'))) lazy = 1;
      out[name] = res[name];
    }
    const probe = new __ksInt32(2);
    probe[0] = ${COUNTER}[0] - __ksReported;
    __ksReported = ${COUNTER}[0];
    probe[1] = lazy;
    out.${PROBE_OUTPUT} = probe;
    return out;
  };
})()`;
}
