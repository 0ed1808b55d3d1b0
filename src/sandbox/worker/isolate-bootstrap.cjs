// @ts-check
'use strict';
/**
 * Source of the code that runs first in every sandbox context, before any untrusted program.
 * It removes the clock (a Date that refuses to read the current time; no performance), and
 * keeps private copies of the intrinsics the harness needs (JSON, typed-array checks), so a
 * program that overwrites globals cannot change how its results are read. The harness functions
 * are returned as the script's completion value and held by the host as References: no name the
 * program could shadow is ever looked up again.
 */
module.exports.BOOTSTRAP = String.raw`(function () {
  'use strict';
  const RealDate = Date;
  const noClock = () => { throw new Error('the clock is not available in the sandbox'); };
  function SafeDate(...args) {
    if (!new.target) noClock();
    if (args.length === 0) noClock();
    return Reflect.construct(RealDate, args, new.target);
  }
  Object.defineProperties(SafeDate, {
    name: { value: 'Date' },
    UTC: { value: RealDate.UTC },
    parse: { value: RealDate.parse },
    now: { value: noClock },
    prototype: { value: RealDate.prototype },
  });
  Object.defineProperty(RealDate.prototype, 'constructor', { value: SafeDate });
  Object.defineProperty(globalThis, 'Date', { value: SafeDate, writable: false, configurable: false });
  // Intl.DateTimeFormat formats the current time when given none: a clock. Nothing else needs Intl.
  for (const name of ['performance', 'Intl', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']) {
    try { delete globalThis[name]; } catch (e) { /* not present */ }
  }

  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const isView = ArrayBuffer.isView;
  const getPrototypeOf = Object.getPrototypeOf;
  const TypedArrayProto = getPrototypeOf(Int8Array.prototype);
  const slice = TypedArrayProto.slice;
  const bufferOf = Object.getOwnPropertyDescriptor(TypedArrayProto, 'buffer').get;
  const lengthOf = Object.getOwnPropertyDescriptor(TypedArrayProto, 'length').get;
  const ctors = { f32: Float32Array, i32: Int32Array, u32: Uint32Array };
  const seenBuffers = new WeakSet();
  const UNDEFINED = '\u0000undefined';
  const state = { inputs: null, pristine: null };

  /** Calls fn(...args) with args from JSON; answers JSON text (or a marker), never an object. */
  function call(fn, argsJson, limit) {
    const out = fn(...parse(argsJson));
    if (out === undefined) return UNDEFINED;
    const text = stringify(out);
    if (text === undefined) return UNDEFINED;
    if (text.length > limit) return '\u0000too-long:' + text.length;
    return text;
  }

  /** Runs a property check (source of (output, ...args) => boolean) on JSON output and args. */
  function check(source, outputJson, argsJson) {
    const f = (0, eval)('(' + source + ')');
    return f(outputJson === UNDEFINED ? undefined : parse(outputJson), ...parse(argsJson)) === true;
  }

  /** Kernel lab: keeps this call's inputs (and a pristine copy to detect writes). */
  function stage(inputs) {
    state.inputs = inputs;
    state.pristine = {};
    for (const k in inputs) state.pristine[k] = slice.call(inputs[k]);
    return true;
  }

  /**
   * Kernel lab: runs kernel(inputs, dims) and materializes its outputs as fresh typed arrays of
   * the declared dtype and length: a proxy, a getter or a lazy object is not a typed array, and
   * reading them here (inside the timed call) runs any deferred work where it is timed.
   */
  function run(kernel, dims, outputs) {
    const res = kernel(state.inputs, dims);
    if (res === null || typeof res !== 'object') return { error: 'the kernel returned ' + (res === null ? 'null' : typeof res) + ', not an object of outputs' };
    const out = {};
    const flags = [];
    for (const spec of outputs) {
      const v = res[spec.name];
      if (!isView(v) || getPrototypeOf(v) !== ctors[spec.dtype].prototype) return { error: 'output "' + spec.name + '" is not a ' + ctors[spec.dtype].name };
      if (lengthOf.call(v) !== spec.length) return { error: 'output "' + spec.name + '" has length ' + lengthOf.call(v) + ', expected ' + spec.length };
      const buf = bufferOf.call(v);
      for (const k in state.inputs) if (bufferOf.call(state.inputs[k]) === buf) flags.push('returns-input');
      if (seenBuffers.has(buf)) flags.push('reuses-buffer');
      seenBuffers.add(buf);
      out[spec.name] = slice.call(v);
    }
    return { outputs: out, flags };
  }

  /** Kernel lab: names of inputs the last run wrote to. */
  function modified() {
    const names = [];
    for (const k in state.pristine) {
      const a = state.pristine[k];
      const b = state.inputs[k];
      const n = lengthOf.call(a);
      let same = lengthOf.call(b) === n;
      if (same) {
        const x = new Uint32Array(bufferOf.call(a), a.byteOffset, n);
        const y = new Uint32Array(bufferOf.call(b), b.byteOffset, n);
        for (let i = 0; i < n; i++) if (x[i] !== y[i]) { same = false; break; }
      }
      if (!same) names.push(k);
    }
    return names;
  }

  return { call, check, stage, run, modified };
})()`;
