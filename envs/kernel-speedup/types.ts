/** State, observation and action types of kernel-speedup-v1. Everything is plain JSON. */
import type { Candidate } from './measure/candidate';
import type { AttackInput } from './measure/attack';
import type { AttackResult, Measurement } from './measure/types';
import type { Dims, DimRange, InputSpec, OutputSpec, Tolerance } from './tasks/task';

export type Role = 'defender' | 'attacker' | 'evaluator';
export type RewardScheme = 'tiers' | 'log-speedup';
export type CandidateMode = 'any' | 'schedule' | 'code';
export type TimingMode = 'live' | 'table';
export type ShapePool = 'timing' | 'held-out';

/** The resolved configuration of one episode (part of the state). */
export interface Config {
  seats: Role[];
  candidates: CandidateMode;
  reward: RewardScheme;
  timing: TimingMode;
  shapes: ShapePool;
  /** K: most revisions the defender submits. */
  revisions: number;
  slowPenalty: number;
  seededTrials: number;
  warmup: number;
  trials: number;
  cvThreshold: number;
  timeMs: number;
  memoryMb: number;
}

/**
 * Phases: `submit` (defender), `predict` (evaluator, before each measurement), `measure` (effect:
 * the revision is measured), `attack` (attacker), `run-attack` (effect), `done`.
 */
export type Phase = 'submit' | 'predict' | 'measure' | 'attack' | 'run-attack' | 'done';

/** The evaluator's forecast: a probability per outcome class (see rewards.ts OUTCOMES). */
export type Prediction = number[];

/** One revision of the defender's kernel and what became of it. */
export interface Revision {
  candidate: Candidate;
  /** The env step of the submission (rewards credit it). */
  step: number;
  prediction?: Prediction;
  predictionStep?: number;
  measurement?: Measurement;
  /** The defender's reward for this revision (tiers or log-speedup). */
  reward?: number;
  /** The evaluator's proper score of its prediction. */
  predictionScore?: number;
}

/** The attacker's move and its verdict. */
export interface AttackRecord {
  input: AttackInput;
  step: number;
  /** Inside the task's contract. */
  valid: boolean;
  reason?: string;
  result?: AttackResult;
  /** +1 broke the kernel, 0 did not (or the reference is not finite there), −1 outside the contract. */
  score?: number;
}

export interface KernelState {
  cfg: Config;
  task: string;
  shapeIndex: number;
  shape: Dims;
  phase: Phase;
  revisions: Revision[];
  attack: AttackRecord | null;
  /** Steps taken so far (the index of the next step). */
  steps: number;
}

/** The task as every seat sees it (never the expert's source). */
export interface PublicTask {
  id: string;
  title: string;
  description: string;
  dims: Record<string, DimRange>;
  inputs: InputSpec[];
  outputs: OutputSpec[];
  tolerance: Tolerance;
  edgeShapes: Dims[];
  knobs: { name: string; options: (number | string)[] }[];
  /** Number of schedule indices (legal or not). */
  schedules: number;
  reference: string;
  /** The `kernel` export an AssemblyScript candidate must have. */
  assemblyScript: string;
  /** The recorded expert speedup on this shape (the ceiling), when measured. */
  expertSpeedup: number | null;
}

/** A candidate as shown: its kind, the schedule (index and knobs) or the source. */
export interface CandidateView {
  kind: Candidate['kind'];
  index?: number;
  schedule?: Record<string, number | string>;
  source: string;
}

/** A revision as shown. */
export interface RevisionView {
  candidate: CandidateView;
  prediction?: Prediction;
  measurement?: Measurement;
  reward?: number;
  predictionScore?: number;
}

export interface KernelObservation {
  env: 'kernel-speedup-v1';
  view: 'public' | 'omniscient' | number;
  role: Role | null;
  phase: Phase;
  candidates: CandidateMode;
  reward: RewardScheme;
  timing: TimingMode;
  task: PublicTask;
  /** The shape pool and the index of the episode's shape in it. */
  shapes: ShapePool;
  shapeIndex: number;
  shape: Dims;
  revisions: RevisionView[];
  revisionsLeft: number;
  /** Legal schedule indices (and the stop index) when the defender is to act and schedules are allowed; else null. */
  legal: number[] | null;
  attack: AttackRecord | null;
  /** What the seat to act must answer, in words (null when it is not this view's turn). */
  ask: string | null;
  returns: number[] | null;
  outcome: string;
}
