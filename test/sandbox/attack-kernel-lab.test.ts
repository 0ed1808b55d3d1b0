/**
 * Attacks on the kernel lab: a kernel that tampers with the intrinsics the lab's harness uses
 * (it shares the kernel's context) to hide writes to its inputs, returned inputs and reused
 * buffers, to return outputs of another type or length, or to work outside the timed call.
 * Each test asserts the CONTAINED behaviour: a test that fails here is a weakness.
 */
import { createSandbox, type Sandbox } from '../../src/sandbox';
import type { KernelCallResult, KernelLabSession } from '../../src/core/sandbox';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 1 });
});
afterAll(() => sb.close());

const spec = [{ name: 'y', dtype: 'f32' as const, length: 3 }];
const inputs = () => ({ x: new Float32Array([1, 2, 3]) });
const kindOf = (a: unknown) => Object.prototype.toString.call(a); // (jest's realm differs from the IPC one)

/** Opens a lab with one kernel, calls it `calls` times, closes it. */
async function callKernel(source: string, calls = 1, memoryMb = 64): Promise<KernelCallResult[]> {
  const lab: KernelLabSession = await sb.lab.open({ k: source }, { timeMs: 2000, memoryMb });
  try {
    expect(lab.status.k.code).toBe('ok');
    const out: KernelCallResult[] = [];
    for (let i = 0; i < calls; i++) out.push(await lab.call('k', inputs(), { n: 3 }, spec));
    return out;
  } finally {
    await lab.close();
  }
}

/** An ok result's y is a Float32Array of the declared length. */
function expectValidOutput(r: KernelCallResult): void {
  if (r.code !== 'ok') return;
  const y = r.outputs?.y;
  expect(kindOf(y)).toBe('[object Float32Array]');
  expect((y as Float32Array).length).toBe(3);
}

describe('kernel lab attacks: outputs of another type or length', () => {
  test('a Symbol.species hook does not turn the materialized output into a Float64Array of length 8', async () => {
    const [r] = await callKernel(`(() => {
      Object.defineProperty(Float32Array, Symbol.species, { get() { return function (n) { return new Float64Array(n + 5); }; } });
      return function kernel(inp, d) { const o = new Float32Array(d.n); for (let i = 0; i < d.n; i++) o[i] = inp.x[i] * 2; return { y: o }; };
    })()`);
    expectValidOutput(r);
    if (r.code === 'ok') expect(r.modified).toEqual([]); // nor is an untouched input reported as written
  });

  test('a Float64Array with its prototype swapped to Float32Array.prototype is not accepted as a Float32Array', async () => {
    const [r] = await callKernel(`function kernel(inp, d) { const o = new Float64Array(d.n); Object.setPrototypeOf(o, Float32Array.prototype); return { y: o }; }`);
    expect(r.code).toBe('runtime-error');
  });

  test('a hooked Function.prototype.call cannot replace what the harness copies out', async () => {
    const [r] = await callKernel(`(() => {
      const slice = Object.getPrototypeOf(Int8Array.prototype).slice;
      const apply = Reflect.apply;
      Function.prototype.call = function (self, ...args) { return this === slice ? new Float64Array(7) : apply(this, self, args); };
      return function kernel(inp, d) { return { y: new Float32Array(d.n) }; };
    })()`);
    expectValidOutput(r);
  });

  test('a hooked Array iterator cannot skip the check of the declared outputs', async () => {
    const [r] = await callKernel(`(() => { Array.prototype[Symbol.iterator] = function* () {}; return function kernel() { return {}; }; })()`);
    expect(r.code).toBe('runtime-error'); // the kernel returned no "y"
  });

  test('a setter on Object.prototype cannot make a declared output vanish from an ok result', async () => {
    const [r] = await callKernel(`(() => {
      Object.defineProperty(Object.prototype, 'y', { set(v) {}, get() { return undefined; }, configurable: true });
      return function kernel(inp, d) { return Object.defineProperty({}, 'y', { value: new Float32Array(d.n), enumerable: true }); };
    })()`);
    if (r.code === 'ok') expect(Object.keys(r.outputs ?? {})).toEqual(['y']);
    expectValidOutput(r);
  });
});

describe('kernel lab attacks: hiding what the flags report', () => {
  test('swapping the input for a copy does not hide that the kernel returned the input', async () => {
    const [r] = await callKernel(`function kernel(inp) { const orig = inp.x; inp.x = new Float32Array(orig); return { y: orig }; }`);
    if (r.code === 'ok') expect(r.flags).toContain('returns-input');
  });

  test('replacing the global Uint32Array does not hide writes to the inputs', async () => {
    const [r] = await callKernel(`(() => {
      const R = Uint32Array;
      globalThis.Uint32Array = function (buf, off, n) { return new R(n); };
      return function kernel(inp, d) { for (let i = 0; i < d.n; i++) inp.x[i] *= 2; return { y: new Float32Array(inp.x) }; };
    })()`);
    if (r.code === 'ok') expect(r.modified).toEqual(['x']);
  });

  test('a no-op Array.prototype.push does not hide writes to the inputs or a reused buffer', async () => {
    const [, second] = await callKernel(
      `(() => {
        Array.prototype.push = function () { return this.length; };
        let kept = null;
        return function kernel(inp, d) { for (let i = 0; i < d.n; i++) inp.x[i] *= 2; if (!kept) kept = new Float32Array(d.n); kept.set(inp.x); return { y: kept }; };
      })()`,
      2,
    );
    expect(second.code).toBe('ok');
    expect(second.modified).toEqual(['x']);
    expect(second.flags).toContain('reuses-buffer');
  });

  test('a lying WeakSet.prototype.has does not hide a reused buffer', async () => {
    const [, second] = await callKernel(
      `(() => {
        WeakSet.prototype.has = function () { return false; };
        let kept = null;
        return function kernel(inp, d) { if (!kept) kept = new Float32Array(d.n); kept.set(inp.x); return { y: kept }; };
      })()`,
      2,
    );
    expect(second.code).toBe('ok');
    expect(second.flags).toContain('reuses-buffer');
  });
});

describe('kernel lab attacks: work outside the timed call', () => {
  test("the kernel's code does not run while the inputs are staged (untimed): it cannot precompute its answer there", async () => {
    // a getter on Float32Array.prototype.constructor runs when staging copies the inputs with
    // slice(); it computes the answer then, and the timed kernel only hands it over
    const [r] = await callKernel(`(() => {
      let pre = null;
      const F = Float32Array;
      Object.defineProperty(F.prototype, 'constructor', { configurable: true, get() {
        if (this.length === 3 && pre === null) { pre = new F(3); for (let i = 0; i < 3; i++) pre[i] = this[i] * 2; }
        return F;
      } });
      return function kernel(inp, d) { const o = pre || new F([-1, -1, -1]); pre = null; return { y: o }; };
    })()`);
    if (r.code === 'ok') expect(Array.from(r.outputs!.y as Float32Array)).toEqual([-1, -1, -1]);
  });
});

describe('kernel lab attacks: unusual buffers (contained)', () => {
  test.each([
    ['a SharedArrayBuffer', `function kernel(inp, d) { const o = new Float32Array(new SharedArrayBuffer(4 * d.n)); o.set(inp.x); return { y: o }; }`],
    ['a resizable ArrayBuffer', `function kernel(inp, d) { const o = new Float32Array(new ArrayBuffer(4 * d.n, { maxByteLength: 4096 })); o.set(inp.x); return { y: o }; }`],
    ['a subarray at an offset', `function kernel(inp, d) { const o = new Float32Array(d.n + 4); o.set(inp.x, 2); return { y: o.subarray(2, 2 + d.n) }; }`],
  ])('an output on %s comes back as a plain copy of its own elements', async (_name, source) => {
    const [r] = await callKernel(source);
    expect(r.code).toBe('ok');
    expectValidOutput(r);
    expect(Array.from(r.outputs!.y as Float32Array)).toEqual([1, 2, 3]);
    expect(r.flags).toEqual([]);
  });

  test.each([
    ['a subclass of Float32Array', `function kernel(inp, d) { class F extends Float32Array {} return { y: new F(d.n) }; }`],
    ['a getter that throws', `function kernel() { return { get y() { throw new Error('boom'); } }; }`],
    ['a detached buffer (wasm memory grown)', `function kernel(inp, d) { const m = new WebAssembly.Memory({ initial: 1 }); const o = new Float32Array(m.buffer, 0, d.n); m.grow(1); return { y: o }; }`],
    ['a length-tracking view shrunk after return', `function kernel(inp, d) { const b = new ArrayBuffer(4 * d.n, { maxByteLength: 4096 }); const o = new Float32Array(b); Object.defineProperty(o, 'length', { get() { b.resize(0); return 3; } }); b.resize(4); return { y: o }; }`],
  ])('%s is refused with runtime-error', async (_name, source) => {
    const [r] = await callKernel(source);
    expect(r.code).toBe('runtime-error');
  });
});

/** A wasm module with one memory of `pages` pages (initial = maximum), exported as "m". */
const memoryModule = (pages: number) => {
  const leb = (n: number) => (n < 128 ? [n] : [(n & 127) | 128, n >> 7]);
  const limits = [1, ...leb(pages), ...leb(pages)];
  return `new Uint8Array([${[0, 97, 115, 109, 1, 0, 0, 0, 5, limits.length + 1, 1, ...limits, 7, 5, 1, 1, 109, 2, 0].join(',')}])`;
};

describe('kernel lab attacks: WebAssembly memories add up (issue 23)', () => {
  test.each([
    ['24 memories at the per-memory cap (64 MB: 1,024 pages each)', 64, `for (let i = 0; i < 24; i++) keep.push(new WebAssembly.Memory({ initial: 1024, maximum: 1024 }));`],
    ['24 memories of 8 MiB each under 64 MB', 64, `for (let i = 0; i < 24; i++) keep.push(new WebAssembly.Memory({ initial: 128, maximum: 128 }));`],
    ['24 instances through Instance.prototype.constructor', 64, `const I = WebAssembly.Instance.prototype.constructor; const mod = new WebAssembly.Module(${memoryModule(128)}); for (let i = 0; i < 24; i++) keep.push(new I(mod, {}).exports.m);`],
    ['24 memories at the cap under 256 MB (4,096 pages each)', 256, `for (let i = 0; i < 24; i++) keep.push(new WebAssembly.Memory({ initial: 1, maximum: 4096 }));`],
    ['one module instantiated 24 times (a memory each)', 64, `const mod = new WebAssembly.Module(${memoryModule(128)}); for (let i = 0; i < 24; i++) keep.push(new WebAssembly.Instance(mod, {}).exports.m);`],
    ['a 40 MB array buffer, then a 32 MiB memory (heap and wasm add up)', 64, `keep.push(new ArrayBuffer(40 * 1024 * 1024)); keep.push(new WebAssembly.Memory({ initial: 1, maximum: 512 }));`],
  ])('%s: memory-limit', async (_name, memoryMb, body) => {
    const [r] = await callKernel(`function kernel(inp, d) { const keep = []; ${body} return { y: new Float32Array(3) }; }`, 1, memoryMb);
    expect(r.code).toBe('memory-limit');
    expect(r.message).toMatch(/memory limit|allocation failed/);
  });

  test('memories within the limit are fine, and their charge stays for the session', async () => {
    // 3 × 8 MiB under 64 MB: fine once; the charge is not given back, so the third call runs over
    const rs = await callKernel(`function kernel(inp, d) { for (let i = 0; i < 3; i++) new WebAssembly.Memory({ initial: 1, maximum: 128 }); return { y: new Float32Array(inp.x) }; }`, 3);
    expect(rs[0].code).toBe('ok');
    expect(rs[2].code).toBe('memory-limit');
  });

  test.each([
    ['Memory.prototype.constructor', `const M = WebAssembly.Memory.prototype.constructor; const m = new M({ initial: 1 }); m.grow(2000); y[0] = m.buffer.byteLength > 2 ** 26 ? 1 : 0;`],
    ['Module.prototype.constructor', `y[0] = WebAssembly.Module.prototype.constructor === WebAssembly.Module ? 0 : 1;`],
    ['a maximum that changes between the check and the constructor', `let n = 0; const m = new WebAssembly.Memory({ initial: 1, get maximum() { return n++ ? 65536 : 1; } }); m.grow(2000); y[0] = 1;`],
    ['a fake Uint8Array hiding the memory section from the check', `const Real = Uint8Array; globalThis.Uint8Array = function (b) { return new Real(8); }; new WebAssembly.Module(new Real([0,97,115,109,1,0,0,0,5,3,1,0,1])); y[0] = 1;`],
    ['a patched Reflect.construct handed the real constructors', `let leaked = null; const rc = Reflect.construct; Reflect.construct = (t, a, n) => ((leaked = t), rc(t, a, n)); new WebAssembly.Memory({ initial: 1, maximum: 1 }); new Date(0); Reflect.construct = rc; y[0] = leaked ? 1 : 0;`],
  ])('%s: the uncapped path is closed', async (_name, body) => {
    const [r] = await callKernel(`function kernel(inp, d) { const y = new Float32Array(3); ${body} return { y }; }`);
    if (r.code === 'ok') expect(Array.from(r.outputs!.y as Float32Array)).toEqual([0, 0, 0]);
    else expect(r.code).toBe('runtime-error');
  });
});

/**
 * (import "env" "f" (func)) (func (export "run") (result i32) try (result i32) call 0 i32.const 1
 * catch_all i32.const 0 end): 0 when f threw — the exception swallowed inside wasm.
 */
const CATCH_ALL = '[0,97,115,109,1,0,0,0, 1,8,2,96,0,0,96,0,1,127, 2,9,1,3,101,110,118,1,102,0,0, 3,2,1,1, 7,7,1,3,114,117,110,0,1, 10,14,1,12,0,6,127,16,0,65,1,25,65,0,11,11]';

describe('kernel lab attacks: wasm exception handling (issue 23)', () => {
  test.each([
    ['new WebAssembly.Module', `new WebAssembly.Module(bytes)`],
    ['Module.prototype.constructor', `new (WebAssembly.Module.prototype.constructor)(bytes)`],
    ['WebAssembly.instantiate', `WebAssembly.instantiate(bytes)`],
  ])('a module that catches what a JavaScript import throws (catch_all) is refused: %s', async (_how, make) => {
    // a fast path in JavaScript that throws, called from wasm, which catches it: 7 marks the quiet fallback
    const [r] = await callKernel(`function kernel(inp, d) {
      const bytes = new Uint8Array(${CATCH_ALL});
      const mod = ${make};
      const run = new WebAssembly.Instance(mod, { env: { f: () => WebAssembly.fastPath(inp.x) } }).exports.run;
      const y = new Float32Array(d.n); y[0] = run() ? 1 : 7; return { y };
    }`);
    expect(r).toEqual({ code: 'runtime-error', message: 'RangeError: refused: wasm exception handling (the try instruction): a kernel module must not catch exceptions' });
  });

  test('a module without exception handling still compiles and runs', async () => {
    const [r] = await callKernel(`function kernel(inp, d) {
      const bytes = new Uint8Array(${CATCH_ALL});
      bytes.set([0, 2, 127, 16, 0, 65, 1, 1, 1, 1, 11, 11], bytes.length - 12);
      const run = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { f: () => {} } }).exports.run;
      const y = new Float32Array(d.n); y[0] = run(); return { y };
    }`);
    expect(r.code).toBe('ok');
    expect(Array.from(r.outputs!.y as Float32Array)).toEqual([1, 0, 0]);
  });
});
