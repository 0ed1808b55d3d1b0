import type { ActionCheck, Env } from './env';
import type { JsonObject } from './json';
import type { ParamSchema, Params } from './params';
import type { Rng } from './rng';
import type { CodeRunner, KernelLab } from './sandbox';

/**
 * Capabilities the arena lends to agents that need them: `code` runs programs in the sandbox
 * (the mutation-search fixer tries its mutants, the fuzzing auditor its inputs); `kernels` is
 * the kernel lab (the autotuner measures schedules in it). Absent when the host offers none;
 * agents that need one say so in a clear error.
 */
export interface AgentServices {
  code?: CodeRunner;
  kernels?: KernelLab;
}

/** What an agent knows about the decision it is asked to make, besides the observation. */
export interface AgentContext {
  readonly matchId: string;
  readonly seat: number;
  readonly role: string;
  readonly team: string;
  /** 0-based step index of the episode. */
  readonly step: number;
  /** The agent's own seeded generator (derived from the match seed and the seat). */
  readonly rng: Rng;
  /** Wall-clock deadline (ms since epoch) for this decision; Infinity when none. */
  readonly deadline: number;
  /** Aborted when the decision's deadline passes or the match is stopped. */
  readonly signal: AbortSignal;
  readonly env: Env;
  readonly params: Params;
  /**
   * The env's verdict on `action` for this decision, without playing it (text agents re-ask with
   * the reason). Present in matches run by `runMatch`.
   */
  validate?(action: unknown): ActionCheck;
  /**
   * Records something the agent did for this decision (an LLM attempt: answer, verdict, tokens)
   * as an `agent` event visible to this seat and omniscient views. Ignored once the decision is
   * over (answered, timed out or the match ended). Present in matches run by `runMatch`.
   */
  note?(name: string, data: JsonObject): void;
}

/**
 * What an agent reports about the episode just played (model and endpoint, tokens, latency,
 * cost): plain JSON, kept per seat in the match result, the play summary and league matches.
 */
export type AgentReport = JsonObject;

/**
 * An agent fills a seat. `act` may answer synchronously (the runner's fast path: no promise,
 * no timer) or with a Promise (raced against the deadline; the signal aborts on timeout).
 * `legal` is the finite legal action list, or null for open action sets (validate yourself
 * with `ctx.env.validateAction` if you like; illegal answers are handled by the fault policy).
 */
export interface Agent<O = any, A = any> {
  readonly name: string;
  /**
   * When true the agent is given the omniscient observation instead of its seat's one.
   * Such agents (oracles) are for evaluation only: leagues refuse them as rated players.
   */
  readonly omniscient?: boolean;
  act(obs: O, legal: readonly A[] | null, ctx: AgentContext): A | Promise<A>;
  /** Called once at the start of each episode, before the agent's first decision. */
  start?(ctx: AgentContext): void;
  /** Called once when the episode ends, with every seat's returns, the outcome label and the env's episode summary. */
  end?(returns: readonly number[], ctx: AgentContext, info: { outcome: string; summary: unknown }): void;
  /** The episode's report (called after `end`); null or absent when there is nothing to report. */
  report?(): AgentReport | null;
}

/** Options handed to an agent factory. */
export interface AgentOptions {
  env: Env;
  params: Params;
  /** Seed for the agent's own randomness (independent of the per-decision ctx.rng). */
  seed: number;
  /** Free-form options from the caller (`name:{"json":"options"}` on the CLI). */
  options?: Record<string, unknown>;
  /** What the host lends (the registry fills it from its own services when absent). */
  services?: AgentServices;
}

/** A named kind of agent, listed by `arena agents` and used by `--agents name,...`. */
export interface AgentFactory {
  name: string;
  description: string;
  /** Env ids this agent can play; absent means any env. */
  envs?: readonly string[];
  /** Roles it can play; absent means any. */
  roles?: readonly string[];
  /** False for evaluation-only agents (e.g. omniscient oracles) that rated play must refuse. */
  rated?: boolean;
  /**
   * The options it accepts (`name:{"option": value}`), declared like env params. When given, the
   * registry refuses unknown or ill-typed options with an error naming the option (`{}`: none);
   * when absent, options are passed through unchecked (the factory checks them).
   */
  options?: ParamSchema;
  create(options: AgentOptions): Agent;
}
