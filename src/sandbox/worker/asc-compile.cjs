// @ts-check
'use strict';
/**
 * Compiles AssemblyScript source to WebAssembly inside a sandbox worker process (the compiler is
 * the `assemblyscript` npm package, an ES module loaded once per worker with a dynamic import).
 * The source is data to the compiler: nothing in it runs here. The module is compiled with the
 * incremental runtime and its helpers exported (__new, __pin, __unpin, __collect), so the glue
 * that runs it in an isolate can place typed arrays in its memory; SIMD is enabled.
 * Answers { code: 'ok', wasm } or { code: 'compile-error', message } (the first diagnostics).
 */

let ascPromise = null;

/** The compiler module, imported once. */
function loadAsc() {
  ascPromise ??= import('assemblyscript/asc');
  return ascPromise;
}

/** First diagnostic lines of the compiler's stderr, without colour codes, at most `max` characters. */
function diagnostics(text, max = 1200) {
  const clean = String(text).replace(/\u001b\[[0-9;]*m/g, '').trim();
  return clean.length > max ? clean.slice(0, max - 3) + '...' : clean;
}

/**
 * @param {{ source: string, optimizeLevel?: number }} req
 * @returns {Promise<{ code: 'ok', wasm: Uint8Array } | { code: 'compile-error' | 'sandbox-error', message: string }>}
 */
/**
 * The maximum every compiled module's memory declares, in 64 KiB pages (64 MiB): the kernel
 * isolates refuse a wasm memory without a maximum or above their memory limit (a lab session
 * under 64 MB cannot load AssemblyScript kernels). The largest task input is 4 MiB.
 */
const MAX_PAGES = 1024;

async function compileAssemblyScript(req) {
  if (typeof req?.source !== 'string') return { code: 'sandbox-error', message: 'the request has no AssemblyScript source' };
  let asc;
  try {
    asc = await loadAsc();
  } catch (e) {
    return { code: 'sandbox-error', message: `the AssemblyScript compiler does not load: ${e instanceof Error ? e.message : String(e)}` };
  }
  const level = Number.isInteger(req.optimizeLevel) ? Math.max(0, Math.min(3, Number(req.optimizeLevel))) : 3;
  let result;
  try {
    result = await asc.compileString(
      { 'kernel.ts': req.source },
      { optimizeLevel: level, shrinkLevel: 0, runtime: 'incremental', exportRuntime: true, enable: ['simd'], maximumMemory: MAX_PAGES },
    );
  } catch (e) {
    return { code: 'compile-error', message: diagnostics(e instanceof Error ? e.message : String(e)) };
  }
  if (result.error || !result.binary) {
    return { code: 'compile-error', message: diagnostics(result.stderr?.toString() || result.error?.message || 'the compiler produced no module') };
  }
  return { code: 'ok', wasm: new Uint8Array(result.binary) };
}

module.exports = { compileAssemblyScript };
