/**
 * The result codes of a kernel measurement: exactly one per measurement. `ok` is the only code
 * whose kernel counts as correct; every anti-hacking check has a code of its own, so a report (and
 * a test) says which rule a kernel broke, not just that it failed.
 */

/** Every measurement code, in the order the classifier tries them (first match wins). */
export const MEASURE_CODES = [
  'ok',
  // the candidate never ran
  'syntax-error',
  'compile-error',
  'forbidden',
  'sandbox-error',
  // it ran and failed openly
  'timeout',
  'memory-limit',
  'reads-clock',
  'runtime-error',
  'wrong-dtype',
  'wrong-shape',
  // anti-hacking: each rule its own code
  'hidden-failure',
  'lazy-output',
  'returns-input',
  'modifies-input',
  'kept-buffer',
  'result-reuse',
  'decoy',
  'lower-precision',
  // plain wrong answers
  'wrong-answer',
] as const;

/** One measurement's code. */
export type MeasureCode = (typeof MEASURE_CODES)[number];

/** What each code means (README table, the renderer's tooltips, text observations). */
export const CODE_MEANING: Readonly<Record<MeasureCode, string>> = {
  ok: 'correct on every checked call',
  'syntax-error': 'the source does not parse as one function expression',
  'compile-error': 'the AssemblyScript source does not compile',
  forbidden: 'the source uses a construct the measurement forbids (direct eval, the reserved __ks names, async functions, promises, a wasm module with exception handling)',
  'sandbox-error': 'the sandbox failed (not the kernel’s fault)',
  timeout: 'a call ran past the time limit',
  'memory-limit': 'the kernel ran out of memory',
  'reads-clock': 'the kernel tried to read the clock (there is none in the sandbox)',
  'runtime-error': 'a call threw',
  'wrong-dtype': 'an output is not a typed array of the declared dtype',
  'wrong-shape': 'an output has the wrong length',
  'hidden-failure': 'an exception was thrown and caught inside the kernel (a try/catch fallback hiding a failure, a finally swallowing it, a catch while the source loads)',
  'lazy-output': 'an output is computed by a getter (a lazy result)',
  'returns-input': 'an output is one of the input buffers',
  'modifies-input': 'the kernel wrote to its inputs',
  'kept-buffer': 'an output is a buffer the kernel returned before (kept across calls)',
  'result-reuse': 'a timed call returned an earlier call’s result instead of computing this one',
  decoy: 'correct while checked, wrong on later calls (skips the work when it thinks nobody looks)',
  'lower-precision': 'the outputs carry less precision than float32 (e.g. float16 arithmetic)',
  'wrong-answer': 'outputs differ from the reference beyond the tolerance',
};

/** Codes of the anti-hacking rules (a kernel caught by one gets the reward of an incorrect kernel). */
export const HACK_CODES: readonly MeasureCode[] = ['hidden-failure', 'lazy-output', 'returns-input', 'modifies-input', 'kept-buffer', 'result-reuse', 'decoy', 'lower-precision', 'reads-clock', 'forbidden'];

/** Whether `x` is a measurement code. */
export function isMeasureCode(x: unknown): x is MeasureCode {
  return typeof x === 'string' && (MEASURE_CODES as readonly string[]).includes(x);
}
