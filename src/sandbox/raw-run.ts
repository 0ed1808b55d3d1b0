/**
 * What a language runner hands back before comparison: the run's code (ok when the program
 * loaded), and per test its code and output as JSON text. The host turns it into a
 * CodeRunResult by comparing outputs with expected values (see assemble.ts).
 */
import { RUN_CODES, type RunCode } from '../core/sandbox';

/** One test before comparison. */
export interface RawOutcome {
  code: RunCode;
  /** The output as JSON text (ok only); the JS runner's marker for `undefined` is "\u0000undefined". */
  text?: string;
  message?: string;
  /** JS property tests: whether the property held. */
  property?: boolean;
}

/** One run before comparison. */
export interface RawRun {
  code: RunCode;
  message?: string;
  outputs: RawOutcome[];
  /** Python: the HumanEval check's outcome. */
  check?: RawOutcome;
}

function rawOutcome(o: unknown): RawOutcome | null {
  if (!o || typeof o !== 'object') return null;
  const x = o as Record<string, unknown>;
  if (!RUN_CODES.includes(x.code as RunCode)) return null;
  if (x.text !== undefined && typeof x.text !== 'string') return null;
  if (x.message !== undefined && typeof x.message !== 'string') return null;
  if (x.property !== undefined && typeof x.property !== 'boolean') return null;
  return { code: x.code as RunCode, ...(typeof x.text === 'string' ? { text: x.text } : {}), ...(typeof x.message === 'string' ? { message: x.message.slice(0, 300) } : {}), ...(typeof x.property === 'boolean' ? { property: x.property } : {}) };
}

/**
 * A runner's answer as a RawRun when it has the right shape, else null: the Python result line
 * (anyone in the sandbox could have written it) and the JS worker's answer are both checked.
 * `tests`: how many tests ran; a run that loaded must answer each of them.
 */
export function validRaw(v: unknown, tests: number): RawRun | null {
  if (!v || typeof v !== 'object') return null;
  const x = v as Record<string, unknown>;
  const top = rawOutcome({ code: x.code, message: x.message });
  if (!top || !Array.isArray(x.outputs)) return null;
  const outputs: RawOutcome[] = [];
  for (const o of x.outputs) {
    const r = rawOutcome(o);
    if (!r) return null;
    outputs.push(r);
  }
  if (top.code === 'ok' && outputs.length !== tests) return null;
  const check = x.check === undefined ? undefined : rawOutcome(x.check);
  if (check === null) return null;
  return { ...top, outputs, ...(check ? { check } : {}) };
}
