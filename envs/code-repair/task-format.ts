/**
 * The code-repair task format (one JSON object per line of a `.jsonl` file). Documented for
 * users in envs/code-repair/README.md; validated by `parseTask` (task-parse.ts).
 *
 * A test is `{ input, expected }` (the output must equal `expected`) or `{ input, property }`
 * (the named property of the task must hold for the output). `input` is the argument list.
 * A test is valid iff the reference solution passes it.
 */
import type { JsonValue } from '../../src/core/json';

/** Languages the sandbox runs. */
export type TaskLanguage = 'js' | 'python';

/** One unit test: arguments and either the expected output or a property name. */
export type TaskTest =
  | { input: JsonValue[]; expected: JsonValue }
  | { input: JsonValue[]; property: string };

/**
 * A property over a call: `check` is the source of a JS function `(output, ...args) => boolean`
 * (true = the property holds). Run inside the sandbox, never in the host.
 */
export interface TaskProperty {
  name: string;
  description: string;
  check: string;
}

/**
 * Input generator: a JSON description of a fast-check arbitrary for the argument tuple.
 * Grammar (each node is an object with exactly one key):
 * - `{"integer": {"min": -10, "max": 10}}`, `{"nat": {"max": 100}}`
 * - `{"float": {"min": -1, "max": 1}}` (finite doubles, no NaN)
 * - `{"boolean": {}}`
 * - `{"string": {"minLength": 0, "maxLength": 10, "chars": "ab c"}}` (chars optional: any printable ASCII)
 * - `{"constant": <json>}`, `{"constantFrom": [<json>, ...]}`
 * - `{"array": {"of": <node>, "minLength": 0, "maxLength": 10}}`
 * - `{"tuple": [<node>, ...]}` (the top level is always a tuple: one node per argument)
 * - `{"record": {"key": <node>, ...}}`
 * - `{"oneof": [<node>, ...]}`
 */
export type ArbitraryDescription = { [kind: string]: JsonValue };

/** A deliberately broken version of the reference (repair mode's starting program). */
export interface BuggyVariant {
  id: string;
  /** One line: what is wrong (for humans; never shown to agents). */
  description: string;
  source: string;
}

/** One task. */
export interface CodeTask {
  id: string;
  language: TaskLanguage;
  /** What the function must do, in words (the coder's and auditor's spec). */
  spec: string;
  /** Name of the function the program must define. */
  entry: string;
  /** Human-readable signature, e.g. `rle(s: string): [string, number][]`. */
  signature: string;
  /** A correct program defining `entry`. */
  reference: string;
  publicTests: TaskTest[];
  hiddenTests: TaskTest[];
  /** Input generator for property-based auditors (JS tasks). */
  generator?: ArbitraryDescription;
  /** Properties any correct output satisfies (used by `{property}` tests and fuzzers). */
  properties?: TaskProperty[];
  buggy?: BuggyVariant[];
  /** HumanEval-style tasks: source of `check(candidate)` run after the program (python). */
  check?: string;
  /**
   * With `check`: the task's source run in check()'s namespace before it — helper functions and
   * imports check() uses (for HumanEval the prompt, which defines e.g. `poly`). The program's own
   * definitions never reach check(); only its entry point does.
   */
  helpers?: string;
}
