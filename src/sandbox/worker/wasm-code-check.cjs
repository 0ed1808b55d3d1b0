// @ts-check
'use strict';
/**
 * The kernel lab's check of a WebAssembly module's code: no exception handling. A module with
 * `try` … `catch_all` (no tag needed) catches an exception thrown by a JavaScript function it
 * imports and goes on, so a kernel could try a fast path in JavaScript, let its wasm swallow the
 * failure and fall back — an exception the measurement counts when JavaScript catches it
 * (envs/kernel-speedup/measure/instrument.ts), unseen inside wasm. Node 20's V8 (11.3) ships
 * exception handling with no flag to turn it off, so every function body is decoded instruction
 * by instruction (immediates skipped by the encoding of each opcode the lab's V8 accepts by
 * default: MVP, sign extension, saturating conversions, bulk memory, reference types, SIMD,
 * threads) and a module holding an exception-handling instruction is refused; so is one holding
 * an instruction this decoder does not know (it could not tell where the next one starts).
 *
 * The function's source is embedded in the isolate bootstrap (isolate-bootstrap.cjs) and runs
 * there, on the lab's private copy of the bytes, while the kernel's code may have replaced any
 * global or prototype: it reads typed-array elements and does arithmetic only, never a method,
 * and names nothing outside itself (a copy instrumented by a coverage or mutation tool would not
 * run there: test it through its unit tests, test/sandbox/wasm-code-check.test.ts).
 */

/**
 * Why the code section `b[start..end)` is refused, or null.
 * @param {Uint8Array} b module bytes (the lab's private copy)
 * @param {number} start first byte of the code section's contents
 * @param {number} end the byte after them
 * @returns {string | null}
 */
function wasmCodeProblem(b, start, end) {
  let p = start;
  // reading past `end` gives undefined, which reads as 0: every loop below ends
  const u = () => {
    let r = 0;
    let s = 0;
    let x;
    do {
      x = p < end ? b[p] : 0;
      p++;
      r += (x & 127) * 2 ** s;
      s += 7;
    } while (x & 128 && s < 70);
    return r;
  };
  const skip = (n) => {
    for (let i = 0; i < n; i++) u();
  };
  /** The name of an exception-handling opcode (legacy and exnref proposals), or null. */
  const eh = (op) => {
    switch (op) {
      case 6: return 'try';
      case 7: return 'catch';
      case 8: return 'throw';
      case 9: return 'rethrow';
      case 10: return 'throw_ref';
      case 24: return 'delegate';
      case 25: return 'catch_all';
      case 31: return 'try_table';
      default: return null;
    }
  };
  const unknown = (op) => 'a wasm instruction the lab does not check (opcode ' + op + ')';
  const functions = u();
  for (let f = 0; f < functions; f++) {
    const size = u();
    const bodyEnd = p + size;
    if (bodyEnd > end) return 'a wasm function body past the end of its section';
    const groups = u();
    for (let g = 0; g < groups && p < bodyEnd; g++) {
      u(); // count
      u(); // value type (one byte for every type the lab's V8 accepts)
    }
    while (p < bodyEnd) {
      const op = b[p++];
      const name = eh(op);
      if (name !== null) return 'wasm exception handling (the ' + name + ' instruction): a kernel module must not catch exceptions';
      if (op <= 1 || op === 5 || op === 11 || op === 15 || op === 26 || op === 27 || op === 209 || (op >= 69 && op <= 196)) continue; // no immediate
      if ((op >= 2 && op <= 4) || op === 12 || op === 13 || op === 16 || (op >= 32 && op <= 38) || op === 63 || op === 64 || op === 65 || op === 66 || op === 208 || op === 210) skip(1);
      else if (op === 17 || (op >= 40 && op <= 62)) skip(2); // call_indirect; a load or store's alignment and offset
      else if (op === 14) skip(u() + 1); // br_table
      else if (op === 28) skip(u()); // select with types
      else if (op === 67) p += 4;
      else if (op === 68) p += 8;
      else if (op === 252) {
        const sub = u();
        if (sub <= 7) continue;
        if (sub === 8 || sub === 10 || sub === 12 || sub === 14) skip(2);
        else if (sub === 9 || sub === 11 || sub === 13 || (sub >= 15 && sub <= 17)) skip(1);
        else return unknown('0xfc ' + sub);
      } else if (op === 253) {
        const sub = u();
        if (sub <= 11 || sub === 92 || sub === 93) skip(2);
        else if (sub === 12 || sub === 13) p += 16;
        else if (sub >= 21 && sub <= 34) p += 1;
        else if (sub >= 84 && sub <= 91) {
          skip(2);
          p += 1;
        } else if (sub > 255) return unknown('0xfd ' + sub);
      } else if (op === 254) {
        const sub = u();
        if (sub === 3) p += 1;
        else if (sub <= 2 || (sub >= 16 && sub <= 78)) skip(2);
        else return unknown('0xfe ' + sub);
      } else return unknown(op);
    }
    if (p !== bodyEnd) return 'a wasm function body that does not end where its size says';
  }
  return null;
}

module.exports = { wasmCodeProblem };
