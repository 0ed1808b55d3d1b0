/**
 * The AssemblyScript glue's logic in a plain vm context with a stand-in WebAssembly (no compiler,
 * no sandbox): the module is checked for its imports and exports, each call places the inputs in
 * the module's memory, zeroes the outputs, passes pointers then dimensions in the convention's
 * order, copies the outputs out and unpins. The real module path is tested in
 * assemblyscript.test.ts.
 */
import { createContext, runInContext } from 'node:vm';
import { assemblyScriptGlue, assemblyScriptSignature, kernelTask } from '../../../envs/kernel-speedup';

interface FakeModule {
  imports?: { module: string; name: string }[];
  /** Exports besides the memory and the runtime (or replacing them). */
  exports?: Record<string, unknown>;
  /** The kernel export, made over the module's memory. */
  kernel?: (memory: { buffer: ArrayBuffer }, log: { args: number[][] }) => unknown;
}

/** A WebAssembly stand-in whose one module is `fake`; records the bytes, imports and calls. */
function fakeWasm(fake: FakeModule) {
  const log = { bytes: null as Uint8Array | null, imports: null as unknown, pins: [] as number[], unpins: [] as number[], news: [] as [number, number][], args: [] as number[][] };
  const memory = { buffer: new ArrayBuffer(1 << 16) };
  let top = 16;
  const exports = {
    memory,
    __new: (size: number, id: number) => {
      log.news.push([size, id]);
      const p = top;
      top += size;
      return p;
    },
    __pin: (p: number) => (log.pins.push(p), p),
    __unpin: (p: number) => void log.unpins.push(p),
    ...(fake.kernel ? { kernel: fake.kernel(memory, log) } : {}),
    ...fake.exports,
  };
  const WebAssembly = {
    Module: Object.assign(
      function Module(bytes: Uint8Array) {
        log.bytes = bytes;
      },
      { imports: () => fake.imports ?? [{ module: 'env', name: 'abort' }] },
    ),
    Instance: function Instance(_m: unknown, imports: unknown) {
      log.imports = imports;
      return { exports };
    },
  };
  return { WebAssembly, log, memory };
}

const matmul = kernelTask('matmul');

/** matmul on the fake memory: C = A·B (row-major f32). */
function matmulExport(memory: { buffer: ArrayBuffer }, log: { args: number[][] }) {
  return (A: number, B: number, C: number, M: number, N: number, K: number) => {
    log.args.push([A, B, C, M, N, K]);
    const f = new Float32Array(memory.buffer);
    for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
      let s = f[C / 4 + i * N + j]; // outputs start zeroed: adding to them shows it
      for (let k = 0; k < K; k++) s += f[A / 4 + i * K + k] * f[B / 4 + k * N + j];
      f[C / 4 + i * N + j] = s;
    }
  };
}

function load(fake: ReturnType<typeof fakeWasm>, wasm = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]), task = matmul) {
  const context = createContext({ WebAssembly: fake.WebAssembly });
  return runInContext(assemblyScriptGlue(task, wasm), context) as (inputs: Record<string, Float32Array>, dims: Record<string, number>) => Record<string, Float32Array>;
}

describe('AssemblyScript glue', () => {
  test('the convention: pointers of inputs then outputs, then the dimensions in the task’s order', () => {
    expect(assemblyScriptSignature(matmul)).toBe('export function kernel(A: usize, B: usize, C: usize, M: i32, N: i32, K: i32): void');
    expect(assemblyScriptSignature(kernelTask('sum'))).toBe('export function kernel(x: usize, out: usize, N: i32): void');
  });

  test('a call: inputs copied in, outputs zeroed and copied out (fresh arrays), every pointer unpinned', () => {
    const fake = fakeWasm({ kernel: matmulExport });
    const mem = fake.memory;
    const kernel = load(fake);
    // dirty the memory first: outputs must be zeroed by the glue
    new Float32Array(mem.buffer).fill(7);
    const A = Float32Array.from([1, 2, 3, 4, 5, 6]); // 2×3
    const B = Float32Array.from([1, 0, 0, 1, 1, 1]); // 3×2
    const out = kernel({ A, B }, { M: 2, N: 2, K: 3 });
    expect(Array.from(out.C)).toEqual([4, 5, 10, 11]);
    expect(out.C.buffer).not.toBe(mem.buffer); // a copy, not a view of the module's memory
    expect(fake.log.bytes).toEqual(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    // three tensors of 4-byte elements, allocated as ArrayBuffers (class id 1) and pinned
    expect(fake.log.news).toEqual([
      [24, 1],
      [24, 1],
      [16, 1],
    ]);
    const [a, b, c, M, N, K] = fake.log.args[0];
    expect([M, N, K]).toEqual([2, 2, 3]);
    expect(fake.log.pins).toEqual([a, b, c]);
    expect(fake.log.unpins).toEqual([a, b, c]);
    // the abort import throws with the line and column
    const abort = (fake.log.imports as { env: { abort: (...x: number[]) => void } }).env.abort;
    expect(() => abort(0, 0, 12, 5)).toThrow('AssemblyScript abort at line 12:5');
  });

  test('a memory that grows during the call: the outputs are read from the new buffer; a numeric output shape', () => {
    const sum = kernelTask('sum');
    const fake = fakeWasm({
      kernel: (memory, log) => (x: number, out: number, n: number) => {
        log.args.push([x, out, n]);
        const grown = new ArrayBuffer(memory.buffer.byteLength * 2);
        new Uint8Array(grown).set(new Uint8Array(memory.buffer));
        memory.buffer = grown;
        const f = new Float32Array(grown);
        let s = 0;
        for (let i = 0; i < n; i++) s += f[x / 4 + i];
        f[out / 4] = s;
      },
    });
    const kernel = load(fake, undefined, sum);
    const out = kernel({ x: Float32Array.from([1, 2, 3.5]) }, { N: 3 });
    expect(Array.from(out.out)).toEqual([6.5]);
    expect(fake.log.news).toEqual([
      [12, 1],
      [4, 1],
    ]);
  });

  test('a module importing anything but env.abort, or without kernel or the runtime, does not load', () => {
    expect(() => load(fakeWasm({ imports: [{ module: 'env', name: 'abort' }, { module: 'env', name: 'Date.now' }] }))).toThrow('the module imports env.Date.now, which kernels do not get');
    expect(() => load(fakeWasm({ imports: [{ module: 'wasi', name: 'abort' }] }))).toThrow('the module imports wasi.abort, which kernels do not get');
    expect(() => load(fakeWasm({}))).toThrow('the module exports no function "kernel"');
    for (const missing of ['__new', '__pin', '__unpin']) {
      expect(() => load(fakeWasm({ exports: { kernel: () => undefined, [missing]: undefined } }))).toThrow('the module does not export the runtime (__new, __pin, __unpin)');
    }
    expect(() => load(fakeWasm({ exports: { kernel: () => undefined } }))).not.toThrow();
  });
});
