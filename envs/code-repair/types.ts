/** State, observation and action types of code-repair-v1. Everything is plain JSON. */
import type { JsonValue } from '../../src/core/json';
import type { CodeRunRequest, CodeRunResult, RunCode, RunLimits, TestOutcome } from '../../src/core/sandbox';
import type { CodeTask, TaskProperty, TaskTest } from './task-format';

export type Role = 'coder' | 'auditor' | 'evaluator';
export type Mode = 'generate' | 'repair';
export type RewardScheme = 'fixaudit' | 'cure';

/** The resolved configuration of one episode (part of the state). */
export interface Config {
  mode: Mode;
  reward: RewardScheme;
  rounds: number;
  testsPerRound: number;
  auditPenalty: number;
  /** CURE: programs and tests per episode. */
  k: number;
  zscore: boolean;
  seats: Role[];
  limits: RunLimits;
}

/**
 * Phases: `code` (coder/fixer writes), `predict` (evaluator), `audit` (auditor proposes tests),
 * `cure-code` / `cure-test` (CURE's k programs, then k tests), and the effect phases `run-code`
 * (the candidate on public, hidden and earlier audit tests), `run-audit` (reference and candidate
 * on the new tests), `cure-judge`; `done`.
 */
export type Phase = 'code' | 'predict' | 'audit' | 'cure-code' | 'cure-test' | 'run-code' | 'run-audit' | 'cure-judge' | 'done';

/** A test an auditor proposed, with its verdict once run. */
export interface AuditTest {
  round: number;
  input: JsonValue[];
  /** The auditor's expected output; absent = "whatever the reference returns". */
  expected?: JsonValue;
  /** Valid iff the reference passes it (runs without error, and matches `expected` when given). */
  valid?: boolean;
  /** Why it is invalid. */
  reason?: string;
  /** The expected output in force: the auditor's, or the reference's. */
  reference?: JsonValue;
  /** The candidate at the time: its outcome on this test. */
  outcome?: TestOutcome;
  /** Auditor's score for this test: +1 valid and failed by the candidate, 0 valid and passed, −1 invalid. */
  score?: number;
}

/** What the run of the current candidate showed. */
export interface CandidateRun {
  revision: number;
  public: CodeRunResult;
  hidden: { code: RunCode; passed: number; total: number };
  /** Outcome on every valid audit test so far (in order of `audit` where valid). */
  audit: TestOutcome[];
}

/** CURE: per program its pass rate on the ground truth; per test its verdicts. */
export interface CureVerdict {
  passRates: number[];
  /** Program i passes test j. */
  passes: boolean[][];
  correct: boolean[];
  tests: AuditTest[];
  coderRewards: number[];
  testerRewards: number[];
}

export interface CodeRepairState {
  cfg: Config;
  task: CodeTask;
  /** Which buggy variant started a repair episode (-1: none). */
  variant: number;
  phase: Phase;
  /** Audit rounds done. */
  round: number;
  /** Candidate programs in order; the last is the current one (empty before the first). */
  revisions: string[];
  runs: CandidateRun[];
  audit: AuditTest[];
  /** The auditor's tests waiting for `run-audit`. */
  proposed: AuditTest[];
  predictions: { revision: number; p: number; passed?: boolean }[];
  /** CURE: the k programs and k tests as submitted. */
  programs: string[];
  tests: AuditTest[];
  cure: CureVerdict | null;
  solved: boolean;
}

/** The effect's request: runs in order. */
export interface RunsRequest {
  runs: CodeRunRequest[];
}

/** The effect's result: one CodeRunResult per requested run. */
export interface RunsResult {
  runs: CodeRunResult[];
}

/** The public part of a task (never its reference, hidden tests, check or buggy variants). */
export interface PublicTask {
  id: string;
  language: CodeTask['language'];
  spec: string;
  entry: string;
  signature: string;
  publicTests: TaskTest[];
  generator: CodeTask['generator'] | null;
  properties: TaskProperty[];
  hiddenTests: number;
}

export interface CodeRepairObservation {
  env: 'code-repair-v1';
  view: 'public' | 'omniscient' | number;
  role: Role | null;
  mode: Mode;
  reward: RewardScheme;
  phase: Phase;
  round: number;
  rounds: number;
  task: PublicTask;
  /** The current candidate program (null before the first, and for a CURE tester). */
  candidate: string | null;
  /** Every revision so far (for diffs); CURE: only what this view may see. */
  revisions: string[];
  /** The current candidate's public-test results and hidden-test counts. */
  lastRun: CandidateRun | null;
  audit: AuditTest[];
  predictions: { revision: number; p: number; passed?: boolean }[];
  cure: CureVerdict | null;
  /** What the seat to act must answer, in words (null when it is not this view's turn). */
  ask: string | null;
  returns: number[] | null;
  outcome: string;
}
