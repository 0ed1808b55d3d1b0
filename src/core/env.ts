/**
 * The environment contract. An environment is pure data plus pure functions: no timers,
 * sockets, globals or Math.random. Same params + seed + actions give the same trajectory
 * on every machine.
 *
 * Authors write an {@link EnvDefinition}; the registry normalizes it into an {@link Env}
 * (defaults filled in, members checked) before anything runs it.
 */
import type { ExploitFixture } from './conformance/exploits';
import type { JsonValue } from './json';
import type { ParamSchema, Params } from './params';
import type { PromptTemplate } from './prompt-template';
import type { Rng, Seed } from './rng';
import type { Viewer, Visibility } from './visibility';

/** Turn structure: one seat at a time, or several seats acting at once (votes, sealed bids). */
export type Dynamics = 'sequential' | 'simultaneous';
/** Whether every seat sees the whole state. */
export type Information = 'perfect' | 'imperfect';
/** How returns relate across seats; checked by the conformance kit. */
export type Utility = 'zero-sum' | 'constant-sum' | 'general-sum';

/** A role: what an agent plays. `count` is how many seats hold it by default. */
export interface RoleSpec {
  name: string;
  count: number;
  /** Team name; seats of one team may share `{team}`-visible events. Defaults to the role name. */
  team?: string;
  description?: string;
}

/** What an env offers beyond the required members (OpenSpiel's GameType flags), for trainers, the page and tools. */
export interface EnvCapabilities {
  /** `per-decision`: `step` may return {@link StepReward}s; `terminal`: only `returns` at the end. */
  rewards: 'terminal' | 'per-decision';
  /** Whether per-decision rewards close "tries" (several independent attempts in one seat's episode). */
  tries: boolean;
  /** `finite`: legalActions always lists the actions; `open`: free text/code; `mixed`: depends on state or params. */
  actions: 'finite' | 'open' | 'mixed';
  /** Kinds of effects (work outside the env, such as running code) the env may request; empty when none. */
  effects: readonly string[];
  /** Whether `encoder` exists (neural agents can play). */
  encoder: boolean;
}

/** The role and team of one seat in one episode. */
export interface SeatInfo {
  role: string;
  team: string;
}

/** Static description of an environment. */
export interface EnvMeta {
  /** Versioned id, `name-vN` (e.g. `countdown-v1`). */
  id: string;
  description?: string;
  /** Every role the env knows, with default seat counts. */
  roles: readonly RoleSpec[];
  dynamics: Dynamics;
  /** Whether the env draws random events (chance nodes). */
  chance: boolean;
  information: Information;
  /**
   * True when which seat holds which role or team is secret (Werewolf). The public
   * `match.started` event then lists the agents without their seats, since an agent filling a
   * whole team would otherwise reveal the team.
   */
  hiddenRoles?: boolean;
  /** Utility class, or a function of the resolved params when it depends on them. */
  utility: Utility | ((params: Params) => Utility);
  /** For constant-sum games: the sum every episode's returns add up to. */
  constantSum?: number;
  /** Upper bound on `step` calls per episode (the kit fails a playout that exceeds it). */
  maxLength: number | ((params: Params) => number);
  /** Parameter schema with defaults; bad params get a ParamError naming the field. */
  params: ParamSchema;
  /**
   * Declared capabilities; omitted fields are inferred by `normalizeEnv` (rewards from nothing:
   * `terminal`; actions from the members; effects: none; encoder: whether one exists). The
   * conformance kit checks the declaration against the env's behaviour.
   */
  capabilities?: Partial<EnvCapabilities>;
  /**
   * Cross-field check of resolved params (contradictory fields): throw a ParamError naming the
   * field. Run by `resolveParams`, so `make` and every command reject bad combinations up front.
   */
  checkParams?: (params: Params) => void;
}

/** Result of checking one action: accepted, or rejected with a human-readable reason. */
export type ActionCheck = { ok: true } | { ok: false; reason: string };

/** The actions of one step: seat -> action, for exactly the seats `toAct` named. */
export type ActionMap<A = JsonValue> = Record<number, A>;

/** Something that happened in a step, with who may see it. `type: "message"` carries free text. */
export interface EnvEvent {
  type: string;
  visibility: Visibility;
  data: { [key: string]: JsonValue };
}

/**
 * A reward earned by one seat in one step: per-decision credit, for trainers and rollouts.
 * `returns` stays the episode's result (ratings use it); rewards need not add up to it.
 */
export interface StepReward {
  seat: number;
  value: number;
  /**
   * True when this reward scores one complete try of several independent tries in the seat's
   * episode (Countdown's K attempts at one puzzle): trainers learn from each try as its own
   * trajectory (the decisions since the previous try ended), grouped with the episode's other tries.
   */
  endsTry?: boolean;
  /**
   * The step of the decision this reward scores, when earlier than the step that gives it
   * (several tries judged together at the end: CURE's k programs). Default: this step.
   */
  credits?: number;
}

/** What `step` returns: the next state (the input is left untouched), the step's events and rewards. */
export interface StepResult<S> {
  state: S;
  events: EnvEvent[];
  /** Per-decision rewards earned in this step (only for envs with `capabilities.rewards: "per-decision"`). */
  rewards?: StepReward[];
}

/**
 * The pseudo-seat that answers effects: the result of an effect is applied with
 * `step(state, { [EFFECT_SEAT]: result })` and recorded as that seat's action.
 */
export const EFFECT_SEAT = -1;

/**
 * Work the env needs done outside itself (run programs against tests, time a kernel). The env
 * stays pure: the runner performs the effect with the handler registered for `kind` and feeds
 * the result back as the action of {@link EFFECT_SEAT}; the result is recorded in the event
 * log, so replays and spectators never re-run it.
 */
export interface EffectRequest {
  kind: string;
  request: JsonValue;
}

/**
 * Fixed-size encoding for neural agents. `encode` works on an observation (never on the
 * full state), so it cannot leak what the viewer may not see.
 */
export interface Encoder<O = JsonValue, A = JsonValue> {
  /** Length of every encoded observation. */
  size: number;
  /** Number of action indices; indices are stable across versions of the env id. */
  numActions: number;
  /** Encodes `obs` into `out` (length `size`, zero-filled by the caller) or a new array. */
  encode(obs: O, out?: Float32Array): Float32Array;
  /** The index of an action, or -1 when the action has none. */
  actionIndex(action: A): number;
  /** The action an index stands for. */
  action(index: number): A;
  /**
   * Legal action indices stated by an observation, for open action sets that a neural agent
   * plays through indices (Countdown's step mode); null when the observation states none (then
   * the legal list, when finite, is the mask).
   */
  legal?(obs: O): readonly number[] | null;
}

/**
 * What an environment author writes. Members marked optional get defaults from the
 * registry's normalization (see `normalizeEnv`).
 *
 * @typeParam S state: plain JSON, never mutated by any member.
 * @typeParam A action: plain JSON (finite envs usually use integers).
 * @typeParam O observation: plain JSON.
 */
export interface EnvDefinition<S = any, A = any, O = any> {
  meta: EnvMeta;

  /** A fresh episode. Params are already resolved (defaults filled, validated). */
  init(params: Params, seed: Seed): S;

  /** Role and team of each seat in this episode; its length is the number of seats. Default: meta.roles expanded in order. */
  seats?(state: S): readonly SeatInfo[];

  /**
   * Seats that must act now: one for a sequential step, several for a simultaneous one; empty
   * when terminal or when an effect is pending (see `effect`).
   */
  toAct(state: S): readonly number[];

  /**
   * The effect this state waits for (toAct is then empty), or null. Envs that request effects
   * also define `sampleEffectResult` and accept results through `validateAction(state,
   * EFFECT_SEAT, result)` and `step(state, { [EFFECT_SEAT]: result })`.
   */
  effect?(state: S): EffectRequest | null;

  /**
   * A plausible effect result drawn without doing the work (random test outcomes, random
   * timings): what the conformance kit and quick rollouts feed back instead of running code.
   */
  sampleEffectResult?(state: S, request: EffectRequest, rng: Rng): JsonValue;

  /**
   * The finite set of legal actions of `seat` (empty if it is not to act). Omit for envs whose
   * action sets are always open; return null where this state's action set is open (free text,
   * code) while other states or param settings have finite ones. Never throws.
   */
  legalActions?(state: S, seat: number): readonly A[] | null;

  /**
   * Whether `seat` may play `action` now, with a reason when not. Must answer, never throw,
   * on any input (wrong types, wrong seat). Default: membership in `legalActions`.
   */
  validateAction?(state: S, seat: number, action: unknown): ActionCheck;

  /** Applies one validated action per acting seat. Pure: returns a new state and the step's events. */
  step(state: S, actions: ActionMap<A>): StepResult<S>;

  isTerminal(state: S): boolean;

  /** One number per seat; meaningful at the terminal state (partial values before it). */
  returns(state: S): number[];

  /** Label of how the episode ended ("solved", "agreement", "villagers"); "" while running. */
  outcome(state: S): string;

  /**
   * The one projection for agents, spectators and replays: what `viewer` may know.
   * Structured JSON; `render` turns it into text.
   */
  observe(state: S, viewer: Viewer): O;

  /** Text form of an observation, for text agents and terminals. Default: pretty JSON. */
  render?(obs: O): string;

  /** A random (plausibly legal) action from a seat's observation: the random agent for open action sets. */
  sampleAction?(obs: O, rng: Rng): A;

  /** Episode summary for `arena play --json` (the puzzle, the deal, the answers). Default: none. */
  summary?(state: S): JsonValue;

  /**
   * Aggregates episode summaries into the play summary (agreement rate, win rate per team...).
   * Default: nothing beyond the generic summary.
   */
  aggregate?(summaries: readonly JsonValue[]): { [key: string]: JsonValue };

  /**
   * The params as spectators may see them (the public `match.started` event). Default: all of
   * them. Hide params that fix private information (a dealt role, private values).
   */
  publicParams?(params: Params): Params;

  /** Visibility of an action event. Default: the acting seat only (actions are private until the env says otherwise). */
  actionVisibility?(state: S, seat: number, action: A): Visibility;

  /** Action used by the "default" fault policy. Default: the first legal action (finite sets only). */
  defaultAction?(state: S, seat: number): A;

  /**
   * Returns when `seat` forfeits: −1 for it, and for the others what they had earned (faults cost
   * the faulty seat only; `keepReturnsSoFar(returns)` in src/core/forfeit.ts). Default: the
   * forfeiter −1; zero-sum: the others share +1; otherwise each other seat the sum of the
   * per-decision rewards the env gave it (0 when none).
   */
  forfeitReturns?(state: S, seat: number): number[];

  /**
   * For the leak check of imperfect-information envs: states that differ from `state` only
   * in information private to `seat` (its hidden role, private values, pending move).
   */
  privateVariants?(state: S, seat: number, rng: Rng): S[];

  /**
   * The game's public phase in `state` ("night 2", "day 2"), carried by each `turn` event. For
   * hidden-role envs the public view is released per phase: a phase's events reach spectators
   * together when it ends, stamped with that moment, so no decision's duration shows (see
   * src/core/phase-release.ts). Must depend on public information only (the conformance kit's
   * view-stream check compares it across private variants). Default: none — a hidden-role
   * match is then one phase, shown publicly when it ends.
   */
  phase?(state: S): string;

  /** Neural encoding, when the env supports neural agents. */
  encoder?: Encoder<O, A>;

  /** Instructions, action names and answer formats for text players (LLMs, humans); see src/core/prompt.ts. */
  prompt?: PromptTemplate<O, A>;

  /**
   * Reward hacks that must not pay (envs that run programs): each is played through the real
   * reward path by `arena check`'s `exploits` check; see src/core/conformance/exploits.ts.
   */
  exploits?: readonly ExploitFixture<O, A>[];
}

/** A normalized env: every member present. Built by `normalizeEnv`. */
type OptionalMembers =
  | 'legalActions'
  | 'sampleAction'
  | 'privateVariants'
  | 'encoder'
  | 'defaultAction'
  | 'forfeitReturns'
  | 'aggregate'
  | 'publicParams'
  | 'phase'
  | 'sampleEffectResult'
  | 'prompt'
  | 'exploits';

export type Env<S = any, A = any, O = any> = Required<Omit<EnvDefinition<S, A, O>, OptionalMembers>> &
  Pick<EnvDefinition<S, A, O>, OptionalMembers> & {
    /** The declared capabilities with inferred defaults filled in. */
    capabilities: EnvCapabilities;
    /** Resolves and validates raw params (ParamError on bad input). */
    resolveParams(raw?: unknown): Params;
    /** meta.utility for these params. */
    utilityFor(params: Params): Utility;
    /** meta.maxLength for these params. */
    maxLengthFor(params: Params): number;
  };
