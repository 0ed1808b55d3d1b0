/** Types of wasm-code-check.cjs (the kernel lab's check of WebAssembly code: no exception handling). */
/** Why the code section `b[start..end)` is refused, or null. */
export declare function wasmCodeProblem(b: Uint8Array, start: number, end: number): string | null;
