// @ts-check
'use strict';
/**
 * Source of the code that runs first in every sandbox context, before any untrusted program.
 * It removes the clock (a Date that refuses to read the current time; no performance, Intl,
 * timers), removes WebAssembly for code runs (wasm memory is outside the isolate's memory limit;
 * kernels get it with every module's memory capped), and keeps private, uncurried copies of
 * every intrinsic the harness uses: a program that overwrites globals or prototypes (species,
 * iterators, `call`, setters on Object.prototype, Uint32Array...) cannot change how its results
 * are read, flagged or copied. The script's value is a function of the options; it returns the
 * harness functions, which the host holds as References: no name the program could shadow is
 * ever looked up again.
 */
const { wasmCodeProblem } = require('./wasm-code-check.cjs');

module.exports.BOOTSTRAP = String.raw`(function (options) {
  'use strict';
  const G = globalThis;
  const uncurry = Function.prototype.bind.bind(Function.prototype.call);
  const defineProperty = Object.defineProperty;
  const getOwnDescriptor = Object.getOwnPropertyDescriptor;
  const getPrototypeOf = Object.getPrototypeOf;
  const create = Object.create;
  const keysOf = Object.keys;
  const ArrayCtor = Array;

  const RealDate = Date;
  const reflectConstruct = Reflect.construct; // captured: a patched Reflect.construct would be handed RealDate
  const noClock = () => { throw new Error('the clock is not available in the sandbox'); };
  function SafeDate(...args) {
    if (!new.target) noClock();
    if (args.length === 0) noClock();
    return reflectConstruct(RealDate, args, new.target);
  }
  Object.defineProperties(SafeDate, {
    name: { value: 'Date' },
    UTC: { value: RealDate.UTC },
    parse: { value: RealDate.parse },
    now: { value: noClock },
    prototype: { value: RealDate.prototype },
  });
  defineProperty(RealDate.prototype, 'constructor', { value: SafeDate });
  defineProperty(G, 'Date', { value: SafeDate, writable: false, configurable: false });
  // Intl.DateTimeFormat formats the current time when given none: a clock. Nothing else needs Intl.
  for (const name of ['performance', 'Intl', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']) {
    try { delete G[name]; } catch (e) { /* not present */ }
  }
  // Atomics.waitAsync with a timeout aborts the worker process (isolated-vm 5)
  try { delete Atomics.waitAsync; } catch (e) { /* not present */ }

  // WebAssembly: not for code runs. For kernels, every memory must declare a maximum within the
  // per-memory cap, and the maxima of all memories are charged against the isolate's own memory
  // limit (wasm memory is outside it): each memory's maximum is paid for with a ballast
  // ArrayBuffer of that size, which the limit counts and which is never touched (no resident
  // memory). So heap + array buffers + every wasm memory's maximum stay within the limit, and a
  // kernel over it fails with a "memory limit" error (the memory-limit code). A module with
  // exception handling is refused (wasm-code-check.cjs: it could catch what a JavaScript import
  // throws, unseen by the kernel measurement's count of caught exceptions). Every check uses
  // intrinsics captured here, reads the module bytes once into a private copy (which is what is
  // compiled) and every memory descriptor field once; the real constructors are never reachable
  // (prototype.constructor points at the wrappers).
  const W = G.WebAssembly;
  if (!options.wasmPages) {
    try { delete G.WebAssembly; } catch (e) { /* not present */ }
  } else if (W) {
    const cap = options.wasmPages;
    const PAGE = 65536;
    const construct = Reflect.construct;
    const U8 = Uint8Array;
    const AB = ArrayBuffer;
    const TAProto = getPrototypeOf(Int8Array).prototype;
    const taBuffer = uncurry(getOwnDescriptor(TAProto, 'buffer').get);
    const taOffset = uncurry(getOwnDescriptor(TAProto, 'byteOffset').get);
    const taByteLength = uncurry(getOwnDescriptor(TAProto, 'byteLength').get);
    const taLength = uncurry(getOwnDescriptor(TAProto, 'length').get);
    const taSet = uncurry(TAProto.set);
    const abByteLength = uncurry(getOwnDescriptor(AB.prototype, 'byteLength').get);
    const wmGet = uncurry(WeakMap.prototype.get);
    const wmSet = uncurry(WeakMap.prototype.set);
    const wmHas = uncurry(WeakMap.prototype.has);
    const then = uncurry(Promise.prototype.then);
    /** Pages charged per checked module (its memories' maxima); a module not in here was never checked. */
    const modulePages = new WeakMap();
    const ballast = [];
    let charged = 0;
    /** Charges "pages" of wasm memory against the isolate's limit (a RangeError past it). */
    const charge = (pages) => {
      if (!(pages > 0)) return;
      let b;
      try {
        b = new AB(pages * PAGE);
      } catch (e) {
        throw new RangeError('memory limit: WebAssembly memories of ' + ((charged + pages) / 16) + ' MiB in all (their maxima), with the heap, exceed the kernel\'s memory limit');
      }
      defineProperty(ballast, ballast.length, { value: b });
      charged += pages;
    };
    /** A private copy of module bytes (an ArrayBuffer or a typed array), or null. */
    const copyBytes = (bytes) => {
      let view = null;
      try { abByteLength(bytes); view = new U8(bytes); } catch (e) {
        try { view = new U8(taBuffer(bytes), taOffset(bytes), taByteLength(bytes)); } catch (e2) { view = null; }
      }
      if (view === null) return null;
      const copy = new U8(taLength(view));
      taSet(copy, view);
      return copy;
    };
    const codeProblem = ${wasmCodeProblem.toString()};
    /** The memory and code sections of module bytes: why they are refused, and the pages their memories may reach. */
    const inspect = (b) => {
      const n = taLength(b);
      let p = 8;
      let pages = 0;
      const leb = () => { let r = 0, s = 0, x; do { x = b[p++]; r += (x & 127) * 2 ** s; s += 7; } while (x & 128 && p < n && s < 35); return r; };
      while (p < n) {
        const id = b[p++];
        const size = leb();
        const end = p + size;
        if (id === 5) {
          const count = leb();
          for (let i = 0; i < count && p < end; i++) {
            const flags = leb();
            if (flags & 4) return { problem: 'a 64-bit wasm memory', pages };
            leb();
            if (!(flags & 1)) return { problem: 'a wasm memory without a maximum', pages };
            const max = leb();
            if (max > cap) return { problem: 'a wasm memory above ' + cap + ' pages', pages };
            pages += max;
          }
        }
        // code: no exception handling (wasm-code-check.cjs)
        if (id === 10) {
          const problem = codeProblem(b, p, end);
          if (problem !== null) return { problem, pages };
        }
        // imports (id 2): an imported memory is created by JS, capped and charged there
        p = end;
      }
      return { problem: null, pages };
    };
    /** The checked private copy of module bytes and its pages (a RangeError when refused). */
    const checked = (bytes) => {
      const copy = copyBytes(bytes);
      if (copy === null) throw new RangeError('refused: module bytes must be an ArrayBuffer or a typed array');
      const r = inspect(copy);
      if (r.problem) throw new RangeError('refused: ' + r.problem);
      return { copy, pages: r.pages };
    };
    const pagesOf = (module) => {
      if (!wmHas(modulePages, module)) throw new TypeError('refused: a WebAssembly module the lab did not check');
      return wmGet(modulePages, module);
    };
    const RealModule = W.Module;
    const RealMemory = W.Memory;
    const RealInstance = W.Instance;
    const realInstantiate = W.instantiate;
    const realCompile = W.compile;
    function Module(bytes) {
      const c = checked(bytes);
      const m = construct(RealModule, [c.copy], new.target || Module);
      wmSet(modulePages, m, c.pages);
      return m;
    }
    Module.prototype = RealModule.prototype;
    // the static readers (imports, exports, customSections) take a compiled module: safe as they are
    for (const k of ['imports', 'exports', 'customSections']) Module[k] = RealModule[k];
    function Memory(desc) {
      if (desc === null || typeof desc !== 'object') throw new TypeError('WebAssembly.Memory needs a descriptor object');
      const initial = desc.initial;
      const maximum = desc.maximum;
      const shared = desc.shared;
      if (typeof maximum !== 'number' || !(maximum <= cap)) throw new RangeError('refused: a wasm memory needs a maximum of at most ' + cap + ' pages');
      const plain = { initial, maximum };
      if (shared !== undefined) plain.shared = shared;
      charge(maximum);
      return construct(RealMemory, [plain], new.target || Memory);
    }
    Memory.prototype = RealMemory.prototype;
    function Instance(module, imports) {
      charge(pagesOf(module));
      return construct(RealInstance, [module, imports], new.target || Instance);
    }
    Instance.prototype = RealInstance.prototype;
    for (const [ctor, proto] of [[Module, RealModule.prototype], [Memory, RealMemory.prototype], [Instance, RealInstance.prototype]]) {
      defineProperty(proto, 'constructor', { value: ctor, writable: true, enumerable: false, configurable: true });
    }
    const wasm = create(null);
    for (const k of keysOf(W)) wasm[k] = W[k];
    Object.assign(wasm, {
      Module,
      Memory,
      Instance,
      compile: (bytes) => {
        const c = checked(bytes);
        return then(realCompile(c.copy), (m) => (wmSet(modulePages, m, c.pages), m));
      },
      instantiate: (source, imports) => {
        if (wmHas(modulePages, source)) {
          charge(wmGet(modulePages, source));
          return realInstantiate(source, imports);
        }
        const c = checked(source);
        charge(c.pages);
        return then(realInstantiate(c.copy, imports), (r) => (wmSet(modulePages, r.module, c.pages), r));
      },
      validate: W.validate,
    });
    delete wasm.compileStreaming;
    delete wasm.instantiateStreaming;
    defineProperty(G, 'WebAssembly', { value: wasm, writable: false, configurable: false });
  }

  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const TypedArray = getPrototypeOf(Int8Array);
  const TAP = TypedArray.prototype;
  const tagOf = uncurry(getOwnDescriptor(TAP, Symbol.toStringTag).get); // the internal slot: no prototype can lie
  const bufferOf = uncurry(getOwnDescriptor(TAP, 'buffer').get);
  const lengthOf = uncurry(getOwnDescriptor(TAP, 'length').get);
  const offsetOf = uncurry(getOwnDescriptor(TAP, 'byteOffset').get);
  const setFrom = uncurry(TAP.set);
  const weakHas = uncurry(WeakSet.prototype.has);
  const weakAdd = uncurry(WeakSet.prototype.add);
  const F32 = Float32Array;
  const I32 = Int32Array;
  const U32 = Uint32Array;
  const CTORS = { f32: F32, i32: I32, u32: U32 };
  const TAGS = { f32: 'Float32Array', i32: 'Int32Array', u32: 'Uint32Array' };
  const seenBuffers = new WeakSet();
  const UNDEFINED = '\u0000undefined';
  /** The lab's private record of the staged inputs: names, arrays, pristine copies, buffers. */
  const staged = { names: [], arrays: [], pristine: [], buffers: [] };

  const put = (o, k, v) => defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  /** A fresh typed array of the same dtype holding a copy of a (real) typed array's elements. */
  function copyOf(a, Ctor) {
    const out = new Ctor(lengthOf(a));
    setFrom(out, a);
    return out;
  }

  const tooLong = create(null);
  /**
   * Calls fn(...args) with args from JSON; answers JSON text (or a marker), never an object.
   * The text is built under a running count of its characters (strings, keys, one per value):
   * an output beyond the limit stops before it is serialized, so a huge (even lazily built)
   * string never has to be flattened into memory.
   */
  function call(fn, argsJson, limit) {
    const out = fn(...parse(argsJson));
    if (out === undefined) return UNDEFINED;
    let size = 0;
    let text;
    try {
      text = stringify(out, function (key, value) {
        size += 1 + key.length + (typeof value === 'string' ? value.length : 0);
        if (size > limit) throw tooLong;
        return value;
      });
    } catch (e) {
      if (e === tooLong) return '\u0000too-long:more than ' + limit;
      throw e;
    }
    if (text === undefined) return UNDEFINED;
    if (text.length > limit) return '\u0000too-long:' + text.length;
    return text;
  }

  /** Runs a property check (source of (output, ...args) => boolean) on JSON output and args. */
  function check(source, outputJson, argsJson) {
    const f = (0, eval)('(' + source + ')');
    return f(outputJson === UNDEFINED ? undefined : parse(outputJson), ...parse(argsJson)) === true;
  }

  /** Kernel lab: keeps this call's inputs, their buffers and pristine copies (no kernel code runs here). */
  function stage(inputs, names) {
    const arrays = new ArrayCtor(names.length);
    const pristine = new ArrayCtor(names.length);
    const buffers = new ArrayCtor(names.length);
    for (let i = 0; i < names.length; i++) {
      const a = inputs[names[i]];
      // defineProperty, never assignment: a kernel's module code may have put setters on Array.prototype
      put(arrays, i, a);
      put(buffers, i, bufferOf(a));
      put(pristine, i, copyOf(a, CTORS[{ Float32Array: 'f32', Int32Array: 'i32', Uint32Array: 'u32' }[tagOf(a)]] || U32));
    }
    staged.names = names;
    staged.arrays = arrays;
    staged.pristine = pristine;
    staged.buffers = buffers;
    const view = create(null);
    for (let i = 0; i < names.length; i++) put(view, names[i], arrays[i]);
    staged.view = view;
    return true;
  }

  /**
   * Kernel lab: runs kernel(inputs, dims) and materializes its outputs as fresh typed arrays of
   * the declared dtype and length: a proxy, a getter or a lazy object is not a typed array, and
   * reading them here (inside the timed call) runs any deferred work where it is timed.
   */
  function run(kernel, dims, outputs) {
    const res = kernel(staged.view, dims);
    if (res === null || typeof res !== 'object') return { error: 'the kernel returned ' + (res === null ? 'null' : typeof res) + ', not an object of outputs' };
    const out = create(null);
    const flags = new ArrayCtor(0);
    let nflags = 0;
    const flag = (f) => { defineProperty(flags, nflags++, { value: f, enumerable: true, writable: true, configurable: true }); };
    for (let i = 0; i < outputs.length; i++) {
      const spec = outputs[i];
      const v = res[spec.name];
      if (tagOf(v) !== TAGS[spec.dtype] || getPrototypeOf(v) !== CTORS[spec.dtype].prototype) return { error: 'output "' + spec.name + '" is not a ' + TAGS[spec.dtype] };
      const n = lengthOf(v);
      if (n !== spec.length) return { error: 'output "' + spec.name + '" has length ' + n + ', expected ' + spec.length };
      const buf = bufferOf(v);
      for (let j = 0; j < staged.buffers.length; j++) if (staged.buffers[j] === buf) flag('returns-input');
      if (weakHas(seenBuffers, buf)) flag('reuses-buffer');
      weakAdd(seenBuffers, buf);
      put(out, spec.name, copyOf(v, CTORS[spec.dtype]));
    }
    return { outputs: out, flags };
  }

  /** Kernel lab: names of inputs the last run wrote to (compared bit for bit with the pristine copies). */
  function modified() {
    const names = new ArrayCtor(0);
    let k = 0;
    for (let i = 0; i < staged.arrays.length; i++) {
      const a = staged.pristine[i];
      const b = staged.arrays[i];
      const n = lengthOf(a);
      let same = lengthOf(b) === n && tagOf(b) === tagOf(a);
      if (same) {
        const x = new U32(bufferOf(a), offsetOf(a), n);
        const y = new U32(bufferOf(b), offsetOf(b), n);
        for (let j = 0; j < n; j++) if (x[j] !== y[j]) { same = false; break; }
      }
      if (!same) defineProperty(names, k++, { value: staged.names[i], enumerable: true, writable: true, configurable: true });
    }
    return names;
  }

  return { call, check, stage, run, modified };
})`;
