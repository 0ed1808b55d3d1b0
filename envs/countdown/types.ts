/**
 * State, actions and observations of countdown-v1 (all plain JSON).
 */
import type { Config, Role, RoleSetup } from './config';
import type { Contract } from './contract';
import type { AnswerStatus, Rules } from './scoring';

/** Episode phases, in order; "propose" only with a challenger, "evaluate" only with an evaluator. */
export type Phase = 'propose' | 'solve' | 'evaluate' | 'done';

/** The exact solver's verdict on a puzzle (under the episode's rules). */
export interface Verdict {
  /** Whether the target is reachable exactly. */
  reachable: boolean;
  /** uk: the closest reachable value; other rules: the target when reachable, else null. */
  value: number | null;
  /** uk: |value − target|; other rules: 0 when reachable, else null (only exact hits are searched). */
  distance: number | null;
  /** One expression attaining `value`, or null. */
  expression: string | null;
  /** Numbers that expression uses (uk: the fewest found), or null. */
  tiles: number | null;
  /** Search effort (the solver's node count): a difficulty measure. */
  nodes: number;
}

/** One finished solver attempt. */
export interface AttemptResult {
  /** The answer text (for an attempt made by steps: the expression the moves built). */
  answer: string;
  /** For an attempt made by steps: the step indices played (stop included); a text answer: null. */
  moves: number[] | null;
  status: AnswerStatus;
  reason: string | null;
  value: number | null;
  score: number;
  correct: boolean;
}

/** The full state. Never mutated: every step returns a new object. */
export interface CountdownState {
  cfg: Config;
  phase: Phase;
  /** The puzzle (null until the challenger has proposed it). */
  numbers: number[] | null;
  target: number | null;
  /** The numbers a challenger composing by index has added so far. */
  draft: number[];
  verdict: Verdict | null;
  /** The current attempt's pool ([numerator, denominator] per slot, denominator 0 = empty). */
  pool: number[];
  /** The current attempt's step indices so far. */
  moves: number[];
  results: AttemptResult[];
  /** The evaluator's predictions (true = "this attempt is correct"), in attempt order. */
  predictions: boolean[];
}

/** A challenger's whole proposal in one action (a JSON string of it is accepted too). */
export interface Proposal {
  numbers: number[];
  target: number;
}

/**
 * An action. Every seat may act in either form, in every episode:
 * - an integer index (see actions.ts) — neural agents: solver steps, challenger composition,
 *   evaluator predictions;
 * - text / JSON — the solver's answer text (a whole attempt), the challenger's
 *   {@link Proposal} (a whole puzzle), the evaluator's boolean prediction.
 * A text answer is accepted only before the attempt's first step, a proposal only before the
 * first number is added.
 */
export type CountdownAction = number | string | boolean | Proposal;

/** What a viewer sees. Fields are present only when the viewer may see them. */
export interface CountdownObservation {
  rules: Rules;
  roles: RoleSetup;
  answerTag: boolean;
  /** The viewer's seat and role (null for public / omniscient viewers). */
  seat: number | null;
  role: Role | null;
  phase: Phase;
  contract: Contract;
  /** K. */
  attempts: number;
  /** Attempts finished so far. */
  attemptsDone: number;
  numbers: number[] | null;
  target: number | null;
  /** While the challenger composes: the numbers added so far (public). */
  draft?: number[];
  /** The solver's own attempt in progress: the pool and the steps so far as text. */
  pool?: ([number, number] | null)[];
  moves?: string[];
  /** From the evaluation phase on: every attempt's answer (revealed together). */
  answers?: string[];
  /** Predictions made so far: the evaluator's own, everybody's once the episode is over. */
  predictions?: boolean[];
  /** Omniscient viewers, and everybody at the end: attempt results and the solver's verdict. */
  results?: AttemptResult[];
  verdict?: Verdict;
  /** At the end: every seat's return. */
  returns?: number[];
  /** For the seat to act: its legal action indices (text / JSON actions are open; see validateAction). */
  legal?: number[];
}
