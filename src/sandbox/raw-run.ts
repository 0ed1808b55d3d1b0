/**
 * What a language runner hands back before comparison: the run's code (ok when the program
 * loaded), and per test its code and output as JSON text. The host turns it into a
 * CodeRunResult by comparing outputs with expected values (see assemble.ts).
 */
import type { RunCode } from '../core/sandbox';

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
