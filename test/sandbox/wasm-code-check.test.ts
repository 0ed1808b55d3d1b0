/**
 * The kernel lab's check of WebAssembly code (issue 23): a module with exception handling is
 * refused — `try` … `catch_all` catches what a JavaScript import throws, a failure the kernel
 * measurement would not see — and every other instruction is decoded past its immediates (bytes
 * equal to an exception-handling opcode inside an immediate are not one), checked on hand-made
 * bodies and on large real modules. The lab's refusal itself: attack-kernel-lab.test.ts.
 */
import { readFileSync } from 'node:fs';
import { wasmCodeProblem } from '../../src/sandbox/worker/wasm-code-check.cjs';

/** The LEB128 encoding of a non-negative integer. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 127;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 128;
    out.push(byte);
  } while (n > 0);
  return out;
}

/** A code section's contents holding one function body: `locals` groups, then `code` (its final `end` included). */
function codeSection(code: number[], locals: number[] = [0]): number[] {
  const body = [...locals, ...code];
  return [1, ...leb(body.length), ...body];
}

/** The problem of one body. */
const problemOf = (code: number[], locals?: number[]) => {
  const s = codeSection(code, locals);
  return wasmCodeProblem(Uint8Array.from(s), 0, s.length);
};

/** The code section of a whole module, as the lab finds it. */
function moduleProblem(bytes: Uint8Array): string | null {
  let p = 8;
  const u = () => {
    let r = 0;
    let s = 0;
    let x: number;
    do {
      x = bytes[p++];
      r += (x & 127) * 2 ** s;
      s += 7;
    } while (x & 128);
    return r;
  };
  while (p < bytes.length) {
    const id = bytes[p++];
    const size = u();
    if (id === 10) return wasmCodeProblem(bytes, p, p + size);
    p += size;
  }
  return null;
}

/**
 * (import "env" "f" (func)) (func (export "run") (result i32) try (result i32) call 0 i32.const 1
 * catch_all i32.const 0 end): 1 when f returned, 0 when it threw — the exception swallowed.
 */
const CATCH_ALL = Uint8Array.from([
  0, 97, 115, 109, 1, 0, 0, 0,
  1, 8, 2, 0x60, 0, 0, 0x60, 0, 1, 0x7f,
  2, 9, 1, 3, 101, 110, 118, 1, 102, 0, 0,
  3, 2, 1, 1,
  7, 7, 1, 3, 114, 117, 110, 0, 1,
  10, 14, 1, 12, 0, 0x06, 0x7f, 0x10, 0, 0x41, 1, 0x19, 0x41, 0, 0x0b, 0x0b,
]);

describe('exception handling is refused', () => {
  test('the catch_all module: valid, and it does swallow a JavaScript exception (outside the lab)', () => {
    const m = new WebAssembly.Module(CATCH_ALL);
    const run = (f: () => void) => (new WebAssembly.Instance(m, { env: { f } }).exports.run as () => number)();
    expect(run(() => { throw new Error('fast path failed'); })).toBe(0);
    expect(run(() => undefined)).toBe(1);
    expect(moduleProblem(CATCH_ALL)).toBe('wasm exception handling (the try instruction): a kernel module must not catch exceptions');
  });

  test.each([
    ['try', [0x06, 0x40, 0x0b, 0x0b]],
    ['catch', [0x07, 0, 0x0b]],
    ['throw', [0x08, 0, 0x0b]],
    ['rethrow', [0x09, 0, 0x0b]],
    ['throw_ref', [0x0a, 0x0b]],
    ['delegate', [0x18, 0, 0x0b]],
    ['catch_all', [0x19, 0x0b]],
    ['try_table', [0x1f, 0x40, 0, 0x0b, 0x0b]],
  ])('%s, after other instructions', (name, code) => {
    expect(problemOf([0x01, 0x41, 5, 0x1a, ...code])).toBe(`wasm exception handling (the ${name} instruction): a kernel module must not catch exceptions`);
  });

  test('in a later function of the section', () => {
    const plain = [0, 0x0b];
    const eh = [0, 0x19, 0x0b];
    const s = [2, plain.length, ...plain, eh.length, ...eh];
    expect(wasmCodeProblem(Uint8Array.from(s), 0, s.length)).toMatch(/the catch_all instruction/);
  });
});

describe('everything else is read past its immediates', () => {
  test('the same module with a block instead of try and nops instead of catch_all: valid, accepted', () => {
    const bytes = CATCH_ALL.slice();
    // body: 0 locals, block (result i32), call 0, i32.const 1, nop × 3, end, end
    bytes.set([0, 0x02, 0x7f, 0x10, 0, 0x41, 1, 0x01, 0x01, 0x01, 0x0b, 0x0b], bytes.length - 12);
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(moduleProblem(bytes)).toBeNull();
  });

  test.each([
    ['i32.const 6, i64.const 25, select', [0x41, 6, 0x42, 25, 0x1b, 0x0b]],
    ['f32.const and f64.const whose bytes are 6 and 25', [0x43, 6, 25, 6, 25, 0x44, 6, 25, 6, 25, 6, 25, 6, 25, 0x0b]],
    ['br_table with labels 6 and 25', [0x0e, 2, 6, 25, 9, 0x0b]],
    ['a load and a store with alignment 6, offset 25', [0x28, 6, 25, 0x36, 6, 25, 0x0b]],
    ['call_indirect type 6 table 25; local, global and table indices; memory.size/grow', [0x11, 6, 25, 0x20, 6, 0x21, 25, 0x22, 9, 0x23, 6, 0x24, 25, 0x25, 6, 0x26, 25, 0x3f, 0, 0x40, 0, 0x0b]],
    ['multi-byte LEB immediates', [0x41, 0x86, 0x99, 0x06, 0x10, 0x99, 0x06, 0x0b]],
    ['select with types; ref.null, ref.is_null, ref.func', [0x1c, 1, 0x7f, 0xd0, 0x70, 0xd1, 0xd2, 6, 0x0b]],
    ['bulk memory and saturating conversions (0xfc)', [0xfc, 0, 0xfc, 7, 0xfc, 8, 6, 0, 0xfc, 9, 25, 0xfc, 10, 0, 0, 0xfc, 11, 0, 0xfc, 12, 6, 25, 0xfc, 13, 6, 0xfc, 14, 6, 25, 0xfc, 15, 6, 0xfc, 16, 25, 0xfc, 17, 9, 0x0b]],
    ['SIMD: loads, v128.const, shuffle, lanes, load lane, load zero, arithmetic (0xfd)', [0xfd, 0, 4, 6, 0xfd, 12, ...Array(16).fill(25), 0xfd, 13, ...Array(16).fill(6), 0xfd, 21, 6, 0xfd, 34, 25, 0xfd, 84, 0, 6, 25, 0xfd, 92, 2, 6, 0xfd, 0x8e, 1, 0x0b]],
    ['atomics: notify, fence, rmw (0xfe)', [0xfe, 0, 2, 6, 0xfe, 3, 0, 0xfe, 0x4e, 3, 25, 0x0b]],
  ])('%s', (_what, code) => {
    expect(problemOf(code)).toBeNull();
  });

  test('locals are skipped: a group whose count and type read as EH opcodes', () => {
    expect(problemOf([0x0b], [1, 6, 0x7f])).toBeNull();
    expect(problemOf([0x0b], [2, 25, 0x7f, 6, 0x7e])).toBeNull();
  });

  test.each([
    ['assembly/fused-mlp.wasm (AssemblyScript, SIMD)', 'assembly/fused-mlp.wasm'],
    ['tfjs-backend-wasm (Emscripten, threads and SIMD)', 'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm'],
    ['tfjs-backend-wasm (Emscripten, MVP)', 'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'],
  ])('a real module without exception handling: %s', (_what, path) => {
    const bytes = new Uint8Array(readFileSync(path));
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(moduleProblem(bytes)).toBeNull();
  });
});

describe('what it cannot read is refused', () => {
  test.each([
    ['an unknown opcode', [0x12, 0, 0x0b], 'a wasm instruction the lab does not check (opcode 18)'],
    ['an unknown 0xfc instruction', [0xfc, 18, 0x0b], 'a wasm instruction the lab does not check (opcode 0xfc 18)'],
    ['a relaxed SIMD instruction (0xfd above 255)', [0xfd, 0x80, 2, 0x0b], 'a wasm instruction the lab does not check (opcode 0xfd 256)'],
    ['an unknown atomic', [0xfe, 0x4f, 0x0b], 'a wasm instruction the lab does not check (opcode 0xfe 79)'],
    ['a const running past the body', [0x44, 0, 0x0b], 'a wasm function body that does not end where its size says'],
  ])('%s', (_what, code, problem) => {
    expect(problemOf(code)).toBe(problem);
  });

  test('a body larger than its section', () => {
    expect(wasmCodeProblem(Uint8Array.from([1, 9, 0, 0x0b]), 0, 4)).toBe('a wasm function body past the end of its section');
  });
});
