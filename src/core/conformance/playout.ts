import { EFFECT_SEAT, type ActionMap, type Env, type EnvEvent, type StepReward } from '../env';
import { heartbeat } from '../heartbeat';
import type { Params } from '../params';
import type { Rng } from '../rng';

/** One step of a recorded episode. */
export interface TraceStep {
  /** Seats that acted; `[EFFECT_SEAT]` for a step that applied an effect's result. */
  toAct: number[];
  actions: ActionMap<unknown>;
  events: EnvEvent[];
  rewards?: StepReward[];
}

/** A recorded episode: enough to replay it exactly. */
export interface Trace {
  params: Params;
  seed: number;
  steps: TraceStep[];
  /** States before each step, then the final state (only when asked for). */
  states: unknown[];
  terminal: boolean;
  returns: number[] | null;
  outcome: string | null;
  /** Why the playout stopped early (exceeded max length, no way to pick an action). */
  problem?: string;
}

/**
 * A random action for `seat`: uniform over legal actions, else the env's sampleAction; for the
 * effect seat, the env's sampled effect result. Undefined when none exists.
 */
export function randomAction(env: Env, state: unknown, seat: number, rng: Rng): unknown {
  if (seat === EFFECT_SEAT) {
    const effect = env.effect(state);
    return effect && env.sampleEffectResult ? env.sampleEffectResult(state, effect, rng) : undefined;
  }
  const legal = env.legalActions ? env.legalActions(state, seat) : null;
  if (legal !== null) return legal.length ? legal[rng.int(legal.length)] : undefined;
  return env.sampleAction ? env.sampleAction(env.observe(state, seat), rng) : undefined;
}

/**
 * Plays one episode with actions from `choose` (random by default), straight through the
 * env API (no runner, no agents), stopping at terminal or after `limit` steps.
 */
export function playout(
  env: Env,
  params: Params,
  seed: number,
  rng: Rng,
  options: { limit: number; keepStates?: boolean; choose?: (state: unknown, seat: number) => unknown },
): Trace {
  const hb = heartbeat();
  hb?.at(seed, 0);
  let state = env.init(params, seed);
  const trace: Trace = { params, seed, steps: [], states: [], terminal: false, returns: null, outcome: null };
  const choose = options.choose ?? ((s: unknown, seat: number) => randomAction(env, s, seat, rng));
  while (!env.isTerminal(state)) {
    hb?.atStep(trace.steps.length);
    if (trace.steps.length >= options.limit) {
      trace.problem = `not terminal after ${options.limit} steps (meta.maxLength)`;
      return trace;
    }
    if (options.keepStates) trace.states.push(state);
    const toAct = actorsOf(env, state);
    if (toAct.length === 0) {
      trace.problem = `step ${trace.steps.length}: toAct is empty but the state is not terminal (and no effect is pending)`;
      return trace;
    }
    const actions: ActionMap<unknown> = {};
    for (const seat of toAct) {
      const a = choose(state, seat);
      if (a === undefined) {
        trace.problem = `step ${trace.steps.length}: no action for seat ${seat} (no legal actions, or an open action set without sampleAction)`;
        return trace;
      }
      actions[seat] = a;
    }
    const result = env.step(state, actions);
    trace.steps.push({ toAct, actions, events: result.events, ...(result.rewards ? { rewards: result.rewards } : {}) });
    state = result.state;
  }
  if (options.keepStates) trace.states.push(state);
  trace.terminal = true;
  trace.returns = env.returns(state);
  trace.outcome = env.outcome(state);
  return trace;
}

/** Replays given actions from `init(params, seed)` (stops early if the episode ends first). */
export function replay(env: Env, params: Params, seed: number, steps: readonly ActionMap<unknown>[], keepStates = false): Trace {
  const hb = heartbeat();
  hb?.at(seed, 0);
  let state = env.init(params, seed);
  const trace: Trace = { params, seed, steps: [], states: [], terminal: false, returns: null, outcome: null };
  for (let i = 0; i < steps.length && !env.isTerminal(state); i++) {
    hb?.atStep(i);
    if (keepStates) trace.states.push(state);
    const toAct = actorsOf(env, state);
    const result = env.step(state, steps[i]);
    trace.steps.push({ toAct, actions: steps[i], events: result.events, ...(result.rewards ? { rewards: result.rewards } : {}) });
    state = result.state;
  }
  if (keepStates) trace.states.push(state);
  trace.terminal = env.isTerminal(state);
  if (trace.terminal) {
    trace.returns = env.returns(state);
    trace.outcome = env.outcome(state);
  }
  return trace;
}

/** Who acts in `state`: the effect seat when an effect is pending, else `toAct`. */
export function actorsOf(env: Env, state: unknown): number[] {
  return env.effect(state) ? [EFFECT_SEAT] : [...env.toAct(state)];
}
