/**
 * AssemblyScript kernels: the calling convention, and the JavaScript glue that runs a compiled
 * module as a kernel in the lab (an IIFE that instantiates the embedded module once and returns
 * the kernel function).
 *
 * Convention: the module exports
 *
 *     export function kernel(<one pointer per input>, <one pointer per output>, <one i32 per dimension>): void
 *
 * pointers (`usize`) in the contract's order of inputs, then outputs, then the dimensions in the
 * order of the task's `dims` (matmul: `kernel(A, B, C, M, N, K)`). Each pointer is the address of
 * a row-major tensor of 4-byte elements in the module's memory (read with `load<f32>(A + (i << 2))`,
 * `v128.load(...)`; SIMD is enabled). Outputs start zeroed. The kernel may allocate (the
 * incremental runtime collects garbage); the glue pins its tensors for the call. The module may
 * import nothing but `env.abort` (a call to `abort` is a runtime error).
 */
import type { KernelTask } from '../tasks/task';

/** The `kernel` signature the convention asks of `task`, as AssemblyScript. */
export function assemblyScriptSignature(task: KernelTask): string {
  const ptrs = [...task.inputs.map((i) => i.name), ...task.outputs.map((o) => o.name)].map((n) => `${n}: usize`);
  const dims = Object.keys(task.dims).map((d) => `${d}: i32`);
  return `export function kernel(${[...ptrs, ...dims].join(', ')}): void`;
}

/** The glue kernel (JavaScript source) running `wasm` under the convention for `task`. */
export function assemblyScriptGlue(task: KernelTask, wasm: Uint8Array): string {
  const inputs = task.inputs.map((i) => [i.name, i.dtype]);
  const outputs = task.outputs.map((o) => [o.name, o.dtype, o.shape]);
  const dims = Object.keys(task.dims);
  return `(function () {
  const bytes = new Uint8Array([${Array.from(wasm).join(',')}]);
  const module = new WebAssembly.Module(bytes);
  const imports = { env: { abort(message, file, line, column) { throw new Error('AssemblyScript abort at line ' + line + ':' + column); } } };
  const needs = WebAssembly.Module.imports(module);
  for (let i = 0; i < needs.length; i++) {
    const n = needs[i];
    if (n.module !== 'env' || n.name !== 'abort') throw new TypeError('the module imports ' + n.module + '.' + n.name + ', which kernels do not get');
  }
  const x = new WebAssembly.Instance(module, imports).exports;
  if (typeof x.kernel !== 'function') throw new TypeError('the module exports no function "kernel"');
  if (typeof x.__new !== 'function' || typeof x.__pin !== 'function' || typeof x.__unpin !== 'function') throw new TypeError('the module does not export the runtime (__new, __pin, __unpin)');
  const INPUTS = ${JSON.stringify(inputs)};
  const OUTPUTS = ${JSON.stringify(outputs)};
  const DIMS = ${JSON.stringify(dims)};
  const CT = { f32: Float32Array, i32: Int32Array, u32: Uint32Array };
  const ARRAY_BUFFER_ID = 1;
  return function kernel(inputs, dims) {
    const ptrs = [], lens = [];
    for (let i = 0; i < INPUTS.length; i++) {
      const n = inputs[INPUTS[i][0]].length;
      ptrs.push(x.__pin(x.__new(n * 4, ARRAY_BUFFER_ID)));
      lens.push(n);
    }
    for (let o = 0; o < OUTPUTS.length; o++) {
      const shape = OUTPUTS[o][2];
      let n = 1;
      for (let k = 0; k < shape.length; k++) n *= typeof shape[k] === 'number' ? shape[k] : dims[shape[k]];
      ptrs.push(x.__pin(x.__new(n * 4, ARRAY_BUFFER_ID)));
      lens.push(n);
    }
    let mem = x.memory.buffer;
    for (let i = 0; i < INPUTS.length; i++) new CT[INPUTS[i][1]](mem, ptrs[i], lens[i]).set(inputs[INPUTS[i][0]]);
    for (let o = 0; o < OUTPUTS.length; o++) new Uint8Array(mem, ptrs[INPUTS.length + o], lens[INPUTS.length + o] * 4).fill(0);
    const args = ptrs.slice();
    for (let d = 0; d < DIMS.length; d++) args.push(dims[DIMS[d]]);
    x.kernel(...args);
    mem = x.memory.buffer;
    const out = {};
    for (let o = 0; o < OUTPUTS.length; o++) {
      const at = INPUTS.length + o;
      out[OUTPUTS[o][0]] = new CT[OUTPUTS[o][1]](mem, ptrs[at], lens[at]).slice();
    }
    for (let p = 0; p < ptrs.length; p++) x.__unpin(ptrs[p]);
    return out;
  };
})()`;
}
